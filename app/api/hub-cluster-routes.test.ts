// The pages and routes of a cluster the console knows only from an Open Cluster Management hub: a
// fleet of three sandbox clusters whose first is a hub listing the others as ManagedClusters, and a
// console whose kubeconfig leaves prod-west out. Each request goes the way the HTTP server sends
// it (lib/server/http/cluster-prefix.ts: the configured names first, then the person's own hub
// view) and on to the route: prod-west's routes answer from prod-west as the person; a name the
// person's hub view does not list is a 404, and so is every hub-only name for someone who may not
// list ManagedClusters, even just after someone who may; a client's own cluster header is dropped;
// a cluster the hub lists without a usable address or not Available is refused saying why, on its
// routes and on its pages.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { CLUSTER_HEADER } from '@/lib/api/cluster-route';
import type { InstalledOperatorsResponse } from '@/lib/api/operators';
import type { HubList } from '@/lib/hub/package-summary';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { hubClusterFor, requestCluster } from '@/lib/server/context-cluster';
import { pageClusters } from '@/lib/server/context-page';
import { MANAGED_CLUSTER_TYPE } from '@/lib/server/fleet/hub-members';
import { fleetMembers, memberOfCacheKey } from '@/lib/server/fleet/members';
import {
  hubCandidate,
  takeClusterFromPath,
  takeHubClusterFromPath,
  webRequestOf,
} from '@/lib/server/http/cluster-prefix';
import { bundleCopy } from '@/lib/server/testing/bundle-copy';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe('every route on a cluster only the OCM hub lists', () => {
  const sb = fleetSandbox(3, { hubOnly: ['prod-west'] });
  let operators: Handler;
  let packages: Handler;
  let approve: Handler;
  before(async () => {
    operators = (await import('./operators/route')).GET as Handler;
    packages = (await import('./catalog/packages/route')).GET as Handler;
    approve = (await import('./installplans/[namespace]/[name]/approve/route')).POST as Handler;
    const hub = sb.admin('prod-east');
    // Two clusters the hub lists that the console must not ask: not heard from, and a plain-http address.
    await hub.create(MANAGED_CLUSTER_TYPE, {
      metadata: { name: 'lab' },
      spec: { hubAcceptsClient: true, managedClusterClientConfigs: [{ url: 'https://127.0.0.1:1' }] },
    });
    await hub.create(MANAGED_CLUSTER_TYPE, {
      metadata: { name: 'plain' },
      spec: { hubAcceptsClient: true, managedClusterClientConfigs: [{ url: 'http://127.0.0.1:1' }] },
    });
  });

  interface Sent {
    user?: string;
    method?: string;
    body?: unknown;
    params?: Record<string, string>;
    headers?: Record<string, string>;
    signedOut?: boolean;
  }

  /** `path` as a browser asks for it, through the HTTP server's cluster prefix, then the route. */
  async function call<T>(handler: Handler, path: string, sent: Sent = {}): Promise<{ status: number; body: T }> {
    const base = sb.request(path, { user: sent.user ?? 'admin', method: sent.method, body: sent.body });
    const headers: Record<string, string> = { ...sent.headers };
    base.headers.forEach((v, k) => (headers[k] = v));
    if (sent.signedOut) delete headers.cookie;
    const url = new URL(base.url);
    const req = { url: url.pathname + url.search, headers } as unknown as IncomingMessage;
    const names = fleetMembers().map((m) => m.name);
    const route = takeClusterFromPath(req, url.pathname, names);
    if (route.kind === 'unknown') {
      const candidate = hubCandidate(url.pathname);
      assert.ok(candidate, `${url.pathname} names no cluster at all`);
      const refusal = await takeHubClusterFromPath(req, candidate, hubClusterFor);
      if (refusal) return { status: refusal.status, body: { error: refusal } as T };
    }
    const routed = new Request(new URL(req.url!, base.url), {
      method: base.method,
      headers: webRequestOf(req).headers,
      ...(sent.body === undefined ? {} : { body: JSON.stringify(sent.body) }),
    });
    const res = await handler(routed, { params: Promise.resolve(sent.params ?? {}) });
    return { status: res.status, body: (await res.json()) as T };
  }
  const csvs = (r: InstalledOperatorsResponse) => r.operators.map((o) => o.csvName ?? '').sort();

  test("a hub-only cluster's routes answer from that cluster, asked as the person", async () => {
    const west = await call<InstalledOperatorsResponse>(operators, '/clusters/prod-west/api/operators?namespace=team1');
    assert.equal(west.status, 200, JSON.stringify(west.body));
    // The fleet's seed: prod-west alone runs cachely (in team1) and pgpilot 1.2.0 (for every namespace).
    assert.ok(csvs(west.body).includes('cachely.v0.9.0'), csvs(west.body).join(', '));
    assert.ok(csvs(west.body).includes('pgpilot.v1.2.0'), csvs(west.body).join(', '));
    const home = await call<InstalledOperatorsResponse>(operators, '/api/operators?namespace=team1');
    assert.ok(!csvs(home.body).includes('cachely.v0.9.0'), csvs(home.body).join(', '));
    assert.ok(!csvs(home.body).includes('pgpilot.v1.2.0'), csvs(home.body).join(', '));
    // OperatorHub reads prod-west's catalogs through an index of its own.
    const hub = await call<HubList>(packages, '/clusters/prod-west/api/catalog/packages?namespace=team1');
    assert.equal(hub.status, 200, JSON.stringify(hub.body));
    assert.deepEqual(hub.body.packages.find((p) => p.name === 'cachely')?.installedIn, ['team1']);
  });

  test('an approval on a hub-only cluster is made there, as the person, and nowhere else', async () => {
    const waiting = async (cluster: string) =>
      (await sb.admin(cluster).listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'operators' })).items.filter(
        (p) => !p.spec.approved,
      );
    const [plan] = await waiting('prod-west');
    assert.ok(plan, 'prod-west has an InstallPlan waiting (the fleet seed)');
    const homeBefore = (await waiting('prod-east')).map((p) => p.metadata!.name!);
    const name = plan.metadata!.name!;
    const res = await call<unknown>(approve, `/clusters/prod-west/api/installplans/operators/${name}/approve`, {
      method: 'POST',
      body: { resourceVersion: plan.metadata!.resourceVersion },
      params: { namespace: 'operators', name },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(
      (await sb.admin('prod-west').get<InstallPlan>(INSTALL_PLAN_TYPE, name, 'operators')).spec.approved,
      true,
    );
    assert.deepEqual(
      (await waiting('prod-east')).map((p) => p.metadata!.name!),
      homeBefore,
    );
  });

  test("a name the person's hub view does not list is a 404 naming the clusters they may ask for", async () => {
    const { status, body } = await call<ErrorBody>(operators, '/clusters/prod-north/api/operators');
    assert.equal(status, 404);
    assert.match(body.error.message, /no cluster named "prod-north"/);
    assert.match(body.error.message, /prod-east, staging, .*prod-west/);
  });

  test("a client's own cluster header is dropped: the path alone names the cluster", async () => {
    const home = await call<InstalledOperatorsResponse>(operators, '/api/operators?namespace=team1', {
      headers: { [CLUSTER_HEADER]: 'prod-west' },
    });
    assert.equal(home.status, 200);
    assert.ok(!csvs(home.body).includes('cachely.v0.9.0'), csvs(home.body).join(', '));
    const west = await call<InstalledOperatorsResponse>(
      operators,
      '/clusters/prod-west/api/operators?namespace=team1',
      {
        headers: { [CLUSTER_HEADER]: 'staging' },
      },
    );
    assert.ok(csvs(west.body).includes('cachely.v0.9.0'), csvs(west.body).join(', '));
    const unknown = await call<ErrorBody>(operators, '/clusters/prod-north/api/operators?namespace=team1', {
      headers: { [CLUSTER_HEADER]: 'prod-west' },
    });
    assert.equal(unknown.status, 404);
  });

  test('one who may not list ManagedClusters gets a 404 for a hub-only name, right after one who may', async () => {
    const admin = await call<InstalledOperatorsResponse>(
      operators,
      '/clusters/prod-west/api/operators?namespace=team1',
    );
    assert.equal(admin.status, 200);
    // alice administers namespace team1 on every cluster, but may not list the hub's ManagedClusters.
    const { status, body } = await call<ErrorBody>(operators, '/clusters/prod-west/api/operators?namespace=team1', {
      user: 'alice',
    });
    assert.equal(status, 404);
    assert.match(body.error.message, /no cluster named "prod-west"; its clusters are prod-east, staging$/);
    // Reached without the HTTP server, with the header set, the route checks the same view.
    const direct = new Request(sb.request('/api/operators?namespace=team1', { user: 'alice' }), {
      headers: { ...Object.fromEntries(sb.request('/', { user: 'alice' }).headers), [CLUSTER_HEADER]: 'prod-west' },
    });
    const res = await operators(direct, { params: Promise.resolve({}) });
    assert.equal(res.status, 404);
    // A configured cluster is hers to ask as ever.
    const staging = await call<InstalledOperatorsResponse>(
      operators,
      '/clusters/staging/api/operators?namespace=team1',
      {
        user: 'alice',
      },
    );
    assert.equal(staging.status, 200);
  });

  test('signed out, a hub-only name is a 401: nobody’s hub view is read for a stranger', async () => {
    const { status, body } = await call<ErrorBody>(operators, '/clusters/prod-west/api/operators', { signedOut: true });
    assert.equal(status, 401);
    assert.match(body.error.message, /log in/);
  });

  test('a per-user token goes to a hub-only cluster only where tokens travel', async () => {
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'false';
    try {
      const { status, body } = await call<ErrorBody>(operators, '/clusters/prod-west/api/operators?namespace=team1');
      assert.equal(status, 401);
      assert.match(body.error.message, /prod-west is listed by the hub only/);
    } finally {
      process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    }
  });

  test('a hub-listed cluster without a usable address, or not Available, is refused with why', async () => {
    const plain = await call<ErrorBody>(operators, '/clusters/plain/api/operators');
    assert.equal(plain.status, 503);
    assert.match(plain.body.error.message, /plain is not asked: .*http:\/\/127\.0\.0\.1:1, which is not https/);
    const lab = await call<ErrorBody>(operators, '/clusters/lab/api/operators');
    assert.equal(lab.status, 503);
    assert.match(lab.body.error.message, /lab is not asked: the hub has no ManagedClusterConditionAvailable/);
  });

  test("a page of such a cluster says why in place of its content; a hub-only cluster's page is its own", async () => {
    const page = (cluster: string | undefined, user = 'admin') => {
      const headers = new Headers(sb.request('/operators', { user }).headers);
      if (cluster) headers.set(CLUSTER_HEADER, cluster);
      return pageClusters(headers);
    };
    const west = await page('prod-west');
    assert.deepEqual(west, { names: ['prod-east', 'staging', 'lab', 'plain', 'prod-west'], rendered: 'prod-west' });
    const lab = await page('lab');
    assert.equal(lab.rendered, 'lab');
    assert.match(lab.blocked?.reason ?? '', /has no ManagedClusterConditionAvailable/);
    assert.match((await page('plain')).blocked?.reason ?? '', /not https/);
    // alice's switcher offers the configured clusters only.
    assert.deepEqual(await page(undefined, 'alice'), { names: ['prod-east', 'staging'] });
  });

  test("what one route bundle's copy of the modules admits, another's finds (one process)", async () => {
    const lib = join(import.meta.dirname, '..', '..', 'lib', 'server');
    type Context = typeof import('@/lib/server/context-cluster');
    type Members = typeof import('@/lib/server/fleet/members');
    const context = await bundleCopy<Context>(join(lib, 'context-cluster.ts'));
    const members = await bundleCopy<Members>(join(lib, 'fleet', 'members.ts'));
    const req = new Request(sb.request('/api/operators'), {
      headers: { ...Object.fromEntries(sb.request('/').headers), [CLUSTER_HEADER]: 'prod-west' },
    });
    await context.admitRequestCluster(req);
    const west = requestCluster(req);
    assert.equal(west?.name, 'prod-west');
    // The key a client of it is made with names it to every copy (catalog indexes find it so).
    const key = members.rememberCacheKey(west!)!;
    assert.match(key, /^prod-west at https:\/\/127\.0\.0\.1:\d+ ca [0-9a-f]{16}$/);
    assert.equal(memberOfCacheKey(key)?.access.server, west!.access.server);
  });
});
