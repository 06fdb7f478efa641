import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UpdateStep } from '../graph/update-path';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { decide, hopsTo, readTarget, UPGRADE_TARGET_ANNOTATION, writeTarget } from './upgrade-target';

const steps: UpdateStep[] = [
  { from: 'pgpilot.v1.0.0', to: 'pgpilot.v1.4.0', via: ['skipRange'], channel: 'fast' },
  { from: 'pgpilot.v1.4.0', to: 'pgpilot.v1.5.0', via: ['replaces'], channel: 'fast' },
];
const target = { csv: 'pgpilot.v1.4.0', setBy: 'alice', setAt: '2026-11-25T00:00:00Z' };
const sub = (installed: string, current: string, approval = 'Manual'): Subscription => ({
  metadata: { name: 'pgpilot', namespace: 'pg' },
  spec: { name: 'pgpilot', source: 'demo', sourceNamespace: 'olm', channel: 'fast', installPlanApproval: approval },
  status: { installedCSV: installed, currentCSV: current },
});
const plan = (csvs: string[], over: Partial<InstallPlan['spec']> = {}, phase = 'RequiresApproval'): InstallPlan =>
  ({
    metadata: { name: 'install-abc', namespace: 'pg' },
    spec: { clusterServiceVersionNames: csvs, approval: 'Manual', approved: false, ...over },
    status: { phase },
  }) as InstallPlan;

test('the target is kept on the Subscription as JSON, with its seal, and read back only when well formed', () => {
  assert.deepEqual(
    readTarget({ metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: writeTarget(target) } } }),
    target,
  );
  const sealed = { ...target, seal: 'v1.abc' };
  const annotations = { [UPGRADE_TARGET_ANNOTATION]: writeTarget(sealed) };
  assert.deepEqual(readTarget({ metadata: { annotations } }), sealed);
  assert.equal(readTarget({ metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: '{"csv":1}' } } }), undefined);
  assert.equal(readTarget({ metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: 'not json' } } }), undefined);
});

test('the target keeps who set it with their groups, its id, catalog and channel; ill-typed fields are dropped', () => {
  const full = {
    ...target,
    groups: ['ops', 'system:authenticated'],
    id: 'Yc9rT2mN4kQ1xW8pL0vB3g',
    source: 'demo',
    sourceNamespace: 'olm',
    channel: 'fast',
    seal: 'v2.abc',
  };
  const read = (value: string) => readTarget({ metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: value } } });
  assert.deepEqual(read(writeTarget(full)), full);
  const odd = JSON.stringify({ ...target, groups: ['ops', 7], id: 12, channel: null });
  assert.deepEqual(read(odd), target);
});

test('hopsTo: the path up to the target, or why it is not on it', () => {
  assert.deepEqual(
    (hopsTo(steps, 'pgpilot.v1.4.0') as { hops: UpdateStep[] }).hops.map((h) => h.to),
    ['pgpilot.v1.4.0'],
  );
  assert.match(
    (hopsTo(steps, 'pgpilot.v1.2.0') as { error: string }).error,
    /not on the update path .*pgpilot\.v1\.4\.0 → pgpilot\.v1\.5\.0/,
  );
});

describe('decide', () => {
  const hops = (hopsTo(steps, 'pgpilot.v1.4.0') as { hops: UpdateStep[] }).hops;
  test('a plan carrying only hops up to the target is approved', () => {
    assert.deepEqual(decide(sub('pgpilot.v1.0.0', 'pgpilot.v1.4.0'), target, hops, plan(['pgpilot.v1.4.0'])), {
      action: 'approve',
      plan: 'install-abc',
      csvs: ['pgpilot.v1.4.0'],
    });
  });
  test('at the target: reached, whatever OLM offers next', () => {
    assert.deepEqual(decide(sub('pgpilot.v1.4.0', 'pgpilot.v1.5.0'), target, hops, plan(['pgpilot.v1.5.0'])), {
      action: 'reached',
    });
  });
  test('a plan past the target, or shared with another operator, waits with the reason', () => {
    const two = (hopsTo(steps, 'pgpilot.v1.5.0') as { hops: UpdateStep[] }).hops;
    const past = decide(
      sub('pgpilot.v1.0.0', 'pgpilot.v2.0.0'),
      { ...target, csv: 'pgpilot.v1.5.0' },
      two,
      plan(['pgpilot.v2.0.0']),
    );
    assert.equal(past.action, 'wait');
    assert.match(
      (past as { reason: string }).reason,
      /would install pgpilot\.v2\.0\.0, past the target pgpilot\.v1\.5\.0/,
    );
    const shared = decide(
      sub('pgpilot.v1.0.0', 'pgpilot.v1.4.0'),
      target,
      hops,
      plan(['pgpilot.v1.4.0', 'cachely.v0.9.2']),
    );
    assert.match(
      (shared as { reason: string }).reason,
      /also carries cachely\.v0\.9\.2 \(InstallPlans are shared per namespace\)/,
    );
  });
  test('nothing to approve: no plan yet, already approved, or no longer Manual', () => {
    assert.equal(decide(sub('pgpilot.v1.0.0', 'pgpilot.v1.4.0'), target, hops, undefined).action, 'wait');
    assert.match(
      (
        decide(sub('pgpilot.v1.0.0', 'pgpilot.v1.4.0'), target, hops, plan(['pgpilot.v1.4.0'], { approved: true })) as {
          reason: string;
        }
      ).reason,
      /is approved/,
    );
    assert.match(
      (
        decide(sub('pgpilot.v1.0.0', 'pgpilot.v1.4.0', 'Automatic'), target, hops, plan(['pgpilot.v1.4.0'])) as {
          reason: string;
        }
      ).reason,
      /no longer Manual/,
    );
  });
});
