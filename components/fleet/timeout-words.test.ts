import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RolloutTimeout } from '@/lib/api/fleet-rollouts';
import { rowTimeoutWords, timeoutWords } from './timeout-words';

const timeout = (over: Partial<RolloutTimeout>): RolloutTimeout => ({
  cluster: 'prod-west',
  wave: { index: 0, name: 'canary' },
  deadline: '10m',
  at: '2026-11-30T02:09:03.512Z',
  ...over,
});

test("a timeout that holds the rollout says until when, in the hub's UTC time to the second", () => {
  assert.equal(
    timeoutWords(timeout({ stops: { failures: 1, maxFailures: 0, over: 'group' } })),
    'timed out after 10m (at 2026-11-30 02:09:03 UTC): OCM counts it as failed, and with 1 failed where 0 are ' +
      "tolerated the rollout will not go on to the next group until this cluster's work is Available or the " +
      'rollout is changed or stopped.',
  );
  assert.match(
    timeoutWords(timeout({ stops: { failures: 2, maxFailures: 1, over: 'clusters' } })),
    /with 2 failed where 1 is tolerated the rollout will not go on to more clusters until/,
  );
});

test('a timeout within the failures tolerated says the rollout goes on', () => {
  assert.equal(
    timeoutWords(timeout({})),
    'timed out after 10m (at 2026-11-30 02:09:03 UTC): OCM counts it as failed, within the failures this rollout ' +
      'tolerates, so the rollout goes on.',
  );
});

test("the list's row names the cluster and its wave before the page's sentence", () => {
  assert.equal(
    rowTimeoutWords(timeout({})),
    'prod-west, in the canary, timed out after 10m (at 2026-11-30 02:09:03 UTC): OCM counts it as failed, within ' +
      'the failures this rollout tolerates, so the rollout goes on.',
  );
  assert.match(
    rowTimeoutWords(timeout({ cluster: 'staging', wave: { index: 2, name: '' } })),
    /^staging, in wave 2, timed out after 10m /,
  );
});
