import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planServe } from './serve';

test("a Deployment's environment is taken as given, with the port from the flag or OLM_CONSOLE_PORT", () => {
  assert.deepEqual(planServe([], { OLM_CONSOLE_IN_CLUSTER: 'true', OLM_CONSOLE_PORT: '8080' }), {
    ok: true,
    port: 8080,
    host: '127.0.0.1',
    env: { OLM_CONSOLE_PORT: '8080' },
  });
  const p = planServe(['--port', '9000', '--host', '0.0.0.0'], {
    OLM_CONSOLE_KUBECONFIG: '/k',
    OLM_CONSOLE_HOST: '10.0.0.1',
  });
  assert.deepEqual(p, { ok: true, port: 9000, host: '0.0.0.0', env: { OLM_CONSOLE_PORT: '9000' } });
});

test('flags mean what they mean for npm start', () => {
  const p = planServe(['--in-cluster', '--public-url', 'https://console.example.com/', '--trust-proxy'], {});
  assert.ok(p.ok);
  assert.deepEqual(p.env, {
    OLM_CONSOLE_PORT: '3000',
    OLM_CONSOLE_PUBLIC_URL: 'https://console.example.com',
    OLM_CONSOLE_TRUST_PROXY: 'true',
    OLM_CONSOLE_IN_CLUSTER: 'true',
  });
  const k = planServe(['--kubeconfig', '/k', '--context', 'c', '--per-user-tokens'], {});
  assert.ok(k.ok);
  assert.deepEqual(k.env, {
    OLM_CONSOLE_PORT: '3000',
    OLM_CONSOLE_KUBECONFIG: '/k',
    OLM_CONSOLE_CONTEXT: 'c',
    OLM_CONSOLE_AUTH: 'token',
  });
  const fromEnv = planServe([], { KUBECONFIG: '/home/me/.kube/config' });
  assert.ok(fromEnv.ok);
  assert.equal(fromEnv.env.OLM_CONSOLE_KUBECONFIG, '/home/me/.kube/config');
});

test('what needs a checkout, names no cluster or two, or is malformed is refused with the reason', () => {
  const refused = (argv: string[], env: Record<string, string> = {}) => {
    const p = planServe(argv, env);
    assert.equal(p.ok, false, argv.join(' '));
    return p.ok ? '' : p.message;
  };
  assert.match(refused(['--sandbox']), /sandbox cluster runs from a checkout/);
  assert.match(refused(['--catalog', 'x'], { OLM_CONSOLE_IN_CLUSTER: 'true' }), /sandbox cluster runs from a checkout/);
  assert.match(refused([]), /no cluster given/);
  assert.match(refused(['--in-cluster', '--kubeconfig', '/k']), /choose one/);
  assert.match(refused(['--port', 'http'], { OLM_CONSOLE_IN_CLUSTER: 'true' }), /--port must be a number/);
  assert.match(refused(['--bogus']), /Unknown option '--bogus'/);
  assert.match(refused(['--public-url', 'ftp://x'], {}), /must be http\(s\)/);
});

test('the --oidc-* flags sign people in with the provider, on a flag-named or an environment-named cluster', () => {
  const oidc = [
    '--oidc-issuer',
    'https://idp.example',
    '--oidc-client-id',
    'console',
    '--oidc-client-secret-file',
    '/s',
  ];
  const named = planServe(['--kubeconfig', '/k', ...oidc], {});
  assert.ok(named.ok);
  assert.equal(named.env.OLM_CONSOLE_AUTH, 'token');
  assert.equal(named.env.OLM_CONSOLE_OIDC_ISSUER, 'https://idp.example');
  const fromEnv = planServe(oidc, { OLM_CONSOLE_IN_CLUSTER: 'true' });
  assert.ok(fromEnv.ok);
  assert.deepEqual(fromEnv.env, {
    OLM_CONSOLE_PORT: '3000',
    OLM_CONSOLE_OIDC_ISSUER: 'https://idp.example',
    OLM_CONSOLE_OIDC_CLIENT_ID: 'console',
    OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE: '/s',
  });
  assert.equal(planServe(['--oidc-issuer', 'https://idp.example'], { OLM_CONSOLE_IN_CLUSTER: 'true' }).ok, false);
});
