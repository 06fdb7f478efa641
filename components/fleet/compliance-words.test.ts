import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Compliance } from '@/lib/olm/rollout/operator-policy';
import { complianceWords } from './compliance-words';

const compliance = (over: Partial<Compliance>): Compliance => ({
  state: 'Compliant',
  message: '',
  current: true,
  ...over,
});

// Begins as config-policy-controller v0.16.0's condition messages do ("Compliant; " and the other
// conditions' messages), as the real cluster shows them (e2e/fleet-rollouts-policy.test.ts).
const POLICY_WORDS = 'Compliant; the policy spec is valid, the Subscription matches what is required by the policy';

test("a message that begins with the state says it once, in the policy's words", () => {
  assert.equal(complianceWords(compliance({ message: POLICY_WORDS })), `OperatorPolicy: ${POLICY_WORDS}`);
  assert.equal(
    complianceWords(compliance({ state: 'NonCompliant', message: 'NonCompliant; the CSV is not allowed' })),
    'OperatorPolicy: NonCompliant; the CSV is not allowed',
  );
});

test('a message that does not begin with the state, or none, is given the state', () => {
  assert.equal(
    complianceWords(compliance({ message: 'CompliantButOld' })),
    'OperatorPolicy Compliant: CompliantButOld',
  );
  assert.equal(complianceWords(compliance({ state: 'NonCompliant' })), 'OperatorPolicy NonCompliant');
  assert.equal(
    complianceWords(compliance({ state: 'unknown', message: 'not reported yet' })),
    'OperatorPolicy compliance not known: not reported yet',
  );
});

test('an evaluation of an earlier version of the policy says so', () => {
  assert.equal(
    complianceWords(compliance({ message: 'Compliant; fine', current: false })),
    'OperatorPolicy (evaluated for an earlier version of the policy): Compliant; fine',
  );
});
