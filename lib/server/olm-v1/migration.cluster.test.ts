// The move from OLM v0 to OLM v1 proved on OLM itself: cachely installed by OLM v0 in `operators`
// (all namespaces) with a CacheCluster in team1 moves to a ClusterExtension at the same version;
// the CRD and the CacheCluster survive, the CSV and Subscription are gone, and the operator's
// Deployment now carries operator-controller's owner label and a controller reference to the
// ClusterExtension. On the sandbox, then on the real cluster's OLM v0 and operator-controller
// v1.2.0 (`npm run cluster`), skipped with the reason where its programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE, DEPLOYMENT_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE } from '../../olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, csvPhase, subscribe, waitFor } from '../testing/cluster';
import { analyseMigration } from './migration';
import { applyMigration } from './migration-apply';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');
const CACHE = {
  group: 'cachely.example.com',
  version: 'v1',
  plural: 'cacheclusters',
  namespaced: true,
  kind: 'CacheCluster',
};
const CSV = 'cachely.v0.9.2';

type Meta = {
  metadata: {
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
};

function proveOn(
  what: string,
  start: () => Promise<{ admin: KubeClient; stop(): Promise<void> }>,
  timeoutMs: number,
  source: string,
) {
  describe(`moving an operator to OLM v1 on ${what}`, () => {
    let admin: KubeClient;
    let stop: () => Promise<void>;
    before(async () => {
      ({ admin, stop } = await start());
      await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha', source });
      await waitFor(
        `${CSV} Succeeded`,
        async () => ((await csvPhase(admin, 'operators', CSV)) === 'Succeeded' ? true : undefined),
        timeoutMs,
      );
      // OLM records the installed CSV on the Subscription after the CSV succeeds; the move reads
      // the channel from there.
      await waitFor(
        `Subscription cachely naming ${CSV}`,
        async () => {
          const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'operators');
          return sub.status?.installedCSV === CSV ? true : undefined;
        },
        timeoutMs,
      );
      await admin.create(
        CACHE,
        {
          apiVersion: 'cachely.example.com/v1',
          kind: 'CacheCluster',
          metadata: { name: 'sessions', namespace: 'team1' },
          spec: { replicas: 2 },
        },
        { namespace: 'team1' },
      );
    });
    after(() => stop?.());

    test('the instance and CRD survive, and the Deployment is now the ClusterExtension’s', async () => {
      const plan = await analyseMigration(admin, 'operators', CSV);
      assert.equal(plan.view.canMove, true, JSON.stringify(plan.view.reasons));
      const result = await applyMigration(admin, 'operators', CSV, { waitMs: timeoutMs });
      assert.equal(result.ok, true, JSON.stringify(result));
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
      assert.deepEqual(ce.status?.install?.bundle, { name: CSV, version: '0.9.2' });
      await admin.get(CRD_TYPE, 'cacheclusters.cachely.example.com');
      const instance = await admin.get<{ spec: { replicas: number } }>(CACHE, 'sessions', 'team1');
      assert.equal(instance.spec.replicas, 2);
      const dep = await admin.get<Meta>(DEPLOYMENT_TYPE, 'cachely-controller-manager', 'operators');
      assert.equal(dep.metadata.labels?.['olm.operatorframework.io/owner-name'], 'cachely');
      // Helm's adoption is a three-way merge from the rendered object: OLM v0's own label stays.
      assert.equal(dep.metadata.labels?.['olm.owner'], CSV);
      assert.ok(
        dep.metadata.ownerReferences?.some(
          (r) => r.kind === 'ClusterExtension' && r.name === 'cachely' && r.controller,
        ),
        JSON.stringify(dep.metadata.ownerReferences),
      );
      await assert.rejects(admin.get(CSV_TYPE, CSV, 'operators'), (e) => isKubeError(e, 404));
      await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators'), (e) => isKubeError(e, 404));
    });
  });
}

proveOn(
  'the sandbox',
  async () => {
    const sb = await withSandbox({ deploymentDelayMs: 10 });
    return { admin: clientAs(sb, 'admin'), stop: () => sb.close() };
  },
  15_000,
  'olm-console-demo',
);

const skip = clusterProgramsMissing();
if (skip) test('moving an operator to OLM v1 on the real cluster', (t) => t.skip(skip));
else {
  let cluster: RealCluster | undefined;
  proveOn(
    'the real cluster',
    async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      return { admin: clientAs(cluster, 'admin'), stop: async () => cluster?.stop() };
    },
    240_000,
    // `npm run cluster` names each --catalog's CatalogSource and ClusterCatalog after its folder.
    catalogSourceName(DEMO_DIR),
  );
}
