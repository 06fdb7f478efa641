import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCsrf, CSRF_HEADER } from './csrf';
import type { OriginPolicy } from './security/origin-policy';
import { newSession } from './session';

const policy: OriginPolicy = {
  publicOrigin: 'https://console.example.com',
  port: 3000,
  trustProxy: false,
  extraOrigins: [],
};

function req(method: string, headers: Record<string, string>, url = 'http://127.0.0.1:3000/api/install') {
  return { method, url, headers: new Headers(headers) };
}

describe('checkCsrf', () => {
  const session = newSession(60);

  test('reads pass without checks', () => {
    assert.deepEqual(checkCsrf(req('GET', {}), undefined, policy), { ok: true });
  });

  test('a write from this console (public URL or loopback at its port) with the session token passes', () => {
    for (const origin of ['https://console.example.com', 'http://127.0.0.1:3000', 'http://localhost:3000']) {
      assert.deepEqual(
        checkCsrf(req('POST', { origin, [CSRF_HEADER]: session.csrf }), session, policy),
        { ok: true },
        origin,
      );
    }
  });

  test('a write from another site is refused even with a token', () => {
    const v = checkCsrf(
      req('POST', { origin: 'https://evil.example', host: 'evil.example', [CSRF_HEADER]: session.csrf }),
      session,
      policy,
    );
    assert.equal(v.ok, false);
    assert.match(v.ok ? '' : v.message, /evil\.example/);
  });

  test("DNS rebinding: an Origin equal to the request's own Host is not enough", () => {
    const r = req(
      'POST',
      {
        origin: 'http://rebind.attacker.example:3000',
        host: 'rebind.attacker.example:3000',
        [CSRF_HEADER]: session.csrf,
      },
      'http://rebind.attacker.example:3000/api/x',
    );
    assert.equal(checkCsrf(r, session, policy).ok, false);
  });

  test('X-Forwarded-* headers never widen the accepted origins', () => {
    const r = req('POST', {
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      [CSRF_HEADER]: session.csrf,
    });
    assert.equal(checkCsrf(r, session, { ...policy, trustProxy: true }).ok, false);
    assert.equal(checkCsrf(r, session, policy).ok, false);
  });

  test('a write without Origin falls back to Referer, and without either is refused', () => {
    const viaReferer = req('DELETE', { referer: 'https://console.example.com/operators', [CSRF_HEADER]: session.csrf });
    assert.deepEqual(checkCsrf(viaReferer, session, policy), { ok: true });
    assert.equal(checkCsrf(req('DELETE', { [CSRF_HEADER]: session.csrf }), session, policy).ok, false);
  });

  test('a missing or wrong token is refused', () => {
    const base = { origin: 'https://console.example.com' };
    assert.equal(checkCsrf(req('PATCH', base), session, policy).ok, false);
    assert.equal(checkCsrf(req('PATCH', { ...base, [CSRF_HEADER]: newSession(60).csrf }), session, policy).ok, false);
    assert.equal(checkCsrf(req('PATCH', { ...base, [CSRF_HEADER]: session.csrf }), undefined, policy).ok, false);
  });
});
