// When an event stream's session is over, without a cluster: logged out (here or elsewhere) and
// past its lifetime end it for good; a copy of the cookie gone idle only asks the browser to
// reconnect with the cookie it holds now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newSession } from './session';
import { isRevokedBy, withSessionRevoked, type RevocationData, type RevocationKeys } from './session-revocation-record';
import { streamSessionCheck } from './stream-session';

test("a stream's session: live, then logged out or expired (ended), or idle in this copy (recheck)", () => {
  const t0 = Date.parse('2025-06-02T08:00:00Z');
  const s = newSession(8 * 3600, 'token', 'alice', t0);
  let record: RevocationData = {};
  const store = { isRevokedByKeys: (k: RevocationKeys) => isRevokedBy(record, k) };
  const check = streamSessionCheck(s, store, 30 * 60);
  assert.equal(check(t0 + 60_000).state, 'live');
  assert.equal(check(t0 + 30 * 60_000).state, 'recheck');
  const atEnd = streamSessionCheck({ ...s, lastSeen: s.expiresAt }, store, 30 * 60)(s.expiresAt * 1000);
  const expired = { state: 'ended', reason: 'expired', message: 'this session reached its lifetime; log in again' };
  assert.deepEqual(atEnd, expired);
  record = withSessionRevoked(record, s);
  const loggedOut = { state: 'ended', reason: 'logged-out', message: 'this session was logged out; log in again' };
  assert.deepEqual(check(t0 + 60_000), loggedOut);
});

test('a stream signed in with an identity provider reconnects as its ID token nears expiry (the reconnect refreshes it)', () => {
  const t0 = Date.parse('2025-06-02T08:00:00Z');
  const s = {
    ...newSession(8 * 3600, 'id-token', 'oidc:alice', t0),
    auth: 'oidc' as const,
    refreshToken: 'r',
    tokenExpiresAt: t0 / 1000 + 60,
  };
  const check = streamSessionCheck(s, { isRevokedByKeys: () => false }, 30 * 60);
  assert.equal(check(t0 + 45_000).state, 'live');
  assert.equal(check(t0 + 51_000).state, 'recheck');
  const pasted = streamSessionCheck({ ...s, auth: undefined }, { isRevokedByKeys: () => false }, 30 * 60);
  assert.equal(pasted(t0 + 51_000).state, 'live', 'a pasted token has no expiry the console knows');
});
