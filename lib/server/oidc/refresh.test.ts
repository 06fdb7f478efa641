// What a refresh leaves in the server's memory: its result (the person's new ID and refresh
// tokens) answers requests still carrying the old cookie for two minutes, and is then gone, even
// when no other refresh comes to sweep it (a quiet console, or the last refresh of the day).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newSession, type Session } from '../session';
import { refreshSession } from './refresh';

const kept = () => (globalThis as { olmConsoleOidcRefresh?: Map<string, unknown> }).olmConsoleOidcRefresh?.size ?? 0;

test("a refresh's new tokens are forgotten two minutes on, with no other refresh to sweep them", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const expiresAt = Math.floor(Date.now() / 1000) + 5;
  const session: Session = {
    ...newSession(3600, 'id-1', 'oidc:alice'),
    auth: 'oidc',
    refreshToken: 'r-1',
    tokenExpiresAt: expiresAt,
  };
  let calls = 0;
  const refresh = async () => (calls++, { idToken: 'id-2', refreshToken: 'r-2', expiresAt: expiresAt + 3600 });
  const fresh = await refreshSession(session, refresh);
  assert.equal(fresh?.token, 'id-2');
  assert.equal((await refreshSession(session, refresh))?.token, 'id-2', 'the old cookie a moment later');
  assert.equal(calls, 1);
  assert.equal(kept(), 1);
  t.mock.timers.tick(120_000);
  assert.equal(kept(), 0, 'nothing of her new tokens is kept');
});
