// The seal on an upgrade target: honoured only for the exact target (with who set it, their
// groups, its id, catalog and channel), on the exact Subscription (namespace, name, uid), from
// this session key, for seven days; anything else is refused with a reason a person can act on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SessionKey } from './session';
import { TARGET_MAX_AGE_MS, TargetSeal, type SealCheck, type SealedFields } from './upgrade-target-seal';

const key = SessionKey.random();
const seal = TargetSeal.fromSessionKey(key);
const subject = { namespace: 'team1', name: 'pgpilot', uid: '6f1c0a7e-0000-4000-8000-000000000001' };
const now = Date.parse('2026-11-25T12:00:00Z');
const fields = {
  csv: 'pgpilot.v1.4.0',
  setBy: 'admin',
  groups: ['ops', 'system:authenticated'],
  setAt: '2026-11-25T11:00:00.000Z',
  id: 'Yc9rT2mN4kQ1xW8pL0vB3g',
  source: 'demo-catalog',
  sourceNamespace: 'olm',
  channel: 'fast',
};
const signed = seal.sign(subject, fields);
const reason = (c: SealCheck) => (c.ok ? 'ok' : c.reason);

describe('upgrade target seal', () => {
  test("the console's own seal of the target on its Subscription is honoured", () => {
    assert.deepEqual(seal.check(subject, fields, signed, now), { ok: true });
    const replica = TargetSeal.fromSessionKey(key);
    assert.deepEqual(replica.check(subject, fields, signed, now), { ok: true }, 'every replica with the key agrees');
  });

  test('no seal: refused as written directly on the Subscription', () => {
    const unsealed = reason(seal.check(subject, fields, undefined, now));
    assert.match(unsealed, /carries no seal: it was written on the Subscription directly/);
  });

  test('any field changed after sealing, or another Subscription, is refused', () => {
    const changed: [string, typeof subject, SealedFields][] = [
      ['csv', subject, { ...fields, csv: 'pgpilot.v1.5.0' }],
      ['setBy', subject, { ...fields, setBy: 'alice' }],
      ['setAt', subject, { ...fields, setAt: '2026-11-25T11:30:00.000Z' }],
      ['groups', subject, { ...fields, groups: ['ops', 'admins', 'system:authenticated'] }],
      ['no groups', subject, { ...fields, groups: undefined }],
      ['id', subject, { ...fields, id: 'Zc9rT2mN4kQ1xW8pL0vB3g' }],
      ['source', subject, { ...fields, source: 'other-catalog' }],
      ['sourceNamespace', subject, { ...fields, sourceNamespace: 'team1' }],
      ['channel', subject, { ...fields, channel: 'stable' }],
      ['namespace', { ...subject, namespace: 'team2' }, fields],
      ['name', { ...subject, name: 'cachely' }, fields],
      ['uid (the same name made again)', { ...subject, uid: '6f1c0a7e-0000-4000-8000-000000000002' }, fields],
    ];
    for (const [what, s, f] of changed) {
      assert.match(reason(seal.check(s, f, signed, now)), /seal does not match/, what);
    }
  });

  test('a seal from another session key, or not a seal at all, is refused', () => {
    const other = TargetSeal.fromSessionKey(SessionKey.random());
    assert.match(reason(other.check(subject, fields, signed, now)), /sealed with another session key/);
    const variants = ['v2.', `v3.${signed.slice(3)}`, 'v2.AAAA', 'garbage', signed.slice(0, -2), `${signed}.x`];
    for (const bad of [...variants, seal.refusalMark(subject, '{}')]) {
      assert.match(reason(seal.check(subject, fields, bad, now)), /seal does not match/, bad);
    }
  });

  test('a sealed target lasts seven days, so an old copy cannot be replayed forever', () => {
    const at = (ms: number) => ({ ...fields, setAt: new Date(now - ms).toISOString() });
    const fresh = at(TARGET_MAX_AGE_MS - 60_000);
    assert.deepEqual(seal.check(subject, fresh, seal.sign(subject, fresh), now), { ok: true });
    const old = at(TARGET_MAX_AGE_MS + 60_000);
    assert.match(reason(seal.check(subject, old, seal.sign(subject, old), now)), /a target lasts 7 days: set it again/);
    const undated = { ...fields, setAt: '' };
    assert.match(reason(seal.check(subject, undated, seal.sign(subject, undated), now)), /lasts 7 days/);
  });

  test('a seal of the earlier format is refused with its own reason: set the target again', () => {
    assert.match(reason(seal.check(subject, fields, `v1.${signed.slice(3)}`, now)), /earlier version .*set it again/);
  });

  test('a Subscription without a uid, or a target without an id, is never sealed to', () => {
    assert.throws(() => seal.sign({ ...subject, uid: '' }, fields), /has no uid/);
    assert.throws(() => seal.sign(subject, { ...fields, id: undefined }), /needs an id/);
    assert.match(reason(seal.check({ ...subject, uid: '' }, fields, signed, now)), /seal does not match/);
  });

  test('the refusal mark names one annotation value on one Subscription', () => {
    const mark = seal.refusalMark(subject, '{"csv":"x"}');
    assert.equal(seal.refusalMark(subject, '{"csv":"x"}'), mark);
    assert.notEqual(seal.refusalMark(subject, '{"csv":"y"}'), mark);
    assert.notEqual(seal.refusalMark({ ...subject, uid: 'other' }, '{"csv":"x"}'), mark);
    assert.notEqual(TargetSeal.fromSessionKey(SessionKey.random()).refusalMark(subject, '{"csv":"x"}'), mark);
  });
});
