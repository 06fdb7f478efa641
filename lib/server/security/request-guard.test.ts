import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentSecurityPolicy, imageOriginsFromEnv, securityHeaders } from './page-headers';
import { checkBody, isLoginAttempt, MAX_BODY_BYTES, RateLimiter, TokenSightings } from './request-guard';

const h = (o: Record<string, string>) => ({ get: (n: string) => o[n] ?? null });

describe('request guard', () => {
  test('API bodies: at most 1 MiB, JSON only, with a length; pages and reads are not checked', () => {
    assert.equal(
      checkBody(
        'POST',
        '/api/install',
        h({ 'content-length': '2', 'content-type': 'application/json; charset=utf-8' }),
      ),
      undefined,
    );
    assert.equal(
      checkBody(
        'POST',
        '/api/install',
        h({ 'content-length': String(MAX_BODY_BYTES + 1), 'content-type': 'application/json' }),
      )?.status,
      413,
    );
    assert.equal(
      checkBody('PATCH', '/api/subscriptions/a/b', h({ 'content-length': '5', 'content-type': 'text/plain' }))?.status,
      415,
    );
    assert.equal(checkBody('POST', '/api/install', h({ 'content-length': '5' }))?.status, 415);
    assert.equal(checkBody('POST', '/api/install', h({ 'transfer-encoding': 'chunked' }))?.status, 411);
    assert.equal(checkBody('POST', '/api/install', h({ 'content-length': '-1' }))?.status, 400);
    assert.equal(checkBody('DELETE', '/api/session', h({})), undefined, 'no body at all is fine');
    assert.equal(checkBody('GET', '/api/install', h({ 'content-length': '99999999' })), undefined);
    assert.equal(
      checkBody('POST', '/operators', h({ 'content-length': '99999999' }))?.status,
      413,
      'a page has no use for a big body',
    );
    assert.equal(
      checkBody('POST', '/operators', h({ 'content-length': '5', 'content-type': 'text/plain' })),
      undefined,
    );
  });

  test("a bearer token is new to an address once within ten minutes: guesses count, a person's requests do not", () => {
    const seen = new TokenSightings();
    const t = 5_000_000;
    assert.equal(seen.isNew('10.0.0.1', 'tok-a', t), true);
    assert.equal(seen.isNew('10.0.0.1', 'tok-a', t + 1000), false, 'the same token again');
    assert.equal(seen.isNew('10.0.0.1', 'tok-b', t + 1000), true, 'another token is another guess');
    assert.equal(seen.isNew('10.0.0.2', 'tok-a', t + 1000), true, 'the same token from elsewhere');
    assert.equal(seen.isNew('10.0.0.1', 'tok-a', t + 12 * 60_000), true, 'long unused');
    const small = new TokenSightings(60_000, 2);
    small.isNew('p', 'a', t);
    small.isNew('p', 'b', t);
    small.isNew('p', 'c', t);
    assert.equal(small.isNew('p', 'a', t), true, 'the least recently seen is forgotten first');
  });

  test('the rate limiter allows `limit` per window per key, then says how long to wait', () => {
    const r = new RateLimiter(3, 60_000);
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) assert.deepEqual(r.take('a', t + i), { ok: true });
    assert.deepEqual(r.take('a', t + 10), { ok: false, retryAfterSeconds: 60 });
    assert.deepEqual(r.take('b', t + 10), { ok: true }, 'another client is not affected');
    assert.deepEqual(r.take('a', t + 60_001), { ok: true }, 'the window slides');
    assert.equal(isLoginAttempt('POST', '/api/session'), true);
    assert.equal(isLoginAttempt('GET', '/api/session'), false);
  });

  test("the identity provider's redirect back counts as a login attempt; starting a sign-in does not", () => {
    assert.equal(isLoginAttempt('GET', '/api/auth/callback'), true);
    assert.equal(isLoginAttempt('GET', '/api/auth/login'), false);
  });

  test('the rate limiter forgets the oldest clients past its bound', () => {
    const r = new RateLimiter(1, 60_000, 2);
    r.take('a', 0);
    r.take('b', 0);
    r.take('c', 0);
    assert.deepEqual(r.take('a', 1), { ok: true });
  });
});

describe('page headers', () => {
  test('the CSP forbids framing, eval and foreign images; allowed image origins are added', () => {
    const csp = contentSecurityPolicy({ nonce: 'n1', tls: false, imageOrigins: ['https://img.example.com'] });
    assert.match(csp, /script-src 'self' 'nonce-n1';/);
    assert.match(csp, /img-src 'self' data: https:\/\/img\.example\.com;/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-eval/);
    assert.match(contentSecurityPolicy({ nonce: 'n', tls: false, imageOrigins: [], dev: true }), /'unsafe-eval'/);
  });

  test('HSTS only over TLS', () => {
    assert.equal(
      securityHeaders({ nonce: 'n', tls: true, imageOrigins: [] })['Strict-Transport-Security'],
      'max-age=31536000',
    );
    assert.equal(securityHeaders({ nonce: 'n', tls: false, imageOrigins: [] })['Strict-Transport-Security'], undefined);
  });

  test('image origins must be https', () => {
    assert.deepEqual(imageOriginsFromEnv({ OLM_CONSOLE_IMAGE_ORIGINS: 'https://a.example/x, https://b.example' }), [
      'https://a.example',
      'https://b.example',
    ]);
    assert.throws(() => imageOriginsFromEnv({ OLM_CONSOLE_IMAGE_ORIGINS: 'http://a.example' }), /not an https origin/);
  });
});
