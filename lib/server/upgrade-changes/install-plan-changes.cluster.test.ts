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
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { clientAs, csvPhase, subscribe, waitFor } from '../testing/cluster';
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
    const planFor = (csv: string) =>
      waitFor(
        `a plan for ${csv} waiting`,
        async () =>
          (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: NS })).items.find(
            (p) => p.spec.clusterServiceVersionNames.includes(csv) && p.status?.phase === 'RequiresApproval',
          ),
        240_000,
      );

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      admin = clientAs(cluster, 'admin');
      await subscribe(admin, {
        namespace: NS,
        package: 'pgpilot',
        channel: 'stable',
        approval: 'Manual',
        startingCSV: FROM,
        targets: [NS],
        source: catalogSourceName(DEMO_DIR),
      });
      const first = await planFor(FROM);
      await admin.patch(
        INSTALL_PLAN_TYPE,
        first.metadata!.name!,
        { spec: { approved: true } },
        { namespace: NS, type: 'merge' },
      );
      await waitFor(
        '1.2.0 Succeeded',
        async () => ((await csvPhase(admin, NS, FROM)) === 'Succeeded' ? true : undefined),
        240_000,
      );
      plan = await planFor(TO);
      // OLM writes the plan before the Subscription's currentCSV names the new version.
      await waitFor(
        `the Subscription moving to ${TO}`,
        async () =>
          (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', NS)).status?.currentCSV === TO
            ? true
            : undefined,
        60_000,
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
      assert.deepEqual(c.images, {
        added: [
          'quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e342e3000000000000000000000000000000000000000',
        ],
        removed: [
          'quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e322e3000000000000000000000000000000000000000',
        ],
      });
      assert.deepEqual([c.rulesAdded, c.rulesDropped, c.crds, c.dropsStoredVersion], [[], [], [], false]);
    });
  });
