// The checks in front of Next.js against every spelling of a path, on the production server
// (issue 28): dot segments, doubled slashes and encoded separators are refused before any check
// could be skipped; a bearer token is believed only from a proxy the administrator trusts, and
// guessing through it is limited like the login; answers that are a person's own are not stored;
// an SVG icon keeps its own script-free policy. (The login redirect's spellings: e2e/security.test.ts.)
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { startConsole, type RunningConsole } from './support/console-server';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request whose path goes out exactly as written (fetch and URL resolve dot segments first). */
function raw(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    // A body goes with its length, as browsers send it, unless the test says otherwise.
    const length =
      opts.body !== undefined && !opts.headers?.['transfer-encoding']
        ? { 'content-length': String(Buffer.byteLength(opts.body)) }
        : {};
    const req = request(
      { host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: { ...length, ...opts.headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

// Each spelling Next.js would route as /api/session (or as another API route) but a text
// comparison would not recognise.
const SESSION_SPELLINGS = [
  '/./api/session',
  '/api/./session',
  '/api//session',
  '//api/session',
  '/api/x/../session',
  '/%2e/api/session',
  '/api/%2E/session',
  '/api/%2e%2e/api/session',
  '/api%2fsession',
  '/api/session/.',
];

let sb: Awaited<ReturnType<typeof withSandbox>>;
let direct: RunningConsole;
let proxied: RunningConsole;

before(async () => {
  sb = await withSandbox();
  const env = { OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath, OLM_CONSOLE_AUTH: 'token', OLM_CONSOLE_WARM_INDEX: 'false' };
  [direct, proxied] = await Promise.all([startConsole(env), startConsole({ ...env, OLM_CONSOLE_TRUST_PROXY: 'true' })]);
});

after(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
  await sb?.close();
});

describe('path spellings', () => {
  test('a path with dot segments, doubled slashes or encoded separators is a 400 before anything else', async () => {
    for (const path of SESSION_SPELLINGS) {
      const res = await raw(direct.url, path, {
        method: 'POST',
        headers: { origin: direct.url, 'content-type': 'application/json' },
        body: JSON.stringify({ token: sb.tokens.admin! }),
      });
      assert.equal(res.status, 400, path);
      assert.equal(res.headers['set-cookie'], undefined, `${path} set no session`);
      assert.match(res.body, /segment|slash|percent/, path);
      assert.ok(!res.body.includes('csrfToken'), path);
    }
  });

  test('login attempts under any spelling count against one limit: the 11th is 429', async () => {
    // Each attempt is the router's /api/session, or refused as a spelling, or redirected; none is free.
    const spellings = ['/api/session', '/api/session/', '/./api/session', '/api//session'];
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await raw(proxied.url, spellings[i % spellings.length]!, {
        method: 'POST',
        headers: { origin: proxied.url, 'content-type': 'application/json' },
        body: JSON.stringify({ token: `wrong-${i}` }),
      });
      statuses.push(res.status);
    }
    const answered = statuses.filter((s) => s !== 400);
    assert.equal(answered.filter((s) => s !== 429).length, 10, `statuses: ${statuses.join(' ')}`);
    assert.equal(answered.filter((s) => s === 429).length, 2, `statuses: ${statuses.join(' ')}`);
  });

  test('body limits hold under every spelling of a write route, and for pages', async () => {
    for (const path of ['/api/install', '/api/install/', '/%61pi/install']) {
      const tooBig = await raw(direct.url, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      });
      assert.equal(tooBig.status, 413, path);
      const text = await raw(direct.url, path, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'content-length': '2' },
        body: '{}',
      });
      assert.equal(text.status, 415, path);
      const chunked = await raw(direct.url, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: '{}',
      });
      assert.equal(chunked.status, 411, path);
    }
    const page = await raw(direct.url, '/operators', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': String(93 * 1024 * 1024) },
    });
    assert.equal(page.status, 413);
  });

  test('the Host check holds under every spelling', async () => {
    const port = new URL(direct.url).port;
    for (const path of ['/api/session', '/api/session/', '/operators/']) {
      const res = await raw(direct.url, path, { headers: { host: `rebind.attacker.example:${port}` } });
      assert.equal(res.status, 421, path);
    }
  });
});

describe('bearer tokens', () => {
  const permissions = '/api/me/permissions?namespace=team1';

  test('without --trust-proxy an Authorization header is not believed: the person logs in', async () => {
    const res = await raw(direct.url, permissions, { headers: { authorization: `Bearer ${sb.tokens.admin!}` } });
    assert.equal(res.status, 401);
    assert.match(res.body, /log in/);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('from a trusted proxy a token acts as its person; new tokens from one address are limited like logins', async () => {
    for (let i = 0; i < 15; i++) {
      const ok = await raw(proxied.url, permissions, {
        headers: { authorization: `Bearer ${sb.tokens.alice!}`, 'x-forwarded-for': '10.9.9.1' },
      });
      assert.equal(ok.status, 200, "one person's requests with their token are not counted again");
    }
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await raw(proxied.url, permissions, {
        headers: { authorization: `Bearer guess-${i}`, 'x-forwarded-for': '10.9.9.2' },
      });
      statuses.push(res.status);
    }
    assert.deepEqual(
      statuses.slice(0, 10).filter((s) => s === 429),
      [],
    );
    assert.equal(statuses[10], 429);
    const other = await raw(proxied.url, permissions, {
      headers: { authorization: `Bearer ${sb.tokens.alice!}`, 'x-forwarded-for': '10.9.9.3' },
    });
    assert.equal(other.status, 200, 'another address is not held back');
  });
});

describe('what browsers and proxies may keep', () => {
  test('error answers and the OperatorHub list are no-store; an SVG icon keeps its own script-free policy', async () => {
    const login = await raw(direct.url, '/api/session', {
      method: 'POST',
      headers: { origin: direct.url, 'content-type': 'application/json' },
      body: JSON.stringify({ token: sb.tokens.admin! }),
    });
    assert.equal(login.status, 200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const forbidden = await raw(direct.url, '/api/operators?namespace=not-a-namespace!', { headers: { cookie } });
    assert.equal(forbidden.status, 400);
    assert.equal(forbidden.headers['cache-control'], 'no-store');
    const list = await raw(direct.url, '/api/catalog/packages', { headers: { cookie } });
    assert.equal(list.status, 200);
    assert.equal(list.headers['cache-control'], 'no-store');
    const icon = await raw(direct.url, '/api/catalog/packages/olm/olm-console-demo/routekit/icon', {
      headers: { cookie },
    });
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
    assert.match(String(icon.headers['content-security-policy']), /^default-src 'none';.*sandbox/);
    assert.doesNotMatch(String(icon.headers['content-security-policy']), /nonce/);
    const page = await raw(direct.url, '/login', {});
    assert.match(String(page.headers['content-security-policy']), /script-src 'self' 'nonce-/);
  });
});
