import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allowedOrigins, checkHost, originPolicyFromEnv, servedOverTls } from './origin-policy';

describe('origin policy', () => {
  const local = originPolicyFromEnv({ OLM_CONSOLE_PORT: '3000' });
  const behindProxy = originPolicyFromEnv({
    OLM_CONSOLE_PORT: '3000',
    OLM_CONSOLE_PUBLIC_URL: 'https://console.example.com/',
    OLM_CONSOLE_TRUST_PROXY: 'true',
  });

  test('by default only loopback names at the listening port are answered', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'LOCALHOST:3000'])
      assert.deepEqual(checkHost(local, { host }), { ok: true }, host);
    for (const host of ['rebind.attacker.example:3000', '127.0.0.1:4000', 'localhost', '10.0.0.5:3000']) {
      const v = checkHost(local, { host });
      assert.equal(v.ok, false, host);
      assert.match(v.ok ? '' : v.message, /does not answer to host/);
    }
  });

  test('X-Forwarded-Host is ignored unless the proxy is trusted', () => {
    assert.equal(checkHost(local, { host: 'evil.example', forwardedHost: '127.0.0.1:3000' }).ok, false);
    assert.equal(checkHost(behindProxy, { host: '10.0.0.5:3000', forwardedHost: 'console.example.com' }).ok, true);
    assert.equal(checkHost(behindProxy, { host: '10.0.0.5:3000', forwardedHost: 'evil.example' }).ok, false);
    assert.equal(checkHost(behindProxy, { host: 'console.example.com:443' }).ok, true);
  });

  test('origins: the public URL plus loopback, never anything else', () => {
    const o = allowedOrigins(behindProxy);
    assert.ok(o.has('https://console.example.com'));
    assert.ok(o.has('http://localhost:3000'));
    assert.ok(!o.has('http://console.example.com'));
    assert.equal(allowedOrigins(originPolicyFromEnv({})).size, 0);
  });

  test('TLS is believed from a trusted proxy or the https public URL, never from a forged header', () => {
    assert.equal(servedOverTls(local, { host: '127.0.0.1:3000', forwardedProto: 'https' }), false);
    assert.equal(
      servedOverTls(behindProxy, {
        host: '10.0.0.5:3000',
        forwardedHost: 'console.example.com',
        forwardedProto: 'https',
      }),
      true,
    );
    const named = originPolicyFromEnv({
      OLM_CONSOLE_PORT: '3000',
      OLM_CONSOLE_PUBLIC_URL: 'https://console.example.com',
    });
    assert.equal(servedOverTls(named, { host: 'console.example.com' }), true);
    assert.equal(servedOverTls(named, { host: '127.0.0.1:3000' }), false);
  });
});
