import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differences, normalise } from './compare';

test('what differs between two clusters by nature is normalised away', () => {
  const a = normalise(
    {
      metadata: { uid: 'a', resourceVersion: '12', creationTimestamp: '2026-01-01T00:00:00Z', name: 'x' },
      status: { at: '2026-01-01T00:00:01.5Z', address: '127.0.0.1:4001' },
    },
    { replace: [['127.0.0.1:4001', '<registry>']] },
  );
  const b = normalise(
    {
      metadata: { name: 'x', uid: 'b', resourceVersion: '900', creationTimestamp: '2025-12-31T23:59:59Z' },
      status: { address: '127.0.0.1:5555', at: '2026-11-24T03:00:00+00:00' },
    },
    { replace: [['127.0.0.1:5555', '<registry>']] },
  );
  assert.deepEqual(differences(a, b), []);
});

test('every other difference is named by its path', () => {
  const d = differences(
    normalise({ reason: 'NotFound', details: { kind: 'subscriptions' }, list: [1, 2] }),
    normalise({ reason: 'NotFound', details: { kind: 'Subscription' }, list: [1] }),
  );
  assert.deepEqual(d, [
    { path: '$.details.kind', sandbox: 'subscriptions', real: 'Subscription' },
    { path: '$.list.length', sandbox: 2, real: 1 },
  ]);
});
