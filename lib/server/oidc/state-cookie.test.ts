import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SessionKey } from '../session';
import { seal } from '../sealed';
import { openStateCookie, stateCookieHeader, stateCookieName, type SignInState } from './state-cookie';

const key = SessionKey.random();
const now = Date.UTC(2026, 10, 26, 12);
const state: SignInState = { state: 's', nonce: 'n', verifier: 'v', next: '/operators', startedAt: now / 1000 };
const valueOf = (header: string) => header.split(';')[0]!.split('=').slice(1).join('=');

describe('the sign-in state cookie', () => {
  test('is sealed, HttpOnly and SameSite=Lax (the provider redirects back across sites), ten minutes long', () => {
    const h = stateCookieHeader(state, key, false);
    assert.match(h, /^olm_console_signin=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/);
    assert.ok(!h.includes('verifier') && !h.includes('/operators'), 'nothing readable in it');
    assert.deepEqual(openStateCookie(valueOf(h), key, now + 1000), { ok: true, state });
  });

  test('over TLS it is Secure with the __Host- prefix', () => {
    assert.equal(stateCookieName(true), '__Host-olm_console_signin');
    assert.match(stateCookieHeader(state, key, true), /^__Host-olm_console_signin=.*; Secure$/);
  });

  test('a forged, altered, foreign-key or other-purpose value is no sign-in', () => {
    const v = valueOf(stateCookieHeader(state, key, false));
    assert.deepEqual(openStateCookie(undefined, key, now), { ok: false, reason: 'missing' });
    assert.deepEqual(openStateCookie('a.b.c', key, now), { ok: false, reason: 'missing' });
    assert.deepEqual(openStateCookie(`${v.slice(0, -2)}AA`, key, now), { ok: false, reason: 'missing' });
    assert.deepEqual(openStateCookie(v, SessionKey.random(), now), { ok: false, reason: 'missing' });
    assert.deepEqual(openStateCookie(seal(state, 'something-else', key), key, now), { ok: false, reason: 'missing' });
  });

  test('a sign-in older than ten minutes is stale', () => {
    const v = valueOf(stateCookieHeader(state, key, false));
    assert.deepEqual(openStateCookie(v, key, now + 601_000), { ok: false, reason: 'stale' });
  });
});
