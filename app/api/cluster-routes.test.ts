// The console's pages and API routes on one cluster of a sandbox fleet (lib/sandbox/fleet.ts): a
// request for a cluster other than home (what the HTTP server makes of `/clusters/<name>/…`, the
// cluster in its header) reads and writes that cluster as the person and shows nothing another
// cluster answered: installed operators, OperatorHub from a catalog of the same name but other
// content on each cluster, an InstallPlan approved on one and not the other. A cluster the console
// does not serve is a 404 naming those it does; a per-user token goes to a non-home cluster only
// where the console is told tokens travel; what is the home cluster's alone is refused elsewhere.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HubList } from '@/lib/hub/package-summary';
import type { InstalledOperatorsResponse } from '@/lib/api/operators';
import { CLUSTER_HEADER } from '@/lib/api/cluster-route';
import { CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { CATALOG_DIR_ANNOTATION } from '@/lib/sandbox/olm/catalog-dir-admission';
import { DEMO_CATALOG_DIR } from '@/lib/sandbox/demo-catalog/location';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe('every route on the cluster its path names, in a fleet of three sandbox clusters', () => {
  const sb = fleetSandbox(3);
  let operators: Handler;
  let hub: Handler;
  let approve: Handler;
  let upgradeTarget: Handler;
  let dir: string;
  before(async () => {
    operators = (await import('./operators/route')).GET as Handler;
    hub = (await import('./catalog/packages/route')).GET as Handler;
    approve = (await import('./installplans/[namespace]/[name]/approve/route')).POST as Handler;
    upgradeTarget = (await import('./subscriptions/[namespace]/[name]/upgrade-target/route')).GET as Handler;
    dir = mkdtempSync(join(tmpdir(), 'olm-cluster-routes-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A request as the HTTP server hands it on for `/clusters/<cluster>/<path>` (home: no header). */
  async function call<T>(
    handler: Handler,
    path: string,
    opts: { cluster?: string; method?: string; body?: unknown; params?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T }> {
    const base = sb.request(path, { ...(opts.method ? { method: opts.method } : {}), body: opts.body });
    const headers = new Headers(base.headers);
    if (opts.cluster) headers.set(CLUSTER_HEADER, opts.cluster);
    const req = new Request(base, { headers });
    const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
    return { status: res.status, body: (await res.json()) as T };
  }
  const csvs = (r: InstalledOperatorsResponse) => r.operators.map((o) => o.csvName ?? '').sort();

  test("installed operators on another cluster are that cluster's, and home's stay home's", async () => {
    const home = await call<InstalledOperatorsResponse>(operators, '/api/operators?namespace=operators');
    const staging = await call<InstalledOperatorsResponse>(operators, '/api/operators?namespace=operators', {
      cluster: 'staging',
    });
    assert.equal(home.status, 200);
    assert.equal(staging.status, 200);
    // The fleet's seed: home runs certwarden 1.0.0 and pgpilot; staging runs only certwarden, at its head.
    assert.ok(csvs(home.body).includes('certwarden.v1.0.0'), csvs(home.body).join(', '));
    assert.ok(
      csvs(home.body).some((c) => c.startsWith('pgpilot.')),
      csvs(home.body).join(', '),
    );
    assert.ok(!csvs(staging.body).some((c) => c.startsWith('pgpilot.')), csvs(staging.body).join(', '));
    assert.ok(!csvs(staging.body).includes('certwarden.v1.0.0'), csvs(staging.body).join(', '));
    assert.ok(
      csvs(staging.body).some((c) => c.startsWith('certwarden.')),
      csvs(staging.body).join(', '),
    );
  });

  test("OperatorHub on another cluster lists that cluster's catalog of the same name, never home's", async () => {
    // staging's olm/olm-console-demo serves the demo catalog without flagpole; home's is untouched.
    const trimmed = join(dir, 'catalog');
    cpSync(DEMO_CATALOG_DIR, trimmed, { recursive: true });
    rmSync(join(trimmed, 'flagpole'), { recursive: true });
    // Packages CatalogSources offer (a ClusterCatalog of the same name offers them too, untouched).
    const names = (l: HubList) => l.packages.filter((p) => !p.catalog.kind).map((p) => p.name);
    const v0Count = (l: HubList) => l.catalogs.find((c) => !c.kind && c.name === 'olm-console-demo')?.packages;
    // Home is read first, so an index or answer kept by catalog name alone would be given to staging.
    const before = await call<HubList>(hub, '/api/catalog/packages');
    assert.equal(before.status, 200);
    assert.ok(names(before.body).includes('flagpole'));
    type Source = { status?: { connectionState?: { lastConnect?: string } } };
    const lastConnect = async () =>
      (await sb.admin('staging').get<Source>(CATALOG_SOURCE_TYPE, 'olm-console-demo', 'olm')).status?.connectionState
        ?.lastConnect;
    const served = await lastConnect();
    await new Promise((r) => setTimeout(r, 1100)); // lastConnect is to the second
    const annotations = { [CATALOG_DIR_ANNOTATION]: trimmed };
    await sb.admin('staging').patch(
      CATALOG_SOURCE_TYPE,
      'olm-console-demo',
      { metadata: { annotations } },
      {
        namespace: 'olm',
      },
    );
    const deadline = Date.now() + 30_000;
    while ((await lastConnect()) === served) {
      assert.ok(Date.now() < deadline, "staging's sandbox did not serve the trimmed catalog");
      await new Promise((r) => setTimeout(r, 100));
    }
    const staging = await call<HubList>(hub, '/api/catalog/packages', { cluster: 'staging' });
    assert.ok(!names(staging.body).includes('flagpole'), names(staging.body).join(', '));
    assert.equal(v0Count(staging.body), v0Count(before.body)! - 1);
    assert.ok(names(staging.body).includes('pgpilot'), names(staging.body).join(', '));
    assert.equal(staging.status, 200);
    const home = await call<HubList>(hub, '/api/catalog/packages');
    assert.ok(names(home.body).includes('flagpole'), "home's hub lost a package staging's catalog lacks");
    assert.equal(v0Count(home.body), v0Count(before.body));
    const prodWest = await call<HubList>(hub, '/api/catalog/packages', { cluster: 'prod-west' });
    assert.ok(names(prodWest.body).includes('flagpole'), "prod-west's hub lost a package staging's catalog lacks");
    // Installs are each cluster's own: pgpilot runs on home in `operators`, not on staging.
    const pgpilot = (l: HubList) => l.packages.find((p) => p.name === 'pgpilot')?.installedIn;
    assert.deepEqual(pgpilot(home.body), ['operators']);
    assert.equal(pgpilot(staging.body), undefined);
  });

  test('an approval on another cluster approves that cluster’s InstallPlan as the person, not home’s', async () => {
    const waiting = async (cluster: string) =>
      (await sb.admin(cluster).listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'operators' })).items.filter(
        (p) => !p.spec.approved,
      );
    const [plan] = await waiting('prod-west');
    assert.ok(plan, 'prod-west has an InstallPlan waiting (the fleet seed)');
    const homeBefore = (await waiting('prod-east')).map((p) => p.metadata!.name!);
    const res = await call<unknown>(approve, `/api/installplans/operators/${plan.metadata!.name}/approve`, {
      cluster: 'prod-west',
      method: 'POST',
      body: { resourceVersion: plan.metadata!.resourceVersion },
      params: { namespace: 'operators', name: plan.metadata!.name! },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = await sb.admin('prod-west').get<InstallPlan>(INSTALL_PLAN_TYPE, plan.metadata!.name!, 'operators');
    assert.equal(after.spec.approved, true);
    for (const name of homeBefore) {
      const p = await sb.admin('prod-east').get<InstallPlan>(INSTALL_PLAN_TYPE, name, 'operators');
      assert.equal(p.spec.approved, false, `home's InstallPlan ${name} was approved`);
    }
  });

  test('a cluster the console does not serve is a 404 naming the ones it does, and nothing is read', async () => {
    const { status, body } = await call<ErrorBody>(operators, '/api/operators', { cluster: 'prod-north' });
    assert.equal(status, 404);
    assert.match(body.error.message, /no cluster named "prod-north"/);
    assert.match(body.error.message, /prod-east, prod-west, staging/);
  });

  test('a per-user token goes to another cluster only when the console is told tokens travel', async () => {
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'false';
    try {
      const { status, body } = await call<ErrorBody>(operators, '/api/operators', { cluster: 'prod-west' });
      assert.equal(status, 401);
      assert.match(body.error.message, /only to the cluster it was checked against \(prod-east\)/);
      const home = await call<InstalledOperatorsResponse>(operators, '/api/operators');
      assert.equal(home.status, 200);
    } finally {
      process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    }
  });

  test("an upgrade target, kept by the console's identity on home, is refused on another cluster", async () => {
    const { status, body } = await call<ErrorBody>(
      upgradeTarget,
      '/api/subscriptions/operators/pgpilot/upgrade-target',
      {
        cluster: 'prod-west',
        params: { namespace: 'operators', name: 'pgpilot' },
      },
    );
    assert.equal(status, 400);
    assert.match(body.error.message, /home cluster only/);
  });
});
