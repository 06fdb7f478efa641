// Asking every cluster: at most so many at a time, a cluster past its deadline reported as not
// answering while the others' answers stand, and answers kept per person and cluster for a while.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { acrossClusters, boundedMap } from './across';
import type { FleetMember } from './members';
import type { FleetPerson } from './person';

const member = (name: string, home = false): FleetMember => ({
  name,
  home,
  access: {
    mode: 'token',
    server: `https://${name}.example:6443`,
    cluster: { name, server: '', skipTLSVerify: false },
    source: 'test',
  },
});
const person = (key: string): FleetPerson => ({ key, client: () => ({}) as KubeClient });
const members = [member('a', true), member('b'), member('c')];

describe('asking every cluster', () => {
  test('no more than the limit run at once, and answers keep the order asked', async () => {
    let running = 0;
    let most = 0;
    const out = await boundedMap([5, 1, 4, 2, 3, 0, 6, 7, 8, 9], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    assert.equal(most, 3);
    assert.deepEqual(out, [50, 10, 40, 20, 30, 0, 60, 70, 80, 90]);
  });

  test('a cluster past its deadline is a row saying so; the others answer', async () => {
    const rows = await acrossClusters(
      members,
      person('deadline'),
      'q',
      async (_, m) => (m.name === 'b' ? new Promise<string>(() => {}) : `answer of ${m.name}`),
      { timeoutMs: 50 },
    );
    assert.deepEqual(
      rows.map((r) => (r.ok ? [r.name, r.value] : [r.name, r.error.code, r.error.reason, r.error.message])),
      [
        ['a', 'answer of a'],
        ['b', 504, 'Timeout', 'cluster b did not answer within 0.05 s'],
        ['c', 'answer of c'],
      ],
    );
    assert.equal(rows[0]!.home, true);
    assert.equal(rows[1]!.server, 'https://b.example:6443');
  });

  test('a failing cluster keeps its error; nothing it says is given to another', async () => {
    const rows = await acrossClusters(members, person('errors'), 'q', async (_, m) => {
      if (m.name === 'a') throw new Error('boom');
      return m.name;
    });
    assert.equal(rows[0]!.ok, false);
    assert.deepEqual(
      rows.slice(1).map((r) => r.ok && r.value),
      ['b', 'c'],
    );
  });

  test('an answer is kept per person and cluster for a while, then asked again', async () => {
    let t = 1_000_000;
    const asked: string[] = [];
    const read = async (_: KubeClient, m: FleetMember) => {
      asked.push(m.name);
      return asked.length;
    };
    const opts = { cacheMs: 10_000, now: () => t };
    await acrossClusters(members, person('carol'), 'cached', read, opts);
    await acrossClusters(members, person('carol'), 'cached', read, opts);
    assert.equal(asked.length, 3, 'the second look is answered from the cache');
    await acrossClusters(members, person('dave'), 'cached', read, opts);
    assert.equal(asked.length, 6, 'another person is asked for afresh');
    await acrossClusters(members, person('carol'), 'other question', read, opts);
    assert.equal(asked.length, 9, 'another question is asked afresh');
    t += 10_001;
    await acrossClusters(members, person('carol'), 'cached', read, opts);
    assert.equal(asked.length, 12, 'after the time it is asked again');
  });
});
