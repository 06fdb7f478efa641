import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newSession, openSession, refreshedSession, sealSession, sessionCookieHeader, SessionKey } from './session';

describe('session cookie', () => {
  const key = SessionKey.random();

  test('what is sealed opens with the same key', () => {
    const s = newSession(3600, 'sha256~secret', 'alice');
    const opened = openSession(sealSession(s, key), key);
    assert.deepEqual(opened, s);
  });

  test('the token cannot be read from the cookie', () => {
    const cookie = sealSession(newSession(3600, 'sha256~secret-token'), key);
    assert.ok(!cookie.includes('secret'));
    assert.ok(!Buffer.from(cookie.split('.')[2]!, 'base64url').toString('utf8').includes('secret'));
  });

  test('a tampered, foreign-key or expired cookie opens to nothing', () => {
    const cookie = sealSession(newSession(3600, 't'), key);
    const parts = cookie.split('.');
    const body = Buffer.from(parts[2]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[2] = body.toString('base64url');
    assert.equal(openSession(parts.join('.'), key), undefined);
    assert.equal(openSession(cookie, SessionKey.random()), undefined);
    assert.equal(openSession(cookie, key, Date.now() + 3601_000), undefined);
    assert.equal(openSession('garbage', key), undefined);
    assert.equal(openSession(undefined, key), undefined);
  });

  test('a key from the environment must be 32 bytes', () => {
    assert.throws(() => SessionKey.fromEnv({ OLM_CONSOLE_SESSION_KEY: 'short' }), /32 bytes/);
    const k = SessionKey.fromEnv({ OLM_CONSOLE_SESSION_KEY: 'ab'.repeat(32) });
    const s = newSession(60);
    assert.deepEqual(
      openSession(sealSession(s, k), SessionKey.fromEnv({ OLM_CONSOLE_SESSION_KEY: 'ab'.repeat(32) })),
      s,
    );
  });

  test('a session unused for longer than the idle timeout is over; a request within it refreshes it', () => {
    const t0 = Date.now();
    const s = newSession(8 * 3600, 't', 'alice', t0);
    const cookie = sealSession(s, key);
    assert.ok(openSession(cookie, key, t0 + 29 * 60_000, 30 * 60));
    assert.equal(openSession(cookie, key, t0 + 31 * 60_000, 30 * 60), undefined);
    assert.equal(refreshedSession(s, t0 + 10_000), undefined, 'not re-issued on every request');
    const later = refreshedSession(s, t0 + 20 * 60_000)!;
    assert.ok(
      openSession(sealSession(later, key), key, t0 + 45 * 60_000, 30 * 60),
      'refreshed at 20 min, still alive at 45',
    );
    assert.equal(
      openSession(sealSession(later, key), key, t0 + 8 * 3600_000 + 1000, 30 * 60),
      undefined,
      'the absolute lifetime still holds',
    );
  });

  test('every new session has its own id', () => {
    assert.notEqual(newSession(60).sid, newSession(60).sid);
  });

  test('the cookie is HttpOnly and SameSite=Strict; over https Secure with the __Host- prefix', () => {
    const h = sessionCookieHeader('v', { secure: true, maxAgeSeconds: 10 });
    assert.match(h, /^__Host-olm_console_session=v; Path=\//);
    assert.match(h, /HttpOnly/);
    assert.match(h, /SameSite=Strict/);
    assert.match(h, /; Secure$/);
    assert.doesNotMatch(sessionCookieHeader('v', { secure: false, maxAgeSeconds: 10 }), /Secure|__Host-/);
  });
});
