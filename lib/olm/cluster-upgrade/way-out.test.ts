import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstClearing } from './way-out';

const step = (from: string, to: string) => ({ from, to, via: ['replaces' as const], channel: 'stable' });

test('the first hop whose bundle runs on the target, with the hops to it', () => {
  const max: Record<string, string | undefined> = { 'p.v1.1.0': '4.18', 'p.v1.2.0': '4.19', 'p.v1.3.0': undefined };
  const steps = [step('p.v1.0.0', 'p.v1.1.0'), step('p.v1.1.0', 'p.v1.2.0'), step('p.v1.2.0', 'p.v1.3.0')];
  assert.deepEqual(
    firstClearing(steps, (c) => max[c], { major: 4, minor: 19 }),
    { to: 'p.v1.2.0', hops: ['p.v1.1.0', 'p.v1.2.0'] },
  );
  assert.deepEqual(
    firstClearing(steps, (c) => max[c], { major: 4, minor: 20 }),
    { to: 'p.v1.3.0', hops: ['p.v1.1.0', 'p.v1.2.0', 'p.v1.3.0'] },
  );
  assert.equal(
    firstClearing(steps.slice(0, 1), (c) => max[c], { major: 4, minor: 19 }),
    undefined,
  );
});
