// The record of live upgrade targets in a sandbox, written by several replicas at once: every
// change lands (a conflict is read and applied again), a retired target stays retired whoever
// writes next, and the record keeps its bound.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { clientAs } from './testing/cluster';
import { liveTargetOf, withLive, withSpent, type LiveTarget } from './upgrade-target-record';
import { TARGETS_CONFIGMAP, UpgradeTargetStore } from './upgrade-target-store';

describe('record of live upgrade targets in the cluster', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const replicas = (n: number, entries?: number, name = TARGETS_CONFIGMAP) =>
    Array.from({ length: n }, () => new UpgradeTargetStore(clientAs(sb, 'admin'), 'default', name, entries));
  let serial = 0;
  const target = (namespace = 'team1'): LiveTarget => {
    const n = ++serial;
    return {
      uid: `6f1c0a7e-0000-4000-8000-${String(n).padStart(12, '0')}`,
      id: `id${String(n).padStart(20, '0')}`,
      setAt: Date.now(),
      namespace,
    };
  };
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 0 });
  });
  after(() => sb?.close());

  test("three replicas setting targets at once: every one is live, none lost to another's write", async () => {
    const stores = replicas(3);
    const targets = Array.from({ length: 24 }, () => target());
    await Promise.all(targets.map((t, i) => stores[i % 3]!.change((d) => withLive(d, t))));
    const record = await stores[0]!.read();
    for (const t of targets) assert.equal(liveTargetOf(record, t.uid)?.id, t.id);
  });

  test('a target retired on one replica is refused on the others, and a later write keeps it retired', async () => {
    const [a, b] = replicas(2);
    const t = target();
    await a!.change((d) => withLive(d, t));
    await b!.change((d) => withSpent(d, t.uid, t.id));
    assert.equal(liveTargetOf(await a!.read(), t.uid), undefined);
    await a!.change((d) => withLive(d, target()));
    assert.equal(liveTargetOf(await b!.read(), t.uid), undefined);
  });

  test('the record keeps its bound however many targets are set', async () => {
    const stores = replicas(2, 5, 'bounded-upgrade-targets');
    for (let i = 0; i < 12; i++) await stores[i % 2]!.change((d) => withLive(d, target(i < 3 ? 'team2' : 'team1')));
    const record = await stores[0]!.read();
    assert.equal(Object.keys(record).length, 5);
  });

  test('a record the console may not write is a 503 saying which', async () => {
    const bob = new UpgradeTargetStore(clientAs(sb, 'bob'), 'default');
    await assert.rejects(
      bob.change((d) => withLive(d, target())),
      (err: Error & { code?: number }) => {
        assert.equal(err.code, 503);
        assert.match(
          err.message,
          /cannot write the record of live upgrade targets \(ConfigMap default\/olm-console-upgrade-targets\)/,
        );
        return true;
      },
    );
  });
});
