// The sign-in routes as a browser calls them, against the real test provider process (no cluster:
// these answers come before the cluster is asked anything).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signInOverHttp, startProvider, type ProviderProcess } from '@/lib/server/oidc/testing/provider-process';

const CONSOLE = 'http://127.0.0.1:3000';
type Handler = (req: Request) => Promise<Response>;

describe('GET /api/auth/login and /api/auth/callback', () => {
  let provider: ProviderProcess;
  let login: Handler;
  let callback: Handler;
  before(async () => {
    provider = await startProvider(60);
    Object.assign(process.env, provider.env, { OLM_CONSOLE_PORT: '3000', OLM_CONSOLE_SESSION_KEY: '11'.repeat(32) });
    login = (await import('./login/route')).GET;
    callback = (await import('./callback/route')).GET;
  });
  after(() => provider?.stop());

  // As a browser navigates: it asks for HTML.
  const get = (handler: Handler, path: string, cookie?: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') =>
    handler(
      new Request(`${CONSOLE}${path}`, {
        headers: { host: '127.0.0.1:3000', 'x-olm-console-tls': 'false', accept, ...(cookie ? { cookie } : {}) },
      }),
    );
  const cookieOf = (r: Response) => r.headers.get('set-cookie')!.split(';')[0]!;

  test('starting a sign-in is a 302 to the provider with PKCE, and a sealed SameSite=Lax cookie', async () => {
    const r = await get(login, '/api/auth/login?next=/operators');
    assert.equal(r.status, 302);
    const to = new URL(r.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, `${provider.issuer}/auth`);
    assert.equal(to.searchParams.get('redirect_uri'), `${CONSOLE}/api/auth/callback`);
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    const cookie = /^olm_console_signin=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/;
    assert.match(r.headers.get('set-cookie')!, cookie);
  });

  test("a next outside the console is replaced by the console's own page", async () => {
    const r = await get(login, '/api/auth/login?next=//evil.example/x');
    const back = await signInOverHttp(provider, new URL(r.headers.get('location')!), 'bob', provider.passwords.bob!);
    // The callback with a tampered state shows the page; its "Sign in again" keeps the safe next.
    const tampered = `${back.pathname}${back.search.replace(/state=[^&]+/, 'state=tampered')}`;
    const page = await get(callback, tampered, cookieOf(r));
    assert.equal(page.status, 400);
    const html = await page.text();
    assert.match(html, /wrong state/);
    assert.match(html, /href="\/api\/auth\/login\?next=%2Foperatorhub"/);
  });

  test('a callback without a sign-in in progress says so, and offers to sign in again', async () => {
    const r = await get(callback, '/api/auth/callback?code=x&state=y');
    assert.equal(r.status, 400);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    const html = await r.text();
    assert.match(html, /No sign-in was in progress in this browser/);
    assert.match(html, />Sign in again</);
  });

  test("a client that does not ask for HTML gets the same words as the API's JSON error", async () => {
    const r = await get(callback, '/api/auth/callback?code=x&state=y', undefined, 'application/json');
    assert.equal(r.status, 400);
    const body = (await r.json()) as { error: { code: number; reason: string; message: string; problem: string } };
    assert.equal(body.error.code, 400);
    assert.equal(body.error.problem, 'missing');
    assert.match(body.error.message, /No sign-in was in progress in this browser.*Sign in again: \/api\/auth\/login/);
  });
});
