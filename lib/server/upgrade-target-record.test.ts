// The record of live upgrade targets, without a cluster: a target is live until cancelled,
// reached or replaced, and never again after; entries go with their seal's lifetime; a record
// filled from one namespace retires that namespace's targets, not another's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  liveTargetOf,
  normalized,
  recordBytes,
  withLive,
  withSpent,
  type LiveTarget,
  type TargetRecordData,
  type TargetRecordLimits,
} from './upgrade-target-record';

const DAY = 86_400_000;
const limits: TargetRecordLimits = { maxAgeMs: 7 * DAY, entries: 5_000 };
const t0 = Date.parse('2026-11-25T12:00:00Z');
let serial = 0;
/** A target on a Subscription: `uid` names the Subscription, every target gets a fresh id. */
const target = (uid: string, namespace = 'team1', setAt = t0): LiveTarget => ({
  uid: `6f1c0a7e-0000-4000-8000-${uid.padStart(12, '0')}`,
  id: `id${String(++serial).padStart(20, '0')}`,
  setAt,
  namespace,
});
const live = (data: TargetRecordData, t: LiveTarget) => liveTargetOf(data, t.uid)?.id === t.id;

describe('record of live upgrade targets', () => {
  test('a target set is live; cancelled or reached it is gone for good', () => {
    const t = target('1');
    const set = withLive({}, t);
    assert.equal(live(set, t), true);
    assert.deepEqual(liveTargetOf(set, t.uid), t);
    const spent = withSpent(set, t.uid, t.id);
    assert.equal(live(spent, t), false);
    assert.equal(live(normalized(spent, t0 + 1, limits), t), false, 'nothing brings it back');
  });

  test('setting another target on the Subscription retires the one before', () => {
    const first = target('1');
    const second = target('1', 'team1', t0 + 1_000);
    const data = withLive(withLive({}, first), second);
    assert.equal(live(data, first), false);
    assert.equal(live(data, second), true);
    assert.equal(Object.keys(data).length, 1, 'one entry a Subscription');
  });

  test('spending one target by id leaves a newer one on the same Subscription live', () => {
    const old = target('1');
    const newer = target('1', 'team1', t0 + 1_000);
    const data = withLive({}, newer);
    assert.equal(live(withSpent(data, old.uid, old.id), newer), true);
    assert.equal(live(withSpent(data, old.uid), newer), false, 'cancel retires whatever is live');
  });

  test("other Subscriptions' targets are untouched", () => {
    const a = target('1');
    const b = target('2', 'team2');
    const data = withSpent(withLive(withLive({}, a), b), a.uid);
    assert.equal(live(data, b), true);
  });

  test("entries go with their seal's lifetime, and unreadable ones at once", () => {
    const t = target('1');
    const data = { ...withLive({}, t), 'x.junk': 'x', [`t.${t.uid.replace('1', '2')}`]: 'not.a.target.value' };
    assert.deepEqual(Object.keys(normalized(data, t0 + 7 * DAY, limits)), [`t.${t.uid}`]);
    assert.deepEqual(normalized(data, t0 + 7 * DAY + 1, limits), {});
  });

  test('past its room, the fullest namespace loses its oldest targets, not another namespace', () => {
    const small = { ...limits, entries: 10 };
    const quiet = [target('1', 'team2', t0 - DAY), target('2', 'team3', t0 - DAY)];
    let data = quiet.reduce((d, t) => withLive(d, t), {});
    const flood = Array.from({ length: 30 }, (_, i) => target(String(100 + i), 'team1', t0 + i * 1_000));
    for (const t of flood) data = normalized(withLive(data, t), t0 + 60_000, small);
    assert.equal(Object.keys(data).length, 10);
    for (const t of quiet) assert.equal(live(data, t), true, `${t.namespace}'s older target stays`);
    assert.deepEqual(
      flood.filter((t) => live(data, t)).map((t) => t.setAt),
      flood.slice(-8).map((t) => t.setAt),
      "team1's newest stay",
    );
  });

  test('nothing the record does makes a retired target live again, and it stays bounded', () => {
    const small = { ...limits, entries: 12 };
    const op = fc.record({
      sub: fc.integer({ min: 0, max: 20 }),
      ns: fc.constantFrom('team1', 'team2', 'team3'),
      kind: fc.constantFrom('set', 'cancel', 'reach'),
      after: fc.integer({ min: 0, max: DAY }),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 100 }), (ops) => {
        let now = t0;
        let data: TargetRecordData = {};
        const current = new Map<string, LiveTarget>();
        const retired: LiveTarget[] = [];
        for (const o of ops) {
          now += o.after;
          const uid = target(String(o.sub)).uid;
          const before = current.get(uid);
          if (o.kind === 'set') {
            const t = { ...target(String(o.sub), o.ns, now), uid };
            data = withLive(data, t);
            if (before) retired.push(before);
            current.set(uid, t);
          } else if (before) {
            data = withSpent(data, uid, o.kind === 'reach' ? before.id : undefined);
            retired.push(before);
            current.delete(uid);
          }
          data = normalized(data, now, small);
          for (const t of retired) assert.equal(live(data, t), false, `${t.id} came back`);
          assert.ok(Object.keys(data).length <= small.entries);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('size: what the API server counts, at most ~140 bytes an entry', () => {
    const longest = { ...target('1'), namespace: 'n'.repeat(63), id: 'i'.repeat(22) };
    assert.ok(recordBytes(withLive({}, longest)) <= 140, String(recordBytes(withLive({}, longest))));
  });
});
