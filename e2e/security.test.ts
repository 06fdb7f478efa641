// The console's defences as a browser and an attacker meet them, against the production server:
// Host allowlist (DNS rebinding), security headers and framing, body limits, login rate limit,
// logout on every replica, and the login redirect. Each test names the hole it closes (issue 21).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { openSession, sealSession, SessionKey } from '../lib/server/session';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

/** A raw request, so that Host and Transfer-Encoding are what the test says (fetch sets its own). */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

let sb: Awaited<ReturnType<typeof withSandbox>>;
let kubeconfigConsole: RunningConsole;
let tokenConsoleA: RunningConsole;
let tokenConsoleB: RunningConsole;
let browser: Browser;
const sessionKey = 'cd'.repeat(32);

before(async () => {
  sb = await withSandbox();
  const tokenEnv = {
    OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath,
    OLM_CONSOLE_AUTH: 'token',
    OLM_CONSOLE_SESSION_KEY: sessionKey,
    OLM_CONSOLE_WARM_INDEX: 'false',
  };
  [kubeconfigConsole, tokenConsoleA, tokenConsoleB] = await Promise.all([
    startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath, OLM_CONSOLE_WARM_INDEX: 'false' }),
    startConsole(tokenEnv),
    startConsole(tokenEnv),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await Promise.all([kubeconfigConsole?.stop(), tokenConsoleA?.stop(), tokenConsoleB?.stop()]);
  await sb?.close();
});

describe('Host and origin (DNS rebinding)', () => {
  test('a page or route asked for under another name answers 421, with how to configure one', async () => {
    const port = new URL(kubeconfigConsole.url).port;
    for (const path of ['/operators', '/api/session']) {
      const res = await raw(`${kubeconfigConsole.url}${path}`, {
        headers: { host: `rebind.attacker.example:${port}` },
      });
      assert.equal(res.status, 421, path);
      const message = path.startsWith('/api/')
        ? (JSON.parse(res.body) as { error: { message: string } }).error.message
        : res.body;
      assert.match(message, /does not answer to host "rebind\.attacker\.example/);
      assert.ok(!res.body.includes('csrfToken'));
    }
    const ok = await raw(`${kubeconfigConsole.url}/api/session`, { headers: { host: `localhost:${port}` } });
    assert.equal(ok.status, 200);
  });

  test('X-Forwarded-Host and -Proto are not believed without --trust-proxy', async () => {
    const port = new URL(kubeconfigConsole.url).port;
    const res = await raw(`${kubeconfigConsole.url}/api/session`, {
      headers: { host: 'evil.example', 'x-forwarded-host': `127.0.0.1:${port}` },
    });
    assert.equal(res.status, 421);
    const session = await fetch(`${kubeconfigConsole.url}/api/session`);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    const write = await fetch(`${kubeconfigConsole.url}/api/subscriptions/team1/x`, {
      method: 'PATCH',
      headers: {
        cookie,
        'x-csrf-token': csrfToken,
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      },
      body: JSON.stringify({ approval: 'Manual' }),
    });
    assert.equal(write.status, 403);
    assert.match(
      ((await write.json()) as { error: { message: string } }).error.message,
      /requests from https:\/\/evil\.example are not accepted/,
    );
  });
});

describe('pages', () => {
  test('every page carries a CSP with a fresh nonce and no eval, images from the console only, and may not be framed', async () => {
    const a = await fetch(`${kubeconfigConsole.url}/operators`);
    const b = await fetch(`${kubeconfigConsole.url}/operators`);
    const csp = a.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /img-src 'self' data:(;|$)/);
    assert.doesNotMatch(csp, /unsafe-eval/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce);
    assert.notEqual(
      nonce,
      /'nonce-([^']+)'/.exec(b.headers.get('content-security-policy') ?? '')?.[1],
      'a nonce per response',
    );
    const html = await a.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(
      scripts.length > 0 && scripts.every((s) => s.includes(`nonce="${nonce}"`)),
      'every script of the page carries the nonce',
    );
    assert.equal(a.headers.get('x-frame-options'), 'DENY');
    assert.equal(a.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(a.headers.get('referrer-policy'), 'same-origin');
    assert.equal(a.headers.get('strict-transport-security'), null, 'no HSTS over plain http');
  });

  test('a page of another site that frames the console gets nothing (clickjacking)', async () => {
    const framing: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<iframe id="f" src="${kubeconfigConsole.url}/operators" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((r) => framing.listen(0, '127.0.0.1', () => r()));
    const page = await browser.newPage();
    try {
      const blocked = page
        .waitForEvent('console', {
          predicate: (m) => /frame-ancestors|X-Frame-Options|refused to/i.test(m.text()),
          timeout: 10_000,
        })
        .then(
          () => true,
          () => false,
        );
      await page.goto(`http://127.0.0.1:${(framing.address() as AddressInfo).port}/`);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      // Chromium replaces a refused frame with its own error page: nothing of the console's is there.
      const text = frame
        ? await frame
            .locator('body')
            .innerText()
            .catch(() => '')
        : '';
      assert.doesNotMatch(text, /Installed Operators|OLM Console/, 'the framed console shows nothing');
      assert.equal(await blocked, true, 'Chromium reports the refusal');
    } finally {
      await page.close();
      framing.close();
    }
  });

  test('after login, a next= that leaves the console lands on the console instead, however spelt', async () => {
    for (const next of ['/\\evil.example:9999/phish', '/.//127.0.0.1:9/phish']) {
      const page = await browser.newPage();
      try {
        await page.goto(`${tokenConsoleA.url}/login?next=${encodeURIComponent(next)}`);
        await page.getByLabel('Your Kubernetes bearer token').fill(sb.tokens.alice!);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(/\/operatorhub$/);
        assert.equal(new URL(page.url()).origin, tokenConsoleA.url, next);
      } finally {
        await page.close();
      }
    }
  });
});

describe('request bodies', () => {
  test('over 1 MiB: 413 before it is read; not JSON: 415; chunked without a length: 411', async () => {
    // Only the headers announce 2 MiB; none of it is sent, so the answer can only come from the
    // header (and a client still writing when the server closes would get EPIPE instead of it).
    const t0 = Date.now();
    const tooBig = await raw(`${kubeconfigConsole.url}/api/install`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
    });
    assert.equal(tooBig.status, 413);
    assert.match(tooBig.body, /at most 1048576/);
    assert.ok(Date.now() - t0 < 5_000);
    const text = await raw(`${kubeconfigConsole.url}/api/install`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': '2' },
      body: '{}',
    });
    assert.equal(text.status, 415);
    assert.match(text.body, /must be JSON/);
    const chunked = await raw(`${kubeconfigConsole.url}/api/install`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: '{}',
    });
    assert.equal(chunked.status, 411);
  });
});

describe('sessions (per-user tokens, two replicas sharing the session key)', () => {
  async function login(c: RunningConsole, token: string): Promise<{ cookie: string; csrf: string }> {
    const res = await fetch(`${c.url}/api/session`, {
      method: 'POST',
      headers: { origin: c.url, 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(res.status, 200);
    return {
      cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!,
      csrf: ((await res.json()) as { csrfToken: string }).csrfToken,
    };
  }
  const loggedIn = async (c: RunningConsole, cookie: string) =>
    ((await (await fetch(`${c.url}/api/session`, { headers: { cookie } })).json()) as { loggedIn: boolean }).loggedIn;

  test("each replica honours the other's session; a logout on one ends the saved cookie on both within seconds", async () => {
    const s = await login(tokenConsoleA, sb.tokens.bob!);
    assert.equal(await loggedIn(tokenConsoleB, s.cookie), true);
    const out = await fetch(`${tokenConsoleA.url}/api/session`, {
      method: 'DELETE',
      headers: { cookie: s.cookie, origin: tokenConsoleA.url, 'x-csrf-token': s.csrf },
    });
    assert.equal(out.status, 204);
    assert.equal(await loggedIn(tokenConsoleA, s.cookie), false);
    const t0 = Date.now();
    while (await loggedIn(tokenConsoleB, s.cookie)) {
      assert.ok(Date.now() - t0 < 10_000, 'the other replica still accepts the cookie after 10 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    const write = await fetch(`${tokenConsoleB.url}/api/installplans/team1/x/approve`, {
      method: 'POST',
      headers: {
        cookie: s.cookie,
        origin: tokenConsoleB.url,
        'x-csrf-token': s.csrf,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    assert.equal(write.status, 403);
  });

  test("a logged-out session's cookie is never refreshed, so a copy of it also dies of idleness", async () => {
    const s = await login(tokenConsoleA, sb.tokens.bob!);
    // The same session as the browser would hold it two minutes later: due for a refresh.
    const key = SessionKey.fromEnv({ OLM_CONSOLE_SESSION_KEY: sessionKey });
    const [name, value] = s.cookie.split('=') as [string, string];
    const session = openSession(value, key)!;
    const stale = `${name}=${sealSession({ ...session, lastSeen: session.lastSeen - 120 }, key)}`;
    const refreshed = await fetch(`${tokenConsoleA.url}/operators`, { headers: { cookie: stale }, redirect: 'manual' });
    assert.match(refreshed.headers.get('set-cookie') ?? '', new RegExp(`^${name}=`), 'a live session is refreshed');
    const out = await fetch(`${tokenConsoleA.url}/api/session`, {
      method: 'DELETE',
      headers: { cookie: s.cookie, origin: tokenConsoleA.url, 'x-csrf-token': s.csrf },
    });
    assert.equal(out.status, 204);
    const t0 = Date.now();
    for (const c of [tokenConsoleA, tokenConsoleB]) {
      for (;;) {
        const res = await fetch(`${c.url}/operators`, { headers: { cookie: stale }, redirect: 'manual' });
        if (!res.headers.get('set-cookie')) break;
        assert.ok(Date.now() - t0 < 10_000, `${c.url} still refreshes the logged-out cookie after 10 s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  });

  test('login attempts are rate-limited per client: the 11th in a minute is 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await fetch(`${tokenConsoleB.url}/api/session`, {
        method: 'POST',
        headers: { origin: tokenConsoleB.url, 'content-type': 'application/json' },
        body: JSON.stringify({ token: `wrong-${i}` }),
      });
      statuses.push(res.status);
      if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
    assert.deepEqual(
      statuses.slice(0, 10).filter((s) => s === 429),
      [],
      'ten attempts are allowed',
    );
    assert.equal(statuses[10], 429);
  });
});
