// A waiting plan's changes as the fleet's Approvals page names them, on objects shaped as OLM
// writes them: the plan is created before the Subscriptions' status names it
// (catalog/operator.go, syncResolvingNamespace: ensureInstallPlan, then updateSubscriptionStatuses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import type { InstallPlan } from '../../olm/resources/install-plan';
import type { Subscription } from '../../olm/resources/subscription';
import { waitingApproval } from './approvals';

const plan = {
  metadata: { name: 'install-x1', namespace: 'team1', resourceVersion: '7' },
  spec: { approval: 'Manual', approved: false, clusterServiceVersionNames: ['cachely.v0.9.2'] },
  status: {
    phase: 'RequiresApproval',
    plan: [
      {
        resolving: 'cachely.v0.9.2',
        resource: { kind: 'ClusterServiceVersion', name: 'cachely.v0.9.2', group: '', version: 'v1alpha1' },
        status: 'Unknown',
      },
    ],
  },
} as unknown as InstallPlan;
const sub = (currentCSV: string) =>
  ({
    metadata: { name: 'cachely', namespace: 'team1' },
    spec: { name: 'cachely', source: 'demo', sourceNamespace: 'olm' },
    status: { currentCSV, installedCSV: 'cachely.v0.9.0' },
  }) as unknown as Subscription;
const csvs = [
  { metadata: { name: 'cachely.v0.9.0', namespace: 'team1' }, spec: { version: '0.9.0' } },
] as unknown as ClusterServiceVersion[];

test('a plan read before OLM names its Subscription is an upgrade not yet claimed, not a dependency', () => {
  const [change] = waitingApproval(plan, [sub('cachely.v0.9.0')], csvs).changes;
  assert.equal(change?.change, 'unclaimed');
  assert.equal(change?.subscription, undefined);
});

test('once the Subscription moves to the CSV, the same plan is its upgrade from the installed version', () => {
  const [change] = waitingApproval(plan, [sub('cachely.v0.9.2')], csvs).changes;
  assert.deepEqual(
    { change: change?.change, subscription: change?.subscription, from: change?.fromVersion },
    { change: 'upgrade', subscription: 'cachely', from: '0.9.0' },
  );
});
