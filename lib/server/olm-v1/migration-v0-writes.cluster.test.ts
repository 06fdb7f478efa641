// The move against OLM v0 writing over its marks, on the real cluster (OLM v0.38.0 and
// operator-controller v1.2.0): right after the move's mark on Cachely's account lands, an admin
// writes the account as OLM v0's EnsureServiceAccount does (migration-v0-writes.test.ts says why);
// operator-controller refuses it as "already exists", the move marks it again, and the real
// operator-controller, retrying on its own schedule, installs. Skipped with the reason where the
// cluster's programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { SERVICE_ACCOUNT_TYPE } from '../../k8s/core-kinds';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { clientAs, csvPhase, subscribe, waitFor } from '../testing/cluster';
import { afterFirstMark, rewriteAsOlmV0 } from '../testing/olm-v0-writes';
import { applyMigration } from './migration-apply';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');
const CSV = 'cachely.v0.9.2';
const WAIT = 240_000;

const skip = clusterProgramsMissing();
if (skip) test('the move when OLM v0 writes over its marks, on the real cluster', (t) => t.skip(skip));
else
  describe('the move when OLM v0 writes over its marks, on the real cluster', () => {
    let cluster: RealCluster;
    let admin: KubeClient;
    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      admin = clientAs(cluster, 'admin');
      await subscribe(admin, {
        namespace: 'operators',
        package: 'cachely',
        channel: 'alpha',
        source: catalogSourceName(DEMO_DIR),
      });
      await waitFor(
        `${CSV} Succeeded`,
        async () => ((await csvPhase(admin, 'operators', CSV)) === 'Succeeded' ? true : undefined),
        WAIT,
      );
      await waitFor(
        `Subscription cachely naming ${CSV}`,
        async () => {
          const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'operators');
          return sub.status?.installedCSV === CSV ? true : undefined;
        },
        WAIT,
      );
    });
    after(() => cluster?.stop());

    test('the account OLM v0 rewrote is marked again and operator-controller installs', async () => {
      const r = await applyMigration(
        afterFirstMark(admin, () => rewriteAsOlmV0(admin)),
        'operators',
        CSV,
        { waitMs: WAIT, csvWaitMs: WAIT },
      );
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(
        r.steps.find((s) => s.id === 'wait-installed')?.message,
        'ServiceAccount operators/cachely-controller lost the marks for OLM v1 while it installed and was marked again',
      );
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
      assert.deepEqual(ce.status?.install?.bundle, { name: CSV, version: '0.9.2' });
      const sa = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
        SERVICE_ACCOUNT_TYPE,
        'cachely-controller',
        'operators',
      );
      assert.equal(sa.metadata.labels?.['olm.operatorframework.io/owner-name'], 'cachely');
    });
  });
