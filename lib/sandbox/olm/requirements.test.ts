import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minKubeVersionStatus, permissionStatuses, type AccountState, type Rule } from './requirements';

// Expected words as real OLM v0.38.0 wrote them on a real cluster (v1.34.4) for the demo
// catalog's pgpilot.v1.4.0, and as olm/requirements.go words the other cases.
test('minKubeVersion: met, unmet, absent', () => {
  assert.deepEqual(minKubeVersionStatus('pgpilot.v1.4.0', '1.25.0', 'v1.34.4'), [
    {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      kind: 'ClusterServiceVersion',
      name: 'pgpilot.v1.4.0',
      status: 'Present',
      message: 'CSV minKubeVersion (1.25.0) less than server version (v1.34.4)',
    },
  ]);
  assert.equal(
    minKubeVersionStatus('x', '1.40.0', 'v1.34.4')[0]!.message,
    'CSV version requirement not met: minKubeVersion (1.40.0) > server version (1.34.4)',
  );
  assert.deepEqual(minKubeVersionStatus('x', undefined, 'v1.34.4'), []);
});

test('service accounts: missing, owned by another CSV, rules not granted, rules granted (Go JSON of each rule)', () => {
  const perms = {
    namespaced: [
      { serviceAccountName: 'op', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
    ],
    cluster: [{ serviceAccountName: 'op', rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] }],
  };
  const checks = (account: AccountState, made: boolean, granted: (cluster: boolean) => boolean) => ({
    account: () => account,
    previouslyCreated: () => made,
    ruleSatisfied: (_sa: string, _r: Rule, cluster: boolean) => granted(cluster),
  });
  assert.deepEqual(
    permissionStatuses(
      perms,
      checks('missing', true, () => true),
    ).map((s) => [s.name, s.status, s.message]),
    [['op', 'NotPresent', 'Service account does not exist']],
  );
  // Real OLM v0.38.0 on an upgrade, before the plan added the new CSV to the account's owners.
  assert.deepEqual(
    permissionStatuses(
      perms,
      checks('ownedByAnother', false, () => true),
    ),
    [
      {
        group: '',
        version: 'v1',
        kind: 'ServiceAccount',
        name: 'op',
        status: 'PresentNotSatisfied',
        message: 'Service account is owned by another ClusterServiceVersion',
      },
    ],
  );
  const notGranted = permissionStatuses(
    perms,
    checks('present', true, (cluster) => !cluster),
  )[0]!;
  assert.equal(notGranted.status, 'PresentNotSatisfied');
  assert.equal(notGranted.message, 'Policy rule not satisfied for service account');
  // Real OLM v0.38.0 listed pgpilot.v1.4.0's account with one dependent (its cluster rule), and
  // the generated catalog's alpha (namespaced rules only) with no account entry at all.
  const granted = permissionStatuses(
    perms,
    checks('present', true, () => true),
  )[0]!;
  assert.equal(granted.status, 'Present');
  assert.deepEqual(
    granted.dependents!.map((d) => [d.kind, d.status, d.message]),
    [['PolicyRule', 'Satisfied', 'cluster rule:{"verbs":["get"],"nonResourceURLs":["/metrics"]}']],
  );
  assert.deepEqual(
    permissionStatuses(
      { namespaced: perms.namespaced, cluster: [] },
      checks('present', true, () => true),
    ),
    [],
  );
  // Rules RBAC grants through roles OLM did not make for this CSV (an older version's): listed, satisfied.
  const byRbac = permissionStatuses(
    { namespaced: perms.namespaced, cluster: [] },
    checks('present', false, () => true),
  )[0]!;
  assert.deepEqual([byRbac.status, byRbac.dependents!.map((d) => d.status)], ['Present', ['Satisfied']]);
  const firstCheck = permissionStatuses(
    { namespaced: perms.namespaced, cluster: [] },
    checks('present', false, () => false),
  )[0]!;
  assert.deepEqual(
    firstCheck.dependents!.map((d) => d.message),
    ['namespaced rule:{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}'],
  );
});
