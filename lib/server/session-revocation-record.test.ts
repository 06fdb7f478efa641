// The logout record's rules, without a cluster: a logout ends its session only while there is
// room, the record stays bounded by people whatever the number of logouts, nothing revoked is
// ever forgotten before it would have expired anyway, and the format before this one still holds.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { newSession, type Session } from './session';
import {
  isRevokedBy,
  merged,
  normalized,
  recordBytes,
  revocationKeysOf,
  withSessionRevoked,
  withUserCutoff,
  type RecordLimits,
  type RevocationData,
} from './session-revocation-record';

const HOUR = 3600_000;
const limits: RecordLimits = { maxSessionMs: 8 * HOUR, perUser: 8, sessions: 2_000 };
const t0 = Date.parse('2025-06-02T08:00:00Z');
const session = (user: string, at: number): Session => newSession(8 * 3600, 'token', user, at);
const revoked = (data: RevocationData, s: Session) => isRevokedBy(data, revocationKeysOf(s));

describe('session revocation record', () => {
  test("a logout ends that session, not the same person's others", () => {
    const laptop = session('alice', t0);
    const desktop = session('alice', t0 - HOUR);
    const data = normalized(withSessionRevoked({}, laptop), t0 + 1, limits);
    assert.equal(revoked(data, laptop), true);
    assert.equal(revoked(data, desktop), false);
    assert.match(Object.keys(data)[0]!, /^s\.[0-9a-f]{24}$/, 'the session id is kept hashed');
    assert.ok(!JSON.stringify(data).includes('alice') && !JSON.stringify(data).includes(laptop.sid));
  });

  test('"everywhere" ends every session of that person issued up to then, none issued later', () => {
    const before = session('alice', t0);
    const other = session('bob', t0);
    const data = withUserCutoff({}, 'alice', t0 + 1_000);
    assert.equal(revoked(data, before), true);
    assert.equal(revoked(data, session('alice', t0 + 1_001)), false, 'a login after the cut-off');
    assert.equal(revoked(data, other), false);
  });

  test('entries go once no session they name can be alive', () => {
    const s = session('alice', t0);
    const data = withUserCutoff(withSessionRevoked({}, s), 'bob', t0);
    assert.equal(Object.keys(normalized(data, t0 + 8 * HOUR - 1, limits)).length, 2);
    assert.deepEqual(normalized(data, t0 + 8 * HOUR, limits), {});
  });

  test('past eight sessions of a person the oldest fold into a cut-off: none comes back, a later one lives', () => {
    const sessions = Array.from({ length: 20 }, (_, i) => session('mallory', t0 + i * 60_000));
    let data: RevocationData = {};
    for (const s of sessions) data = normalized(withSessionRevoked(data, s), t0 + HOUR, limits);
    for (const s of sessions) assert.equal(revoked(data, s), true);
    assert.equal(Object.keys(data).length, 9, 'eight sessions and one cut-off');
    assert.equal(revoked(data, session('mallory', t0 + 30 * 60_000)), false, 'issued after every folded one');
    assert.equal(revoked(data, session('alice', t0)), false, 'nobody else is touched');
  });

  test("past the record's room the oldest fold into their person's cut-off", () => {
    const small = { ...limits, sessions: 10 };
    const sessions = Array.from({ length: 40 }, (_, i) => session(`user${i % 4}`, t0 + i * 1_000));
    let data: RevocationData = {};
    for (const s of sessions) data = normalized(withSessionRevoked(data, s), t0 + HOUR, small);
    for (const s of sessions) assert.equal(revoked(data, s), true);
    assert.equal(Object.keys(data).filter((k) => k.startsWith('s.')).length, 10);
    assert.equal(Object.keys(data).filter((k) => k.startsWith('u.')).length, 4);
  });

  test("merging two replicas' records keeps every revocation and the later cut-off", () => {
    const a = session('alice', t0);
    const b = session('bob', t0);
    const one = withUserCutoff(withSessionRevoked({}, a), 'carol', t0 + 5_000);
    const two = withUserCutoff(withSessionRevoked({}, b), 'carol', t0 + 1_000);
    const both = merged(one, two);
    assert.equal(revoked(both, a) && revoked(both, b), true);
    assert.equal(revoked(both, session('carol', t0 + 4_000)), true, 'the later cut-off wins');
    assert.deepEqual(merged(two, one), both);
  });

  test('the format before this one is honoured until it expires', () => {
    const s = session('alice', t0);
    const hex = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);
    const legacy = { [`s.${hex(s.sid)}`]: String(s.expiresAt * 1000), [`u.${hex('user:bob')}`]: String(t0) };
    assert.equal(revoked(legacy, s), true);
    assert.equal(revoked(legacy, session('bob', t0 - 1)), true);
    assert.equal(revoked(legacy, session('bob', t0 + 1)), false);
    assert.equal(Object.keys(normalized(legacy, t0 + HOUR, limits)).length, 2);
    assert.deepEqual(normalized({ ...legacy, junk: 'x', 's.zz': '1' }, t0 + 9 * HOUR, limits), {});
  });

  test('any order of logouts and cut-offs: every session revoked stays revoked, the record stays bounded', () => {
    const small = { ...limits, perUser: 3, sessions: 12 };
    const op = fc.record({
      user: fc.integer({ min: 0, max: 5 }),
      issuedAgo: fc.integer({ min: 0, max: 7 * HOUR }),
      everywhere: fc.boolean(),
      after: fc.integer({ min: 0, max: 10 * 60_000 }),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 120 }), (ops) => {
        let now = t0;
        let data: RevocationData = {};
        const ended: Session[] = [];
        for (const o of ops) {
          now += o.after;
          const s = session(`user${o.user}`, now - o.issuedAgo);
          data = o.everywhere ? withUserCutoff(data, s.username!, now) : withSessionRevoked(data, s);
          data = normalized(data, now, small);
          ended.push(s);
          for (const e of ended.filter((x) => x.issuedAt + small.maxSessionMs > now)) {
            assert.ok(revoked(data, e), `${e.username}'s session issued at ${e.issuedAt} came back`);
          }
          assert.ok(Object.keys(data).length <= small.sessions + 6);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('size: what the API server counts, a few dozen bytes an entry', () => {
    const data = normalized(withUserCutoff(withSessionRevoked({}, session('alice', t0)), 'bob', t0), t0, limits);
    assert.ok(recordBytes(data) < 80, String(recordBytes(data)));
  });
});
