// The move from OLM v0 to OLM v1 proved on OLM itself: cachely installed by OLM v0 in `operators`
// (all namespaces) with a CacheCluster in team1 moves to a ClusterExtension at the same version;
// the CRD and the CacheCluster survive, the CSV and Subscription are gone, and the operator's
// Deployment now carries operator-controller's owner label and a controller reference to the
// ClusterExtension. And issue 40's probe: certwarden installed by OLM v0, pgpilot by OLM v0 in
// team2, and a second ClusterCatalog of priority 10 whose certwarden.v1.1.0 also ships team2's CRD
// and a ClusterRole named aggregate-olm-edit: the move is refused naming both, and the cluster
// shows both objects with the labels and annotations they had. And a bundle shipping its own role
// feeding `edit`: metricsmith installed by OLM v0 from a catalog whose bundle also ships
// collectors-editor-role labelled aggregate-to-edit, which OLM v0 leaves when the CSV goes; the
// move takes it over and reaches Installed, and the role is the very one, with the bundle's rules,
// now the ClusterExtension's, its rules still part of `edit`. On the sandbox, then on the real
// cluster's OLM v0 and operator-controller v1.2.0 (`npm run cluster`), skipped with the reason
// where its programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE, DEPLOYMENT_TYPE, rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE } from '../../olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { ApiError } from '../api-error';
import { clientAs, csvPhase, subscribe, waitFor } from '../testing/cluster';
import {
  EDITOR_CSV,
  EDITOR_PACKAGE,
  EDITOR_ROLE,
  EDITOR_ROLE_RULES,
  writeEditorRoleCatalog,
} from '../testing/editor-role-catalog';
import { FOREIGN_CRD, SHARED_ROLE, writeForeignBundleCatalog } from '../testing/foreign-bundle-catalog';
import { analyseMigration } from './migration';
import { applyMigration } from './migration-apply';
import { CATALOG_SOURCE_TYPE } from '../../olm/resources/catalog-source';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');
const CACHE = {
  group: 'cachely.example.com',
  version: 'v1',
  plural: 'cacheclusters',
  namespaced: true,
  kind: 'CacheCluster',
};
const CSV = 'cachely.v0.9.2';
const PROBE = 'probe-catalog';
const PROBE_DIR = writeForeignBundleCatalog(PROBE);
const PROBE_IMAGE = 'quay.example.com/probe/catalog:latest';
const CERTWARDEN = 'certwarden.v1.1.0';
const EDITOR = 'editor-role-catalog';
const EDITOR_DIR = writeEditorRoleCatalog(EDITOR);
const EDITOR_IMAGE = 'quay.example.com/probe/editor-role-catalog:latest';
const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};

type Meta = {
  metadata: {
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
};

function proveOn(
  what: string,
  start: () => Promise<{ admin: KubeClient; stop(): Promise<void> }>,
  timeoutMs: number,
  source: string,
  /** The CatalogSource serving the editor-role catalog to OLM v0. */
  editorSource: string,
) {
  describe(`moving an operator to OLM v1 on ${what}`, () => {
    let admin: KubeClient;
    let stop: () => Promise<void>;
    const succeeded = (ns: string, csv: string) =>
      waitFor(
        `${csv} Succeeded`,
        async () => ((await csvPhase(admin, ns, csv)) === 'Succeeded' ? true : undefined),
        timeoutMs,
      );
    before(async () => {
      ({ admin, stop } = await start());
      await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha', source });
      await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable', source });
      await subscribe(admin, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'], source });
      await subscribe(admin, {
        namespace: 'operators',
        package: EDITOR_PACKAGE,
        channel: 'stable',
        source: editorSource,
      });
      await succeeded('operators', CSV);
      await succeeded('operators', EDITOR_CSV);
      await succeeded('operators', CERTWARDEN);
      await succeeded('team2', 'pgpilot.v1.4.0');
      await admin.create(
        PG,
        {
          apiVersion: 'pgpilot.example.com/v1',
          kind: 'PostgresCluster',
          metadata: { name: 'team2-prod-db', namespace: 'team2' },
          spec: {},
        },
        { namespace: 'team2' },
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

    test('a bundle also shipping team2’s CRD and OLM’s shared role is refused; both stay as they were', async () => {
      const marks = async () =>
        (
          await Promise.all([
            admin.get<Meta>(CRD_TYPE, FOREIGN_CRD),
            admin.get<Meta>(rbacType('ClusterRole'), SHARED_ROLE),
          ])
        ).map((o) => ({ labels: o.metadata.labels ?? {}, annotations: o.metadata.annotations ?? {} }));
      // OLM v0 labels team2's CRD as a component of pgpilot on its own schedule; the move's
      // refusal is compared against the labels once OLM has written them.
      await waitFor(
        `${FOREIGN_CRD} labelled as pgpilot's`,
        async () => {
          const crd = await admin.get<Meta>(CRD_TYPE, FOREIGN_CRD);
          return crd.metadata.labels?.['operators.coreos.com/pgpilot.team2'] !== undefined ? true : undefined;
        },
        timeoutMs,
      );
      const before = await marks();
      // The probe's catalog wins once catalogd serves it (on its own schedule on the real cluster).
      // Until then the plan may fail to read the new catalog; the last answer explains a timeout.
      let last: unknown;
      const plan = await waitFor(
        `the plan for ${CERTWARDEN} resolving from ${PROBE}`,
        async () => {
          try {
            const a = await analyseMigration(admin, 'operators', CERTWARDEN);
            last = a.view;
            return a.view.reasons.some((r) => r.object?.name === FOREIGN_CRD) ? a : undefined;
          } catch (err) {
            last = err;
            return undefined;
          }
        },
        timeoutMs,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
      });
      assert.deepEqual(
        plan.view.reasons.map((r) => [r.code, r.object?.kind, r.object?.name]),
        [
          ['not-installed-by-v0', 'CustomResourceDefinition', FOREIGN_CRD],
          ['shared-role', 'ClusterRole', SHARED_ROLE],
        ],
      );
      await assert.rejects(
        applyMigration(admin, 'operators', CERTWARDEN, { waitMs: timeoutMs }),
        (e) => e instanceof ApiError && e.code === 409 && e.message.includes(FOREIGN_CRD),
      );
      assert.deepEqual(await marks(), before);
      await admin.get(CSV_TYPE, CERTWARDEN, 'operators');
      await admin.get(PG, 'team2-prod-db', 'team2');
      await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'certwarden'), (e) => isKubeError(e, 404));
    });

    test('the instance and CRD survive, and the Deployment is now the ClusterExtension’s', async () => {
      const plan = await analyseMigration(admin, 'operators', CSV);
      assert.equal(plan.view.canMove, true, JSON.stringify(plan.view.reasons));
      const result = await applyMigration(admin, 'operators', CSV, { waitMs: timeoutMs, csvWaitMs: timeoutMs });
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

    test('a bundle’s own role feeding edit moves with it, the same role with the same rules', async () => {
      type Role = Meta & { rules?: unknown[] };
      const before = await admin.get<Role>(rbacType('ClusterRole'), EDITOR_ROLE);
      // OLM v0 wrote the role from the bundle: olm.managed, and none of the owner marks it gives the
      // CSV's own ClusterRoles.
      assert.equal(before.metadata.labels?.['olm.managed'], 'true');
      assert.equal(before.metadata.labels?.['olm.owner.kind'], undefined);
      assert.deepEqual(before.metadata.ownerReferences ?? [], []);
      // The editor-role catalog wins once catalogd serves it; until then the plan resolves from the demo.
      let last: unknown;
      const plan = await waitFor(
        `the plan for ${EDITOR_CSV} resolving from ${EDITOR}`,
        async () => {
          try {
            const a = await analyseMigration(admin, 'operators', EDITOR_CSV);
            last = a.view;
            return a.view.catalog === EDITOR ? a : undefined;
          } catch (err) {
            last = err;
            return undefined;
          }
        },
        timeoutMs,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
      });
      assert.equal(plan.view.canMove, true, JSON.stringify(plan.view.reasons));
      assert.ok(
        plan.view.objects?.some((o) => o.kind === 'ClusterRole' && o.name === EDITOR_ROLE && o.fate === 'adopt'),
        JSON.stringify(plan.view.objects),
      );
      const result = await applyMigration(admin, 'operators', EDITOR_CSV, {
        waitMs: timeoutMs,
        csvWaitMs: timeoutMs,
      });
      assert.equal(result.ok, true, JSON.stringify(result));
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, EDITOR_PACKAGE);
      assert.deepEqual(ce.status?.install?.bundle, { name: EDITOR_CSV, version: '0.4.0' });
      assert.ok(
        ce.status?.conditions?.some((c) => c.type === 'Installed' && c.status === 'True'),
        JSON.stringify(ce.status?.conditions),
      );
      const role = await admin.get<Role>(rbacType('ClusterRole'), EDITOR_ROLE);
      assert.equal(role.metadata.uid, before.metadata.uid);
      assert.deepEqual(role.rules, EDITOR_ROLE_RULES);
      assert.equal(role.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
      assert.equal(role.metadata.labels?.['olm.operatorframework.io/owner-name'], EDITOR_PACKAGE);
      assert.ok(
        role.metadata.ownerReferences?.some(
          (r) => r.kind === 'ClusterExtension' && r.name === EDITOR_PACKAGE && r.controller,
        ),
        JSON.stringify(role.metadata.ownerReferences),
      );
      // Its rules are still part of what `edit` grants.
      const edit = await admin.get<{ rules?: { apiGroups?: string[]; resources?: string[] }[] }>(
        rbacType('ClusterRole'),
        'edit',
      );
      assert.ok(
        edit.rules?.some(
          (r) => r.apiGroups?.includes('metricsmith.example.com') && r.resources?.includes('collectors'),
        ),
        JSON.stringify(edit.rules),
      );
      await assert.rejects(admin.get(CSV_TYPE, EDITOR_CSV, 'operators'), (e) => isKubeError(e, 404));
    });
  });
}

proveOn(
  'the sandbox',
  async () => {
    const sb = await withSandbox({
      deploymentDelayMs: 10,
      catalogImages: { [PROBE_IMAGE]: PROBE_DIR, [EDITOR_IMAGE]: EDITOR_DIR },
    });
    const admin = clientAs(sb, 'admin');
    for (const [name, ref] of [
      [PROBE, PROBE_IMAGE],
      [EDITOR, EDITOR_IMAGE],
    ])
      await admin.create(CLUSTER_CATALOG_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name },
        spec: { priority: 10, source: { type: 'Image', image: { ref } } },
      });
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: EDITOR, namespace: 'olm' },
      spec: { sourceType: 'grpc', image: EDITOR_IMAGE, displayName: 'Editor role' },
    });
    return { admin, stop: () => sb.close() };
  },
  15_000,
  'olm-console-demo',
  EDITOR,
);

const skip = clusterProgramsMissing();
if (skip) test('moving an operator to OLM v1 on the real cluster', (t) => t.skip(skip));
else {
  let cluster: RealCluster | undefined;
  proveOn(
    'the real cluster',
    async () => {
      cluster = await startRealCluster([DEMO_DIR, PROBE_DIR, EDITOR_DIR]);
      const admin = clientAs(cluster, 'admin');
      // `npm run cluster` names each --catalog's ClusterCatalog after its folder.
      for (const name of [PROBE, EDITOR])
        await admin.patch(CLUSTER_CATALOG_TYPE, name, { spec: { priority: 10 } }, { type: 'merge' });
      return { admin, stop: async () => cluster?.stop() };
    },
    240_000,
    // `npm run cluster` names each --catalog's CatalogSource and ClusterCatalog after its folder.
    catalogSourceName(DEMO_DIR),
    catalogSourceName(EDITOR_DIR),
  );
}
