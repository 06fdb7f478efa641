import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newSession, openSession, sealSession, sessionCookieHeader, SessionKey } from './session';

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
    assert.deepEqual(openSession(sealSession(s, k), SessionKey.fromEnv({ OLM_CONSOLE_SESSION_KEY: 'ab'.repeat(32) })), s);
  });

  test('the cookie is HttpOnly and SameSite=Strict, Secure over https', () => {
    const h = sessionCookieHeader('v', { secure: true, maxAgeSeconds: 10 });
    assert.match(h, /HttpOnly/);
    assert.match(h, /SameSite=Strict/);
    assert.match(h, /; Secure$/);
    assert.doesNotMatch(sessionCookieHeader('v', { secure: false, maxAgeSeconds: 10 }), /Secure/);
  });
});
