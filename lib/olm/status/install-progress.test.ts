import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stageOf, type SubscriptionProgress } from './install-progress';

const base: SubscriptionProgress = {
  subscription: { metadata: { name: 'p', namespace: 'n' }, spec: { name: 'p', source: 'c', sourceNamespace: 'olm' } },
  conditions: [],
  upgrade: { kind: 'installing', label: 'Installing', detail: 'resolving', pendingApproval: [] },
};
const plan = (phase: string, approved: boolean, needsApproval = false): SubscriptionProgress['installPlan'] => ({ name: 'install-1', summary: { phase, label: phase, needsApproval, approved, manual: true, csvNames: ['p.v1'], done: false }, components: [] });
const csv = (phase: string, reason = ''): SubscriptionProgress['csv'] => ({ name: 'p.v1', phase, reason, status: { phase, reason, label: phase, detail: `${phase} in words`, severity: 'ok' }, conditions: [] });

test('an install moves through resolving, approval, installing and succeeded', () => {
  assert.equal(stageOf(base).stage, 'resolving');
  assert.equal(stageOf({ ...base, installPlan: plan('RequiresApproval', false, true) }).stage, 'approval');
  assert.equal(stageOf({ ...base, installPlan: plan('Installing', true) }).stage, 'installing');
  const installing = stageOf({ ...base, installPlan: plan('Complete', true), csv: csv('Installing', 'InstallWaiting') });
  assert.deepEqual(installing.stage, 'installing');
  assert.match(installing.detail, /p\.v1: Installing \(InstallWaiting\)/);
  assert.equal(stageOf({ ...base, installPlan: plan('Complete', true), csv: csv('Succeeded') }).stage, 'succeeded');
});

test('failures in OLM\'s words: resolution, a failed plan, a failed CSV', () => {
  const resolution = stageOf({ ...base, conditions: [{ type: 'ResolutionFailed', status: 'True', reason: 'ConstraintsNotSatisfiable', message: 'no operators found' }] });
  assert.equal(resolution.stage, 'failed');
  assert.match(resolution.detail, /ConstraintsNotSatisfiable: no operators found/);
  assert.equal(stageOf({ ...base, installPlan: { ...plan('Failed', true)!, summary: { ...plan('Failed', true)!.summary, message: 'image pull failed' } } }).detail, 'image pull failed');
  assert.equal(stageOf({ ...base, csv: { ...csv('Failed', 'InstallCheckFailed')!, message: 'deployment not ready' } }).stage, 'failed');
});
