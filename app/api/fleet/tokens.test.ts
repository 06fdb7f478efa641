// A token per cluster, on three sandbox clusters read as the contexts of one kubeconfig in
// per-user-token mode where the login token goes to the home cluster only (no
// OLM_CONSOLE_FLEET_SHARED_TOKENS). Bob logs in on prod-east; the admin's token, added for prod-west,
// is checked there and then used for prod-west alone (its rights are the admin's, prod-east's stay
// bob's, staging is still not asked); a token prod-west refuses is a 401 and nothing is kept; a
// write without the CSRF token changes nothing; a token can be removed, a cookie of another session
// is worth nothing, and logging out clears them.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FleetClustersResponse } from '@/lib/api/fleet';
import type { FleetTokenAdded, FleetTokens } from '@/lib/api/fleet-tokens';
import { CSRF_HEADER } from '@/lib/server/csrf';
import type { RouteContext } from '@/lib/server/route';
import { CONSOLE_ORIGIN, loggedInSession } from '@/lib/server/testing/console-request';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;
type ClusterHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

/** A browser of one logged-in session: its cookies as the console set them, and its CSRF token. */
class Person {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly csrf: string,
    sessionCookie: string,
  ) {
    const [name, value] = sessionCookie.split(/=(.*)/s);
    this.cookies.set(name!, value!);
  }

  request(path: string, opts: { method?: string; body?: unknown; csrf?: string | null } = {}): Request {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: CONSOLE_ORIGIN,
      host: new URL(CONSOLE_ORIGIN).host,
    };
    if (opts.csrf !== null) headers[CSRF_HEADER] = opts.csrf ?? this.csrf;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    return new Request(`${CONSOLE_ORIGIN}${path}`, { method: opts.method ?? 'GET', headers, body });
  }

  /** Keeps what the response set, as a browser would (Max-Age=0 removes). */
  take(res: Response): string[] {
    const set = res.headers.getSetCookie();
    for (const c of set) {
      const [pair, ...attrs] = c.split(';');
      const [name, value] = pair!.split(/=(.*)/s);
      if (attrs.some((a) => a.trim() === 'Max-Age=0')) this.cookies.delete(name!);
      else this.cookies.set(name!, value!);
    }
    return set;
  }
}

describe('a token per cluster, when the login token goes to the home cluster only', () => {
  const sb = fleetSandbox(3);
  let clusters: Handler;
  let tokens: Handler;
  let add: ClusterHandler;
  let remove: ClusterHandler;
  let logout: Handler;
  before(async () => {
    delete process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS;
    clusters = (await import('./clusters/route')).GET;
    tokens = (await import('./tokens/route')).GET;
    const token = await import('./clusters/[name]/token/route');
    add = token.POST;
    remove = token.DELETE;
    logout = (await import('../session/route')).DELETE;
  });

  const bob = () => {
    const { session, cookie } = loggedInSession(sb.fleet.tokens.bob!, 'bob');
    return new Person(session.csrf, cookie);
  };
  const on = (cluster: string) => ({ params: Promise.resolve({ name: cluster }) });
  const addToken = (p: Person, cluster: string, token: string, csrf?: string | null) =>
    add(p.request(`/api/fleet/clusters/${cluster}/token`, { method: 'POST', body: { token }, csrf }), on(cluster));
  const rows = async (p: Person) =>
    ((await (await clusters(p.request('/api/fleet/clusters'))).json()) as FleetClustersResponse).clusters;
  const mayApprove = (row: FleetClustersResponse['clusters'][number] | undefined) => {
    assert.ok(row?.ok, JSON.stringify(row));
    return row.value.rights.find((r) => r.label === 'approve InstallPlans')?.allowed;
  };

  test('a token added for prod-west is checked there and used for prod-west only', async () => {
    const p = bob();
    const before = await rows(p);
    assert.equal(before.find((c) => c.name === 'prod-west')?.ok, false);
    const res = await addToken(p, 'prod-west', sb.fleet.tokens.admin!);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual((await res.json()) as FleetTokenAdded, { cluster: 'prod-west', username: 'admin' });
    const [set] = p.take(res);
    assert.match(set!, /; HttpOnly; SameSite=Strict/);
    assert.ok(!set!.includes(sb.fleet.tokens.admin!), 'the token is sealed, not readable in the cookie');

    const after = await rows(p);
    // prod-west answers as the admin (whose token it is), prod-east as bob, staging not at all.
    assert.equal(mayApprove(after.find((c) => c.name === 'prod-west')), true);
    assert.equal(mayApprove(after.find((c) => c.name === 'prod-east')), false);
    const staging = after.find((c) => c.name === 'staging')!;
    assert.ok(!staging.ok);
    assert.equal(staging.error.code, 401);
    assert.match(staging.error.message, /add your token for staging on the Clusters page/);

    const listed = (await (await tokens(p.request('/api/fleet/tokens'))).json()) as FleetTokens;
    assert.equal(listed.perUser, true);
    assert.equal(listed.loginTokenTravels, false);
    assert.deepEqual(
      listed.clusters.map((c) => [c.name, c.home, c.token?.username ?? null]),
      [
        ['prod-east', true, null],
        ['prod-west', false, 'admin'],
        ['staging', false, null],
      ],
    );
  });

  test('a token the cluster refuses is a 401 saying so, and nothing is kept', async () => {
    const p = bob();
    const res = await addToken(p, 'prod-west', 'sandbox-nobody-0123456789abcdef');
    assert.equal(res.status, 401);
    assert.match(
      ((await res.json()) as ErrorBody).error.message,
      /prod-west did not accept this token; nothing was kept/,
    );
    assert.deepEqual(res.headers.getSetCookie(), []);
  });

  test('without the CSRF token or from another site nothing is added', async () => {
    const p = bob();
    const res = await addToken(p, 'prod-west', sb.fleet.tokens.admin!, null);
    assert.equal(res.status, 403);
    assert.deepEqual(res.headers.getSetCookie(), []);
    const req = p.request('/api/fleet/clusters/prod-west/token', { method: 'POST', body: { token: 'x' } });
    const foreign = new Request(req, { headers: new Headers([...req.headers, ['origin', 'https://evil.example']]) });
    const refused = await add(foreign, on('prod-west'));
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.headers.getSetCookie(), []);
  });

  test('the home cluster, a cluster the console does not serve and a malformed token are refused', async () => {
    const p = bob();
    const home = await addToken(p, 'prod-east', sb.fleet.tokens.admin!);
    assert.equal(home.status, 400);
    assert.match(((await home.json()) as ErrorBody).error.message, /prod-east is the home cluster/);
    const unknown = await addToken(p, 'elsewhere', sb.fleet.tokens.admin!);
    assert.equal(unknown.status, 404);
    assert.match(((await unknown.json()) as ErrorBody).error.message, /serves no cluster "elsewhere"/);
    const spaced = await addToken(p, 'prod-west', 'two words');
    assert.equal(spaced.status, 400);
    assert.match(((await spaced.json()) as ErrorBody).error.message, /printable ASCII/);
  });

  test('a removed token is no longer sent, and a cookie of another session is worth nothing', async () => {
    const p = bob();
    p.take(await addToken(p, 'prod-west', sb.fleet.tokens.admin!));
    assert.equal((await rows(p)).find((c) => c.name === 'prod-west')?.ok, true);
    const cookie = [...p.cookies].find(([k]) => k.startsWith('olm_console_ct_'))!;
    // Another session (a new login) carrying the first one's cookie: it is not this session's.
    const other = bob();
    other.cookies.set(cookie[0], cookie[1]);
    assert.equal((await rows(other)).find((c) => c.name === 'prod-west')?.ok, false);

    const res = await remove(p.request('/api/fleet/clusters/prod-west/token', { method: 'DELETE' }), on('prod-west'));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { cluster: 'prod-west', removed: true });
    p.take(res);
    assert.equal([...p.cookies.keys()].filter((k) => k.startsWith('olm_console_ct_')).length, 0);
    const west = (await rows(p)).find((c) => c.name === 'prod-west')!;
    assert.ok(!west.ok);
    assert.equal(west.error.code, 401);
  });

  test('logging out clears the tokens added for other clusters with the session', async () => {
    const p = bob();
    p.take(await addToken(p, 'prod-west', sb.fleet.tokens.admin!));
    p.take(await addToken(p, 'staging', sb.fleet.tokens.bob!));
    assert.equal(p.cookies.size, 3);
    const res = await logout(p.request('/api/session', { method: 'DELETE' }));
    assert.equal(res.status, 204);
    const cleared = p.take(res);
    assert.equal(cleared.filter((c) => c.includes('Max-Age=0')).length, 3);
    assert.equal(p.cookies.size, 0);
  });
});
