// A v0 rollout through an OperatorPolicy on a real Open Cluster Management v1.0.0 fleet (`npm run
// cluster -- --fleet 2 --no-olm-v1` with the shared gatekeeper catalog: the hub, also managed as
// local-cluster, and cluster2, the canary), where each managed cluster runs config-policy-controller
// v0.16.0. Written through this module as the hub's admin, the policy must: make the Subscription on
// each cluster itself (installPlanApproval Manual under upgradeApproval None), have OLM install the
// starting CSV and leave the channel's next CSV waiting for approval, and bring each cluster's
// compliance back to the hub in the policy's words. Changed to upgradeApproval Automatic with that
// CSV in `versions`, the policy approves the upgrade; changed to allow only the older CSV, the
// canary shows NonCompliant with the policy's own reason. Skipped when the programs or the shared
// catalogs are missing (this test builds nothing).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeClient } from '../../k8s/client';
import type { ClusterRow } from '../../olm/rollout/status';
import {
  eventually as poll,
  gatekeeperChoices,
  GATEKEEPER as PKG,
  kubectl,
  realFleetMissing,
  startGatekeeperFleet,
  type OcmFleet,
} from '../testing/ocm-fleet';
import { readRollout, stopRollout } from './read';
import { writeRollout } from './write';

const skip = realFleetMissing();

const NS = 'gatekeeper-system';
// The namespace config-policy-controller watches on every cluster of the fleet (scripts/cluster-ocm-objects.ts).
const POLICIES = 'open-cluster-management-policies';
const choices = gatekeeperChoices({
  name: 'gatekeeper-policy',
  approval: undefined,
  installNamespace: NS,
  operatorPolicy: { namespace: POLICIES, allowedVersions: [], upgradeApproval: 'None' },
});

const json = <T>(kubeconfig: string, args: string[]): T | undefined => {
  const r = kubectl(kubeconfig, [...args, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as T) : undefined;
};

const eventually = <T>(what: () => string, probe: () => Promise<T | undefined> | T | undefined, ms: number) =>
  poll(what, probe, ms, 1000);

type Sub = {
  metadata: { annotations?: Record<string, string> };
  spec: { installPlanApproval?: string };
  status?: { installedCSV?: string; currentCSV?: string; state?: string };
};
type InstallPlan = { spec: { approved: boolean; clusterServiceVersionNames: string[] }; status?: { phase?: string } };

if (skip) test('a rollout through an OperatorPolicy across a real OCM fleet', (t) => t.skip(skip));
else
  describe('a rollout through an OperatorPolicy across a real OCM fleet running config-policy-controller', () => {
    let fleet: OcmFleet;
    let managed: Map<string, string>;
    let hub: KubeClient;

    before(async () => {
      fleet = await startGatekeeperFleet();
      ({ hub } = fleet);
      ({ managed } = fleet.real);
    });

    after(async () => {
      await fleet?.stop();
    });

    const subscription = (cluster: string) => json<Sub>(managed.get(cluster)!, ['get', 'subscription', PKG, '-n', NS]);
    const csvPhase = (cluster: string, csv: string) =>
      kubectl(managed.get(cluster)!, ['get', 'csv', csv, '-n', NS, '-o', 'jsonpath={.status.phase}']).stdout;
    const rows = async (): Promise<ClusterRow[]> =>
      (await readRollout(hub, 'rollouts', choices.name)).view.waves.flatMap((w) => w.clusters);
    const row = async (cluster: string) => (await rows()).find((c) => c.cluster === cluster);

    test('each managed cluster runs config-policy-controller, and its work agent may apply OperatorPolicies', () => {
      for (const cluster of ['local-cluster', 'cluster2']) {
        assert.match(fleet.real.output(), new RegExp(`^config-policy-controller ${cluster}: ready in [\\d.]+ s`, 'm'));
        // OCM's klusterlet gives its work agent `admin` and what is aggregated to work; the fleet
        // aggregates OperatorPolicies.
        const canI = kubectl(managed.get(cluster)!, [
          'auth',
          'can-i',
          'create',
          'operatorpolicies.policy.open-cluster-management.io',
          '-n',
          POLICIES,
          '--as=system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa',
        ]);
        assert.equal(canI.stdout.trim(), 'yes', `${cluster}: ${canI.stderr}`);
      }
    });

    test('the policy makes each Subscription (Manual), OLM installs the starting CSV, canary first', async () => {
      await writeRollout(hub, choices);
      let localWaited = false;
      await eventually(
        () => `cluster2's CSV v3.18.0 Succeeded; Subscription: ${JSON.stringify(subscription('cluster2'))}`,
        async () => {
          const done = csvPhase('cluster2', `${PKG}.v3.18.0`) === 'Succeeded';
          if (!done && !subscription('local-cluster')) localWaited = true;
          return done;
        },
        300_000,
      );
      assert.ok(localWaited, 'local-cluster had no Subscription while the canary was installing');
      await eventually(
        () => `local-cluster's CSV v3.18.0 Succeeded: ${JSON.stringify(subscription('local-cluster'))}`,
        () => csvPhase('local-cluster', `${PKG}.v3.18.0`) === 'Succeeded',
        300_000,
      );
      for (const cluster of ['cluster2', 'local-cluster']) {
        const sub = subscription(cluster)!;
        // config-policy-controller's own marks and its approval rule (buildSubscription: Manual
        // unless Automatic without versions).
        assert.equal(
          sub.metadata.annotations?.['operatorpolicy.policy.open-cluster-management.io/managed'],
          `${POLICIES}.${choices.name}`,
        );
        assert.equal(sub.spec.installPlanApproval, 'Manual', cluster);
      }
    });

    test('upgradeApproval None: the next CSV waits for approval; each cluster Compliant in its words', async () => {
      for (const cluster of ['cluster2', 'local-cluster']) {
        const waiting = await eventually(
          () => `${cluster}: an InstallPlan for v3.18.1`,
          () =>
            json<{ items: InstallPlan[] }>(managed.get(cluster)!, ['get', 'installplans', '-n', NS])?.items.find((p) =>
              p.spec.clusterServiceVersionNames.includes(`${PKG}.v3.18.1`),
            ),
          120_000,
        );
        assert.equal(waiting.spec.approved, false, `${cluster}: the upgrade was approved`);
      }
      const compliant = await eventually(
        () => 'both clusters healthy and Compliant in the view',
        async () => {
          const r = await rows();
          return r.length === 2 && r.every((c) => c.state === 'healthy' && c.compliance?.state === 'Compliant')
            ? r
            : undefined;
        },
        180_000,
      );
      for (const c of compliant) {
        assert.match(c.compliance!.message, /^Compliant; /, c.cluster);
        // operatorpolicy_status.go installPlanUpgradeCond, quoted by the Compliant condition.
        assert.ok(
          c.compliance!.message.includes(`an InstallPlan to update to [${PKG}.v3.18.1] is available for approval`),
          c.compliance!.message,
        );
      }
      assert.equal(csvPhase('cluster2', `${PKG}.v3.18.1`), '', 'v3.18.1 is not installed');
    });

    test('upgradeApproval Automatic with v3.18.1 in versions: the policy approves the canary, then the next wave', async (t) => {
      await writeRollout(hub, {
        ...choices,
        operatorPolicy: { namespace: POLICIES, allowedVersions: [`${PKG}.v3.18.1`], upgradeApproval: 'Automatic' },
      });
      const upgraded = (cluster: string) =>
        eventually(
          () => `${cluster}: CSV v3.18.1 Succeeded; ${JSON.stringify(subscription(cluster)?.status)}`,
          () => csvPhase(cluster, `${PKG}.v3.18.1`) === 'Succeeded',
          300_000,
        );
      await upgraded('cluster2');
      // With versions, the Subscription stays Manual: the policy, not OLM, approved it.
      assert.equal(subscription('cluster2')!.spec.installPlanApproval, 'Manual');
      // The hub shows what the canary's policy says about its new spec (generation 2), whatever it
      // is: seen on this fleet, OLM v0.38.0 can leave the Subscription's ResolutionFailed
      // (ConstraintsNotSatisfiable, the replaced CSV "exists and is not referenced by a
      // subscription") after the upgrade succeeded, and the policy then says so, NonCompliant.
      type Policy = {
        spec?: { upgradeApproval?: string };
        status?: { compliant?: string; conditions?: { type: string; message: string }[] };
      };
      const seen = await eventually(
        () => `the canary's compliance for the new spec: ${JSON.stringify(subscription('cluster2')?.status)}`,
        async () => {
          const c = await row('cluster2');
          if (!c?.compliance || c.feedback.generation !== '2' || c.feedback.observedGeneration !== '2')
            return undefined;
          if (c.state !== 'healthy' && c.state !== 'unhealthy') return undefined;
          const p = json<Policy>(managed.get('cluster2')!, ['get', 'operatorpolicy', choices.name, '-n', POLICIES]);
          const message = p?.status?.conditions?.find((x) => x.type === 'Compliant')?.message;
          return p?.status?.compliant === c.compliance.state && message === c.compliance.message ? c : undefined;
        },
        180_000,
      );
      assert.equal(seen.state, seen.compliance!.state === 'Compliant' ? 'healthy' : 'unhealthy');
      t.diagnostic(`canary after the upgrade: ${seen.compliance!.state}: ${seen.compliance!.message}`);
      // The next wave follows a healthy canary only: an unhealthy one (the ResolutionFailed above)
      // holds local-cluster on the policy it had, and on v3.18.0. CI saw both runs.
      if (seen.state === 'healthy') await upgraded('local-cluster');
      else {
        const local = json<Policy>(managed.get('local-cluster')!, [
          'get',
          'operatorpolicy',
          choices.name,
          '-n',
          POLICIES,
        ]);
        assert.equal(local?.spec?.upgradeApproval, 'None', "local-cluster's policy is not changed past the canary");
        assert.equal(csvPhase('local-cluster', `${PKG}.v3.18.1`), '', 'local-cluster keeps v3.18.0');
      }
    });

    test("only the older CSV allowed: the canary is NonCompliant, unhealthy, with the policy's reason", async () => {
      await writeRollout(hub, {
        ...choices,
        version: undefined,
        operatorPolicy: { namespace: POLICIES, allowedVersions: [`${PKG}.v3.18.0`], upgradeApproval: 'None' },
      });
      const unapproved = `ClusterServiceVersion (${PKG}.v3.18.1) is not an approved version`;
      // operatorpolicy_status.go disallowedCSVCond, in the canary's Compliant message, once the
      // work agent has reported on the new template.
      const canary = await eventually(
        () => 'the canary NonCompliant in the view, for the CSV',
        async () => {
          const c = await row('cluster2');
          return c?.compliance?.state === 'NonCompliant' && c.compliance.message.includes(unapproved) ? c : undefined;
        },
        180_000,
      );
      assert.ok(canary.compliance!.current);
      await eventually(
        () => 'the canary unhealthy',
        async () => ((await row('cluster2'))?.state === 'unhealthy' ? true : undefined),
        60_000,
      );
      const d = await readRollout(hub, 'rollouts', choices.name);
      assert.deepEqual(
        [d.view.operatorPolicy?.upgradeApproval, d.view.operatorPolicy?.versions],
        ['None', [`${PKG}.v3.18.0`]],
      );
    });

    test('stopped, the ManifestWorks go and the policy stays on each cluster, still enforcing', async () => {
      await stopRollout(hub, 'rollouts', choices.name);
      await eventually(
        () => 'the rollout gone',
        async () => {
          try {
            await readRollout(hub, 'rollouts', choices.name);
            return undefined;
          } catch {
            return true;
          }
        },
        60_000,
      );
      await new Promise((r) => setTimeout(r, 5_000));
      for (const cluster of ['cluster2', 'local-cluster']) {
        const r = kubectl(managed.get(cluster)!, ['get', 'operatorpolicy', choices.name, '-n', POLICIES]);
        assert.equal(r.code, 0, `${cluster}: ${r.stderr}`);
      }
    });
  });
