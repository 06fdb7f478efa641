// The event stream through the route against the sandbox: snapshot then changes, a watch the
// person may not make reported while the others go on, heartbeats, resuming with Last-Event-ID,
// following the cluster through a restart, and every watch closed when the tab goes; streams
// per session and per person limited; a stream ended within seconds of its session's logout.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureNamespace } from '@/lib/server/testing/cluster';
import { CONSOLE_ORIGIN, loggedInSession } from '@/lib/server/testing/console-request';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';
import { sseReader } from '@/lib/server/testing/sse-reader';

const cm = (name: string) => ({
  metadata: { name, namespace: 'watched' },
  spec: { name: 'x', source: 'nowhere', sourceNamespace: 'olm' },
});
const SUBS = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};

describe('GET /api/events', () => {
  const sb = routeSandbox({ demo: false });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
    await ensureNamespace(sb.admin, 'watched');
  });

  const open = (query: string, user = 'admin', headers: Record<string, string> = {}) => {
    const abort = new AbortController();
    return {
      abort,
      res: GET(sb.request(`/api/events?${query}`, { user, bearer: true, headers, signal: abort.signal })),
    };
  };

  test('a snapshot, then changes; a forbidden watch is reported and the others go on', async () => {
    const admin = sb.admin;
    await admin.create(SUBS, cm('before'));
    const { abort, res } = open('w=subs:subscriptions:watched&w=secret:subscriptions:kube-system', 'alice');
    const r0 = await res;
    assert.equal(r0.status, 200);
    assert.match(r0.headers.get('content-type')!, /text\/event-stream/);
    // alice administers team1 only: watching "watched" is forbidden too; use team1 for her.
    const denied = sseReader(r0);
    const err = await denied.next((e) => e.event === 'error');
    assert.equal(err.data?.code, 403);
    await denied.cancel();
    abort.abort();

    const s = open('w=subs:subscriptions:watched&w=other:subscriptions:kube-system', 'bob');
    const ev = sseReader(await s.res);
    const snap = await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'subs');
    assert.deepEqual(
      snap.data?.items?.map((i) => i.metadata?.name),
      ['before'],
    );
    await admin.create(SUBS, cm('after'));
    const added = await ev.next((e) => e.event === 'change' && e.data?.object?.metadata?.name === 'after');
    assert.equal(added.data?.type, 'ADDED');
    assert.ok(added.id, 'every change carries an id to resume from');
    await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'other');
    await ev.cancel();
    s.abort.abort();
  });

  test("operatorcsvs watches the operators' own CSVs, never OLM's copies", async () => {
    const admin = sb.admin;
    const CSVS = {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      plural: 'clusterserviceversions',
      namespaced: true,
      kind: 'ClusterServiceVersion',
    };
    const csv = (name: string, labels: Record<string, string>) => ({
      metadata: { name, namespace: 'watched', labels },
      spec: { displayName: name, install: { strategy: 'deployment', spec: { deployments: [] } }, installModes: [] },
    });
    await admin.create(CSVS, csv('own.v1.0.0', {}));
    await admin.create(CSVS, csv('copy.v1.0.0', { 'olm.copiedFrom': 'elsewhere' }));
    const s = open('w=ops:operatorcsvs&w=all:clusterserviceversions:watched');
    const ev = sseReader(await s.res);
    const ops = await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'ops');
    const all = await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'all');
    const names = (items: { metadata?: { name?: string } }[] | undefined) =>
      (items ?? []).map((i) => i.metadata?.name).sort();
    assert.ok(names(ops.data?.items).includes('own.v1.0.0'));
    assert.ok(!names(ops.data?.items).includes('copy.v1.0.0'), 'copies are left on the server');
    assert.deepEqual(names(all.data?.items), ['copy.v1.0.0', 'own.v1.0.0']);
    await ev.cancel();
    s.abort.abort();
  });

  test('resuming with Last-Event-ID sends only what happened since, no snapshot', async () => {
    const admin = sb.admin;
    const first = open('w=subs:subscriptions:watched');
    const a = sseReader(await first.res);
    const snap = await a.next((e) => e.event === 'snapshot');
    const lastId = snap.id!;
    await a.cancel();
    first.abort.abort();
    await admin.create(SUBS, cm('while-away'));
    const again = open('w=subs:subscriptions:watched', 'admin', { 'last-event-id': lastId });
    const b = sseReader(await again.res);
    const change = await b.next((e) => e.event === 'change' || e.event === 'snapshot');
    assert.equal(change.event, 'change');
    assert.equal(change.data?.object?.metadata?.name, 'while-away');
    await b.cancel();
    again.abort.abort();
  });

  test('bad specs are a 400 naming the parameter', async () => {
    const res = await open('w=x:secrets').res;
    assert.equal(res.status, 400);
    assert.match(
      ((await res.json()) as { error: { message: string } }).error.message,
      /^w\.0: "x:secrets": kind must be one of/,
    );
    assert.equal((await open('').res).status, 400);
  });

  describe("limits and the session's end", () => {
    /** Streams opened by a test, closed after it whatever happens. */
    const opened: AbortController[] = [];
    after(() => opened.forEach((a) => a.abort()));
    const stream = (cookie: string) => {
      const abort = new AbortController();
      opened.push(abort);
      const url = `${CONSOLE_ORIGIN}/api/events?w=subs:subscriptions:watched`;
      const req = new Request(url, { headers: { cookie }, signal: abort.signal });
      return { abort, res: GET(req) };
    };

    test("a person's 17th stream is a 429 saying what to do; closing one lets in the next", async () => {
      const open = [];
      for (let i = 0; i < 16; i++) {
        // Sixteen browsers' sessions of one person.
        const s = stream(loggedInSession(sb.tokens.bob!, 'bob').cookie);
        assert.equal((await s.res).status, 200, `stream ${i + 1}`);
        open.push(s);
      }
      const refused = await stream(loggedInSession(sb.tokens.bob!, 'bob').cookie).res;
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      const { message } = ((await refused.json()) as ErrorBody).error;
      assert.match(message, /^you have 16 event streams open to this console.*close console tabs you no longer need/);
      const other = stream(loggedInSession(sb.tokens.alice!, 'alice').cookie);
      assert.equal((await other.res).status, 200, 'someone else is not refused');
      other.abort.abort();

      open.pop()!.abort.abort();
      assert.equal((await stream(loggedInSession(sb.tokens.bob!, 'bob').cookie).res).status, 200);
      opened.forEach((a) => a.abort());
    });

    test("one browser session's 9th stream is a 429 asking to close other tabs", async () => {
      const { cookie } = loggedInSession(sb.tokens.bob!, 'bob');
      for (let i = 0; i < 8; i++) assert.equal((await stream(cookie).res).status, 200, `stream ${i + 1}`);
      const refused = await stream(cookie).res;
      assert.equal(refused.status, 429);
      const { message } = ((await refused.json()) as ErrorBody).error;
      assert.match(message, /^this browser has 8 event streams open to this console.*close other console tabs/);
      opened.forEach((a) => a.abort());
      assert.equal((await stream(cookie).res).status, 200, 'closed streams no longer count');
      opened.forEach((a) => a.abort());
    });

    test('a stream opened before logout ends within seconds of it, telling the page its session ended', async () => {
      const { DELETE } = await import('../session/route');
      const { session, cookie } = loggedInSession(sb.tokens.admin!, 'admin');
      const ev = sseReader(await stream(cookie).res);
      await ev.next((e) => e.event === 'snapshot');
      const headers = { cookie, origin: CONSOLE_ORIGIN, 'x-csrf-token': session.csrf };
      const out = await DELETE(new Request(`${CONSOLE_ORIGIN}/api/session`, { method: 'DELETE', headers }));
      assert.equal(out.status, 204);
      const t0 = Date.now();
      const end = await ev.next((e) => e.event === 'session', 5_000);
      assert.deepEqual([end.data?.state, end.data?.reason], ['ended', 'logged-out']);
      await assert.rejects(
        ev.next(() => false, 3_000),
        /stream ended/,
      );
      assert.ok(Date.now() - t0 < 3_000, `ended ${Date.now() - t0} ms after the logout`);
    });

    test('a stream ends within seconds of "log out everywhere" made on another replica', async () => {
      const { SessionRevocations } = await import('@/lib/server/session-revocation');
      const { consoleIdentityClient } = await import('@/lib/server/context');
      const otherReplica = new SessionRevocations(consoleIdentityClient(), 'default', 8 * 3600_000);
      const { cookie } = loggedInSession(sb.tokens.admin!, 'admin-elsewhere');
      const ev = sseReader(await stream(cookie).res);
      await ev.next((e) => e.event === 'snapshot');
      await otherReplica.revokeUser('admin-elsewhere');
      const t0 = Date.now();
      const end = await ev.next((e) => e.event === 'session', 8_000);
      assert.equal(end.data?.state, 'ended');
      await assert.rejects(
        ev.next(() => false, 3_000),
        /stream ended/,
      );
      // The console re-reads the record every 2 s and each stream checks every second.
      assert.ok(Date.now() - t0 < 4_000, `ended ${Date.now() - t0} ms after the logout`);
    });
  });
});
