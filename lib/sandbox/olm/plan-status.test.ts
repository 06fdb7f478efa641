import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planCondition } from './plan-status';

// Expectations from operator-framework/api v0.36.0's installplan_types.go (SetCondition,
// ConditionMet, ConditionFailed).
describe('InstallPlan conditions', () => {
  test('both time stamps written; the transition time kept while the status stays, whatever the reason', () => {
    const first = planCondition(undefined, {
      type: 'Installed',
      status: 'False',
      reason: 'InstallCheckFailed',
      message: 'no account',
    });
    assert.ok(first[0]!.lastUpdateTime && first[0]!.lastTransitionTime);
    const old = [{ ...first[0]!, lastUpdateTime: '2020-01-01T00:00:00Z', lastTransitionTime: '2020-01-01T00:00:00Z' }];
    const same = planCondition(old, { type: 'Installed', status: 'False', reason: 'Unknown' });
    assert.equal(same[0]!.lastTransitionTime, '2020-01-01T00:00:00Z');
    assert.notEqual(same[0]!.lastUpdateTime, '2020-01-01T00:00:00Z');
    assert.equal(same[0]!.reason, 'Unknown');
    assert.equal(same[0]!.message, undefined);
    const met = planCondition(old, { type: 'Installed', status: 'True' });
    assert.notEqual(met[0]!.lastTransitionTime, '2020-01-01T00:00:00Z');
  });
});
