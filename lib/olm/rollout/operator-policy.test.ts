// What a rollout's OperatorPolicy does and says, against config-policy-controller v0.16.0
// (controllers/operatorpolicy_controller.go buildSubscription, getApprovedCSVs, musthaveInstallPlan,
// handleCSV; controllers/operatorpolicy_status.go for the messages). The status facts have the shape
// OCM's work agent reports (work/v1 FeedbackValue), as lib/server/rollouts/rollout-policy.cluster.test.ts
// reads them from a real fleet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { policyBehaviour, policyCompliance, policyTerms, type PolicyTerms } from './operator-policy';

function terms(over: Partial<PolicyTerms> = {}): PolicyTerms {
  return { name: 'gk', namespace: 'open-cluster-management-policies', upgradeApproval: 'None', versions: [], ...over };
}
const says = (t: PolicyTerms, words: string) => policyBehaviour(t).some((l) => l.includes(words));

test("a template's OperatorPolicy gives its terms; blank versions are dropped as the controller drops them", () => {
  const template = {
    workload: {
      manifests: [
        { kind: 'Namespace', metadata: { name: 'gatekeeper-system' } },
        {
          kind: 'OperatorPolicy',
          metadata: { name: 'gk', namespace: 'open-cluster-management-policies' },
          spec: {
            upgradeApproval: 'Automatic',
            versions: [' gk.v3.18.1 ', '  '],
            subscription: { name: 'gk', startingCSV: 'gk.v3.18.0' },
          },
        },
      ],
    },
  };
  assert.deepEqual(policyTerms(template), {
    name: 'gk',
    namespace: 'open-cluster-management-policies',
    upgradeApproval: 'Automatic',
    versions: ['gk.v3.18.1'],
    startingCSV: 'gk.v3.18.0',
  });
  assert.equal(policyTerms({ workload: { manifests: [{ kind: 'Subscription' }] } }), undefined);
});

test('upgradeApproval None: the Subscription is Manual, the first InstallPlan approved, no upgrade', () => {
  const t = terms();
  assert.ok(says(t, 'installPlanApproval Manual'));
  assert.ok(says(t, 'approves the first InstallPlan when the CSV it installs is allowed (any CSV)'));
  assert.ok(says(t, 'it approves no upgrade'));
  assert.ok(says(t, '"an InstallPlan to update to […] is available for approval"'));
  assert.ok(!says(t, 'is not an approved version'), 'no versions: every CSV is allowed');
});

test('upgradeApproval Automatic without versions: the Subscription itself is Automatic', () => {
  const t = terms({ upgradeApproval: 'Automatic' });
  assert.ok(says(t, 'installPlanApproval Automatic'));
  assert.ok(says(t, 'OLM installs and upgrades by itself'));
  // getApprovedCSVs: Automatic with no versions approves the Subscription's current CSV.
  assert.ok(says(t, 'an InstallPlan still waiting from before, the policy approves'));
});

test('upgradeApproval Automatic with versions: Manual, upgrades approved only to a version or the startingCSV', () => {
  const t = terms({ upgradeApproval: 'Automatic', versions: ['gk.v3.18.1'], startingCSV: 'gk.v3.18.0' });
  assert.ok(says(t, 'installPlanApproval Manual'));
  assert.ok(says(t, "approves an upgrade's InstallPlan only to an allowed CSV (only gk.v3.18.1, gk.v3.18.0)"));
  assert.ok(says(t, 'An installed CSV other than gk.v3.18.1, gk.v3.18.0 makes it NonCompliant'));
  assert.ok(says(t, '"ClusterServiceVersion (…) is not an approved version"'));
});

test('stopping the rollout leaves the policy enforcing on each cluster, and the page says so', () => {
  assert.ok(says(terms(), 'keeps enforcing it'));
});

test("compliance is the policy's own: its state and its Compliant condition's message", () => {
  const message =
    'NonCompliant; the policy spec is valid, ClusterServiceVersion (gk.v3.18.1) is not an approved version';
  const c = policyCompliance(
    { compliant: 'NonCompliant', compliantMessage: message, observedGeneration: '2', generation: '2' },
    'applied',
  );
  assert.deepEqual(c, { state: 'NonCompliant', message, current: true });
});

test('compliance evaluated for an earlier generation of the policy is marked not current', () => {
  const c = policyCompliance(
    { compliant: 'Compliant', compliantMessage: 'Compliant; …', observedGeneration: '1', generation: '2' },
    'applied',
  );
  assert.equal(c.state, 'Compliant');
  assert.equal(c.current, false);
});

test('no status from a controller: compliance is not known, and the reason depends on where the policy is', () => {
  assert.deepEqual(policyCompliance({}, 'applied'), {
    state: 'unknown',
    message:
      'the OperatorPolicy is on the cluster but its status is empty: no config-policy-controller with ' +
      '--enable-operator-policy watching its namespace has evaluated it',
    current: true,
  });
  assert.match(policyCompliance({}, 'absent').message, /not on the cluster, so nothing there evaluates it/);
  assert.match(policyCompliance({}, 'applying').message, /not reported yet/);
});
