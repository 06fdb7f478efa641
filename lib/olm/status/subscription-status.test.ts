import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription, SubscriptionCondition } from '../resources/subscription';
import { subscriptionConditionRows, subscriptionUpgradeStatus } from './subscription-status';

function sub(status: Subscription['status']): Subscription {
  return {
    metadata: { name: 'etcd', namespace: 'operators', uid: 'sub-uid' },
    spec: { name: 'etcd', source: 'c', sourceNamespace: 'olm', installPlanApproval: 'Manual' },
    status,
  };
}
function plan(name: string, phase: string, approved: boolean): InstallPlan {
  return {
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', name: 'etcd', uid: 'sub-uid' },
      ],
    },
    spec: { clusterServiceVersionNames: ['etcd.v0.9.4'], approval: 'Manual', approved },
    status: { phase },
  };
}
const cond = (type: string, status: 'True' | 'False', reason = '', message = ''): SubscriptionCondition => ({
  type,
  status,
  reason,
  message,
});

describe('subscriptionUpgradeStatus', () => {
  test('AtLatestKnown with installed = current is up to date', () => {
    assert.equal(
      subscriptionUpgradeStatus({
        subscription: sub({ state: 'AtLatestKnown', installedCSV: 'etcd.v0.9.4', currentCSV: 'etcd.v0.9.4' }),
      }).label,
      'Up to date',
    );
  });

  test('a plan waiting for approval: "1 requires approval", naming the plan', () => {
    const s = subscriptionUpgradeStatus({
      subscription: sub({
        state: 'UpgradePending',
        installedCSV: 'etcd.v0.9.2',
        currentCSV: 'etcd.v0.9.4',
        installPlanRef: { name: 'install-b' },
      }),
      installPlans: [plan('install-a', 'Complete', true), plan('install-b', 'RequiresApproval', false)],
    });
    assert.equal(s.label, '1 requires approval');
    assert.deepEqual(s.pendingApproval, ['install-b']);
  });

  test('UpgradePending with an Installing plan is upgrading', () => {
    const s = subscriptionUpgradeStatus({
      subscription: sub({
        state: 'UpgradePending',
        installedCSV: 'etcd.v0.9.2',
        currentCSV: 'etcd.v0.9.4',
        installPlanRef: { name: 'install-b' },
      }),
      installPlans: [plan('install-b', 'Installing', true)],
    });
    assert.equal(s.kind, 'upgrading');
    assert.match(s.detail, /from etcd\.v0\.9\.2 to etcd\.v0\.9\.4/);
  });

  test('a failed plan, a ResolutionFailed condition or UpgradeFailed state is Failed', () => {
    const failedPlan = plan('install-b', 'Failed', true);
    failedPlan.status!.message = 'boom';
    assert.match(
      subscriptionUpgradeStatus({
        subscription: sub({
          state: 'UpgradePending',
          installedCSV: 'a',
          currentCSV: 'b',
          installPlanRef: { name: 'install-b' },
        }),
        installPlans: [failedPlan],
      }).detail,
      /install-b failed: boom/,
    );
    const r = subscriptionUpgradeStatus({
      subscription: sub({
        state: 'AtLatestKnown',
        installedCSV: 'a',
        currentCSV: 'a',
        conditions: [
          cond(
            'ResolutionFailed',
            'True',
            'ConstraintsNotSatisfiable',
            'constraints not satisfiable: no operators found in channel x',
          ),
        ],
      }),
    });
    assert.equal(r.kind, 'failed');
    assert.match(r.detail, /constraints not satisfiable/);
    assert.equal(
      subscriptionUpgradeStatus({ subscription: sub({ state: 'UpgradeFailed', installedCSV: 'a' }) }).kind,
      'failed',
    );
  });

  test('nothing installed yet is installing; a fresh Manual install needs approval', () => {
    assert.equal(subscriptionUpgradeStatus({ subscription: sub({}) }).kind, 'installing');
    const s = subscriptionUpgradeStatus({
      subscription: sub({ state: 'UpgradePending', currentCSV: 'etcd.v0.9.4', installPlanRef: { name: 'p' } }),
      installPlans: [plan('p', 'RequiresApproval', false)],
    });
    assert.match(s.detail, /the install of etcd\.v0\.9\.4/);
  });

  test('the catalog offering a newer version than OLM acted on is "Upgrade available"', () => {
    const s = subscriptionUpgradeStatus({
      subscription: sub({ state: 'AtLatestKnown', installedCSV: 'etcd.v0.9.2', currentCSV: 'etcd.v0.9.2' }),
      catalogNext: 'etcd.v0.9.4',
    });
    assert.equal(s.label, 'Upgrade available');
  });
});

describe('subscriptionConditionRows', () => {
  test('problems first, then by type', () => {
    const rows = subscriptionConditionRows(
      sub({
        conditions: [
          cond('CatalogSourcesUnhealthy', 'False', 'AllCatalogSourcesHealthy'),
          cond('InstallPlanPending', 'True', 'RequiresApproval'),
          cond('BundleDeprecated', 'True'),
        ],
      }),
    );
    assert.deepEqual(
      rows.map((r) => r.type),
      ['BundleDeprecated', 'InstallPlanPending', 'CatalogSourcesUnhealthy'],
    );
  });
});
