// Approvals across clusters kept live: three sandbox clusters (lib/sandbox/fleet.ts), per-user
// tokens. The page's event stream says when each cluster's watch is ready; someone approving a
// plan elsewhere (the seed admin, straight on prod-east) is told as a change of prod-east only,
// and the row read again right after no longer lists the plan, though the person's answer was
// cached a moment before. Two pages of one person hold one watch per cluster, the watches end
// once no page listens, a person may follow only so many clusters live, and a cluster the console
// does not serve, or a query parameter the stream does not take, is a 400.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FleetApprovalsResponse } from '@/lib/api/fleet';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { forgetCluster } from '@/lib/server/fleet/across';
import { openApprovalEvents } from '@/lib/server/fleet/approval-events';
import { approvalWatches, ApprovalWatches, type FleetWatchNews } from '@/lib/server/fleet/approval-watches';
import { fleetMembers } from '@/lib/server/fleet/members';
import { fleetPerson } from '@/lib/server/fleet/person';
import { waitFor } from '@/lib/server/testing/cluster';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';
import { sseReader } from '@/lib/server/testing/sse-reader';

type Handler = (req: Request) => Promise<Response>;

/** Events as the page's EventSource would see them: `watch` and `change`, each naming its cluster. */
function open(events: Handler, req: Request, ctl: AbortController) {
  return events(new Request(req, { signal: ctl.signal })).then((res) => {
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    return sseReader(res);
  });
}

const cluster = (e: { data?: unknown }) => (e.data as { cluster?: string } | undefined)?.cluster;
const state = (e: { data?: unknown }) => (e.data as { state?: string } | undefined)?.state;

describe('approvals across clusters, live', () => {
  const sb = fleetSandbox(3);
  let list: Handler;
  let events: Handler;
  before(async () => {
    list = (await import('../route')).GET;
    events = (await import('./route')).GET;
  });
  const waitingOn = async (name: string) => {
    const { status, body } = await sb.call<FleetApprovalsResponse>(list, `/api/fleet/approvals?cluster=${name}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.clusters.map((c) => c.name),
      [name],
    );
    const row = body.clusters[0]!;
    assert.ok(row.ok, JSON.stringify(row));
    return row.value.approvals;
  };

  test('a plan approved elsewhere is told as a change of its cluster, and its row read again shows it', async () => {
    const ctl = new AbortController();
    const stream = await open(events, sb.request('/api/fleet/approvals/events'), ctl);
    try {
      for (const name of ['prod-east', 'prod-west', 'staging'])
        await stream.next((e) => e.event === 'watch' && cluster(e) === name && state(e) === 'watching');
      const [plan] = await waitingOn('prod-east');
      assert.ok(plan, 'the seed leaves a plan waiting on prod-east');
      // Cached for 10 s: without the watch, the next read would still list it.
      assert.ok((await waitingOn('prod-east')).some((p) => p.name === plan.name));
      const admin = sb.admin('prod-east');
      await admin.patch<InstallPlan>(INSTALL_PLAN_TYPE, plan.name, { spec: { approved: true } }, plan);
      await stream.next((e) => e.event === 'change' && cluster(e) === 'prod-east');
      assert.ok(!(await waitingOn('prod-east')).some((p) => p.name === plan.name), 'the approved plan is gone');
      // Nothing changed elsewhere: no other cluster is said to have.
      await assert.rejects(
        stream.next((e) => e.event === 'change' && cluster(e) !== 'prod-east', 1_500),
        /no matching event/,
      );
    } finally {
      ctl.abort();
    }
  });

  test('two pages of one person share one watch per cluster, ended once neither listens', async () => {
    const members = fleetMembers();
    const person = fleetPerson(sb.request('/api/fleet/approvals'), members);
    const watches = new ApprovalWatches({ perPerson: 10, lingerMs: 0, coalesceMs: 50, forget: forgetCluster });
    const heard: FleetWatchNews[][] = [[], []];
    const pages = heard.map((into) => members.map((m) => watches.listen(person, m, (n) => into.push(n))));
    assert.equal(watches.count(person.key), 3);
    assert.equal(watches.count(), 3);
    await waitFor('both pages told every cluster is watched', async () =>
      heard.every((h) => new Set(h.filter((n) => n.state === 'watching').map((n) => n.cluster)).size === 3)
        ? true
        : undefined,
    );
    for (const release of pages[0]!) release();
    assert.equal(watches.count(), 3, 'the other page still listens');
    for (const release of pages[1]!) release();
    assert.equal(watches.count(), 0);
  });

  test('a watch begun after the person read the row says the row is stale; one begun with the read does not', async () => {
    const members = fleetMembers();
    const person = fleetPerson(sb.request('/api/fleet/approvals', { user: 'bob' }), members);
    // Bob may list InstallPlans everywhere but no ClusterExtensions: his rows show no v1 changes, so
    // only his InstallPlans are watched. He reads east's row first (the whole answer, which starts
    // no watch), then follows it.
    const [east, west] = members;
    assert.equal((await sb.call(list, `/api/fleet/approvals?cluster=${east!.name}`, { user: 'bob' })).status, 200);
    const watches = approvalWatches();
    const heard: FleetWatchNews[] = [];
    const releases = [watches.listen(person, east!, (n) => heard.push(n))];
    // West's row read as the page reads it (one line a cluster), which starts its watch.
    const ndjson = sb.request(`/api/fleet/approvals?cluster=${west!.name}`, { user: 'bob' });
    ndjson.headers.set('accept', 'application/x-ndjson');
    assert.match(await (await list(ndjson)).text(), /"approvals"/);
    releases.push(watches.listen(person, west!, (n) => heard.push(n)));
    try {
      await waitFor('both watched', async () =>
        heard.filter((n) => n.state === 'watching').length === 2 ? true : undefined,
      );
      const ready = (c: string) => heard.find((n) => n.cluster === c && n.state === 'watching');
      assert.equal(ready(east!.name)?.stale, true, 'the answer bob holds predates the watch');
      assert.equal(ready(west!.name)?.stale, undefined);
    } finally {
      for (const r of releases) r();
    }
  });

  test('past the clusters one person may follow live, a cluster is unwatched and says why', async () => {
    const members = fleetMembers();
    const person = fleetPerson(sb.request('/api/fleet/approvals'), members);
    const watches = new ApprovalWatches({ perPerson: 2, lingerMs: 0, coalesceMs: 50, forget: forgetCluster });
    const heard: FleetWatchNews[] = [];
    const releases = members.map((m) => watches.listen(person, m, (n) => heard.push(n)));
    try {
      assert.equal(watches.count(person.key), 2);
      const third = heard.find((n) => n.cluster === members[2]!.name);
      assert.equal(third?.state, 'unwatched');
      assert.match(third?.message ?? '', /OLM_CONSOLE_MAX_FLEET_WATCHES_PER_USER/);
      // Another person's watches are theirs: bob follows the first cluster too.
      const bob = fleetPerson(sb.request('/api/fleet/approvals', { user: 'bob' }), members);
      const release = watches.listen(bob, members[0]!, () => {});
      assert.equal(watches.count(bob.key), 1);
      release();
    } finally {
      for (const r of releases) r();
    }
  });

  test('a cluster the console does not serve is refused by name', async () => {
    for (const path of ['/api/fleet/approvals/events?cluster=nowhere', '/api/fleet/approvals?cluster=nowhere']) {
      const handler = path.includes('events') ? events : list;
      const { status, body } = await sb.call<ErrorBody>(handler, path);
      assert.equal(status, 400, path);
      assert.match(body.error.message, /no cluster named "nowhere"/);
    }
  });

  test('a query parameter the stream does not take is refused by name, before any stream opens', async () => {
    const res = await events(sb.request('/api/fleet/approvals/events?cluster=staging&namespace=team1'));
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as ErrorBody;
    assert.match(body.error.message, /namespace/);
  });

  test('a stream at the end of its life says it will reconnect before it ends', async () => {
    const members = fleetMembers();
    const person = fleetPerson(sb.request('/api/fleet/approvals/events'), members);
    const stream = sseReader(
      new Response(openApprovalEvents(approvalWatches(), members, person, { maxLifeMs: 1500 }), {
        headers: { 'Content-Type': 'text/event-stream' },
      }),
    );
    const last = await stream.next((e) => e.event === 'reconnect');
    assert.deepEqual(last.data, { afterMs: 2000 });
    // And then it ends.
    await assert.rejects(
      stream.next(() => false, 3000),
      /stream ended/,
    );
  });
});
