// Per-user token mode: log in with your own token (checked by the cluster), act as yourself,
// log out; writes from another site are refused; only logged-in sessions' logouts are written to
// the revocation record, which stays small and loses none under a thousand logouts. Route
// handlers called as Next.js calls them, the sandbox as the cluster.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { isKubeError } from '@/lib/k8s/errors';
import { loggedInSession } from '@/lib/server/testing/console-request';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;
const origin = 'http://console.local';

describe('/api/session in per-user token mode', () => {
  const sb = routeSandbox({ demo: false });
  let session: { GET: Handler; POST: Handler; DELETE: Handler };
  let permissions: { GET: Handler };
  before(async () => {
    process.env.OLM_CONSOLE_PUBLIC_URL = origin;
    session = await import('./route');
    permissions = await import('../me/permissions/route');
  });

  const login = (token: string, from = origin) =>
    session.POST(
      new Request(`${origin}/api/session`, {
        method: 'POST',
        headers: { origin: from, host: 'console.local', 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      }),
    );
  const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

  test('without a session the API asks to log in', async () => {
    const res = await permissions.GET(new Request(`${origin}/api/me/permissions?namespace=team1`));
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /log in/);
  });

  test('a token the cluster rejects is refused; a good one starts a session acting as that person', async () => {
    const bad = await login('not-a-token');
    assert.equal(bad.status, 401);
    assert.equal(
      ((await bad.json()) as { error: { message: string } }).error.message,
      'the cluster did not accept this token',
    );

    const res = await login(sb.tokens.alice!);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { username: string; csrfToken: string };
    assert.equal(body.username, 'alice');
    const setCookie = res.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.ok(!setCookie.includes(sb.tokens.alice!), 'the token is sealed, not readable in the cookie');

    const perms = await permissions.GET(
      new Request(`${origin}/api/me/permissions?namespace=team1`, { headers: { cookie: cookieOf(res) } }),
    );
    const list = ((await perms.json()) as { permissions: { action: string; allowed: boolean }[] }).permissions;
    assert.equal(list.find((p) => p.action === 'install')?.allowed, true, 'alice may install in team1');
    assert.equal(
      list.find((p) => p.action === 'createNamespace')?.allowed,
      false,
      'and acts as alice, not as the console',
    );

    const me = await session.GET(new Request(`${origin}/api/session`, { headers: { cookie: cookieOf(res) } }));
    assert.deepEqual(await me.json(), {
      mode: 'token',
      loggedIn: true,
      username: 'alice',
      groups: null,
      auth: 'token',
      csrfToken: body.csrfToken,
      imageOrigins: [],
    });

    const crossSite = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: {
          cookie: cookieOf(res),
          origin: 'https://evil.example',
          host: 'console.local',
          'x-csrf-token': body.csrfToken,
        },
      }),
    );
    assert.equal(crossSite.status, 403);
    const noToken = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(res), origin, host: 'console.local' },
      }),
    );
    assert.equal(noToken.status, 403);
    const out = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(res), origin, host: 'console.local', 'x-csrf-token': body.csrfToken },
      }),
    );
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);

    // A saved copy of the cookie is logged out too, and cannot write.
    const saved = await session.GET(new Request(`${origin}/api/session`, { headers: { cookie: cookieOf(res) } }));
    assert.equal(((await saved.json()) as { loggedIn: boolean }).loggedIn, false);
    const write = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(res), origin, 'x-csrf-token': body.csrfToken },
      }),
    );
    assert.equal(write.status, 403);
    const read = await permissions.GET(
      new Request(`${origin}/api/me/permissions?namespace=team1`, { headers: { cookie: cookieOf(res) } }),
    );
    assert.equal(read.status, 401);
  });

  test('logout is recorded in the cluster, so another replica refuses the cookie within seconds', async () => {
    const { SessionRevocations } = await import('@/lib/server/session-revocation');
    const { sessionKey } = await import('@/lib/server/context');
    const { openSession } = await import('@/lib/server/session');
    const { KubeClient } = await import('@/lib/k8s/client');
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    const otherReplica = new SessionRevocations(new KubeClient(kc), 'default', 8 * 3600_000);

    const res = await login(sb.tokens.bob!);
    const body = (await res.json()) as { csrfToken: string };
    const sealed = openSession(cookieOf(res).split('=').slice(1).join('='), sessionKey())!;
    await otherReplica.reload();
    assert.equal(otherReplica.isRevoked(sealed), false);
    const out = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(res), origin, 'x-csrf-token': body.csrfToken },
      }),
    );
    assert.equal(out.status, 204);
    await otherReplica.reload();
    assert.equal(otherReplica.isRevoked(sealed), true);
  });

  test('"log out everywhere" ends every session of that user, and only theirs', async () => {
    const a1 = await login(sb.tokens.alice!);
    const a2 = await login(sb.tokens.alice!);
    const b = await login(sb.tokens.bob!);
    const csrf = ((await a1.json()) as { csrfToken: string }).csrfToken;
    const bad = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(a1), origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ everywhere: true, evrywhere: 1 }),
      }),
    );
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /evrywhere/);
    const out = await session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie: cookieOf(a1), origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ everywhere: true }),
      }),
    );
    assert.equal(out.status, 204);
    const loggedIn = async (r: Response) =>
      (
        (await (
          await session.GET(new Request(`${origin}/api/session`, { headers: { cookie: cookieOf(r) } }))
        ).json()) as { loggedIn: boolean }
      ).loggedIn;
    assert.equal(await loggedIn(a2), false, "alice's other session ended");
    assert.equal(await loggedIn(b), true, "bob's did not");
  });

  test('logging in gives a new session: the cookie held before stays anonymous', async () => {
    const anon = await session.GET(new Request(`${origin}/api/session`));
    const before = cookieOf(anon);
    const res = await login(sb.tokens.alice!);
    assert.notEqual(cookieOf(res), before);
    const again = await session.GET(new Request(`${origin}/api/session`, { headers: { cookie: before } }));
    assert.equal(((await again.json()) as { loggedIn: boolean }).loggedIn, false);
  });

  test("an authenticating proxy can pass the person's token in the Authorization header", async () => {
    const res = await permissions.GET(
      new Request(`${origin}/api/me/permissions?namespace=team1`, {
        headers: { authorization: `Bearer ${sb.tokens.bob!}` },
      }),
    );
    const list = ((await res.json()) as { permissions: { action: string; allowed: boolean }[] }).permissions;
    assert.ok(
      list.every((p) => !p.allowed),
      'bob may view, not change',
    );
  });

  test('behind an authenticating proxy the page is logged in at once, as the person whose token the proxy passes', async () => {
    const ways: Record<string, string>[] = [
      { authorization: `Bearer ${sb.tokens.bob}` },
      { 'x-forwarded-access-token': sb.tokens.bob! },
    ];
    for (const headers of ways) {
      const res = await session.GET(new Request(`${origin}/api/session`, { headers }));
      assert.equal(res.status, 200);
      const body = (await res.json()) as { loggedIn: boolean; username: string; csrfToken: string };
      assert.deepEqual([body.loggedIn, body.username], [true, 'bob'], JSON.stringify(headers));
      assert.ok(body.csrfToken && res.headers.get('set-cookie'), 'a session cookie still carries the CSRF token');
    }
    const bad = await session.GET(
      new Request(`${origin}/api/session`, { headers: { 'x-forwarded-access-token': 'not-a-token' } }),
    );
    assert.equal(bad.status, 401, 'a token the cluster rejects is not a login');
  });

  test('login from another site is refused before the token is looked at', async () => {
    const res = await login(sb.tokens.alice!, 'https://evil.example');
    assert.equal(res.status, 403);
  });

  const CONFIGMAP = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };
  type RecordMap = { metadata: { resourceVersion: string }; data?: { [k: string]: string } };
  const record = async (): Promise<RecordMap | undefined> => {
    try {
      return await sb.admin.get<RecordMap>(CONFIGMAP, 'olm-console-session-revocations', 'default');
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  };
  const logout = (cookie: string, csrf: string) => {
    const headers = { cookie, origin, 'x-csrf-token': csrf };
    return session.DELETE(new Request(`${origin}/api/session`, { method: 'DELETE', headers }));
  };

  test('an anonymous logout clears the cookie and writes nothing to the revocation record', async () => {
    const before = (await record())?.metadata.resourceVersion;
    for (let i = 0; i < 20; i++) {
      const anon = await session.GET(new Request(`${origin}/api/session`));
      const { csrfToken } = (await anon.json()) as { csrfToken: string };
      const out = await logout(cookieOf(anon), csrfToken);
      assert.equal(out.status, 204);
      assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    }
    assert.equal((await record())?.metadata.resourceVersion, before, 'the record is as it was');
  });

  test('1,000 logouts of a few people, another replica writing too, keep the record small and lose none', async () => {
    const { SessionRevocations } = await import('@/lib/server/session-revocation');
    const { sessionKey } = await import('@/lib/server/context');
    const { openSession } = await import('@/lib/server/session');
    const { KubeClient } = await import('@/lib/k8s/client');
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    const otherReplica = new SessionRevocations(new KubeClient(kc), 'default', 8 * 3600_000);
    const people = ['ann', 'ben', 'cas', 'dee', 'eve'];
    const here = Array.from({ length: 800 }, (_, i) => loggedInSession(sb.tokens.bob!, people[i % people.length]!));
    const there = Array.from({ length: 200 }, (_, i) => loggedInSession(sb.tokens.bob!, people[i % people.length]!));
    const [answers] = await Promise.all([
      Promise.all(here.map((s) => logout(s.cookie, s.session.csrf))),
      Promise.all(there.map((s) => otherReplica.revokeSession(s.session))),
    ]);
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [204], 'every logout was recorded');

    const reader = new SessionRevocations(new KubeClient(kc), 'default', 8 * 3600_000);
    await reader.reload();
    const opened = (cookie: string) => openSession(cookie.split('=').slice(1).join('='), sessionKey())!;
    const lost = [...here, ...there].filter((s) => !reader.isRevoked(opened(s.cookie)));
    assert.equal(lost.length, 0, `${lost.length} of 1,000 logouts lost`);
    const data = (await record())!.data ?? {};
    // What the API server counts against a ConfigMap's 1 MiB: keys and values.
    const bytes = Object.entries(data).reduce((n, [k, v]) => n + k.length + v.length, 0);
    // At most eight sessions per person, then a cut-off: some forty entries, not a thousand.
    assert.ok(bytes < 4_096, `${bytes} bytes in ${Object.keys(data).length} entries`);
    const fresh = loggedInSession(sb.tokens.bob!, 'ann');
    assert.equal(reader.isRevoked(fresh.session), false, 'a login after them all is untouched');
  });

  test('a logout the record cannot take is an error the person sees, and holds on this replica', async () => {
    const { SessionRevocations, isRevocationWriteError } = await import('@/lib/server/session-revocation');
    const { clientAs } = await import('@/lib/server/testing/cluster');
    // bob may view, not write ConfigMaps: a console whose identity lacks the Role.
    const store = new SessionRevocations(clientAs(sb.sandbox, 'bob'), 'default', 8 * 3600_000);
    const { session: s } = loggedInSession(sb.tokens.bob!, 'bob');
    const forbidden = /cannot write ConfigMap default\/olm-console-session-revocations: .*forbidden/i;
    const refused = (err: unknown) => isRevocationWriteError(err) && forbidden.test(err.message);
    await assert.rejects(store.revokeSession(s), refused);
    assert.equal(store.isRevoked(s), true);
    assert.equal(store.unwritten, 1, 'kept to be written when the console can');
  });
});
