// What an upgrade changes, on real OLM v0.38.0 (`npm run cluster`): pgpilot 1.2.0 installed under
// Manual approval in team1 from the demo catalog (bundles inline, so OLM puts the objects in the
// plan's steps), its upgrade plan to 1.4.0 waiting. The steps are OLM's own: its CSV, the bundle's
// CRDs, and the RBAC it derives from the CSV, which carries `olm.permissions.hash`, its
// ServiceAccount without apiVersion or kind (the sandbox's has both and no hash label,
// docs/olm/install-plans.md#the-bundle-in-a-plan). The answer reads the installed bundle
// from the cluster and the new one from those steps, and says the image changes and no rule does.
// Skipped with the reason where the real cluster's programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import type { InstallPlan } from '../../olm/resources/install-plan';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { clientAs } from '../testing/cluster';
import { PGPILOT_UPGRADE_IMAGES, upgradeWaitingForApproval } from '../testing/upgrade-waiting';
import { installPlanChanges } from './install-plan-changes';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');
const NS = 'team1';
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';

const skip = clusterProgramsMissing();
if (skip) test('what an upgrade changes, on the real cluster', (t) => t.skip(skip));
else
  describe('what an upgrade changes, on the real cluster', () => {
    let cluster: RealCluster | undefined;
    let admin: KubeClient;
    let plan: InstallPlan;

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      admin = clientAs(cluster, 'admin');
      plan = await upgradeWaitingForApproval(
        admin,
        {
          namespace: NS,
          package: 'pgpilot',
          channel: 'stable',
          from: FROM,
          to: TO,
          source: catalogSourceName(DEMO_DIR),
        },
        240_000,
      );
    });
    after(() => cluster?.stop());

    test("OLM's steps carry the bundle's objects and the RBAC it derived, labelled with its hash", () => {
      const own = plan.status!.plan!.filter((s) => s.resolving === TO);
      const roles = own.filter((s) =>
        ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].includes(s.resource.kind),
      );
      assert.ok(roles.length > 0);
      for (const s of roles) {
        const labels = (JSON.parse(s.resource.manifest!) as { metadata: { labels?: Record<string, string> } }).metadata
          .labels;
        assert.ok(labels?.['olm.permissions.hash'], `${s.resource.kind} ${s.resource.name}: ${JSON.stringify(labels)}`);
        assert.equal(labels?.['olm.owner'], TO);
      }
      // The ServiceAccount it derives is marshalled from a typed value: no apiVersion, no kind.
      const sa = own.find((s) => s.resource.kind === 'ServiceAccount');
      const manifest = JSON.parse(sa!.resource.manifest!) as {
        kind?: string;
        metadata: { ownerReferences?: unknown[] };
      };
      assert.deepEqual([manifest.kind, manifest.metadata.ownerReferences?.length], [undefined, 1]);
    });

    test('the answer compares the installed bundle from the cluster with the objects in the plan', async () => {
      const body = await installPlanChanges(admin, NS, plan.metadata!.name!);
      const p = body.parts.find((x) => x.csv === TO);
      assert.ok(p, JSON.stringify(body));
      assert.deepEqual([p.change, p.from], ['upgrade', FROM]);
      assert.deepEqual(p.installed, { bundle: FROM, source: 'cluster', gaps: [] });
      assert.deepEqual(p.target, { bundle: TO, source: 'plan', gaps: [] });
      const c = p.changes;
      assert.ok(c && !('unknown' in c), JSON.stringify(c));
      assert.deepEqual(c.images, PGPILOT_UPGRADE_IMAGES);
      assert.deepEqual([c.rulesAdded, c.rulesDropped, c.crds, c.dropsStoredVersion], [[], [], [], false]);
    });
  });
