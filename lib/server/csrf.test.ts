import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCsrf, CSRF_HEADER } from './csrf';
import { newSession } from './session';

function req(method: string, headers: Record<string, string>, url = 'http://console.local:3000/api/install') {
  return { method, url, headers: new Headers(headers) };
}

describe('checkCsrf', () => {
  const session = newSession(60);

  test('reads pass without checks', () => {
    assert.deepEqual(checkCsrf(req('GET', {}), undefined), { ok: true });
  });

  test('a write from this console with the session token passes', () => {
    const r = req('POST', { origin: 'http://console.local:3000', host: 'console.local:3000', [CSRF_HEADER]: session.csrf });
    assert.deepEqual(checkCsrf(r, session), { ok: true });
  });

  test('a write from another site is refused even with a token', () => {
    const v = checkCsrf(req('POST', { origin: 'https://evil.example', host: 'console.local:3000', [CSRF_HEADER]: session.csrf }), session);
    assert.equal(v.ok, false);
    assert.match(v.ok ? '' : v.message, /evil\.example/);
  });

  test('a write without Origin falls back to Referer, and without either is refused', () => {
    const viaReferer = req('DELETE', { referer: 'http://console.local:3000/operators', host: 'console.local:3000', [CSRF_HEADER]: session.csrf });
    assert.deepEqual(checkCsrf(viaReferer, session), { ok: true });
    assert.equal(checkCsrf(req('DELETE', { host: 'console.local:3000', [CSRF_HEADER]: session.csrf }), session).ok, false);
  });

  test('a missing or wrong token is refused', () => {
    const base = { origin: 'http://console.local:3000', host: 'console.local:3000' };
    assert.equal(checkCsrf(req('PATCH', base), session).ok, false);
    assert.equal(checkCsrf(req('PATCH', { ...base, [CSRF_HEADER]: newSession(60).csrf }), session).ok, false);
    assert.equal(checkCsrf(req('PATCH', { ...base, [CSRF_HEADER]: session.csrf }), undefined).ok, false);
  });

  test('behind a proxy, the forwarded host and proto are this console', () => {
    const r = req('POST', {
      origin: 'https://console.example.com', host: '10.0.0.5:3000', 'x-forwarded-host': 'console.example.com', 'x-forwarded-proto': 'https',
      [CSRF_HEADER]: session.csrf,
    }, 'http://10.0.0.5:3000/api/x');
    assert.deepEqual(checkCsrf(r, session), { ok: true });
  });
});
