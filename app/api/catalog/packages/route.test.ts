// OperatorHub's list against the sandbox's demo catalog, through the route handler, as the admin
// and as a namespace-only user.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { subscribe } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Body = {
  catalogs: { name: string; kind?: string; state: string; source?: string; packages: number }[];
  facets: Record<string, Record<string, number>>;
  total: number;
  packages: {
    name: string;
    displayName: string;
    provider: string;
    catalog: { name: string };
    installedIn?: string[];
  }[];
};

describe('GET /api/catalog/packages', () => {
  const sb = routeSandbox();
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (query: string, user = 'admin') =>
    sb.call<Body>(GET, `/api/catalog/packages${query}`, { user, bearer: true });

  test('every tile of the demo catalog, read through its registry, without the non-standalone one', async () => {
    const { status, body } = await get('');
    assert.equal(status, 200);
    // The ClusterCatalog of the same name is OLM v1's (route.olm-v1.test.ts).
    assert.deepEqual(
      body.catalogs.filter((c) => !c.kind).map((c) => [c.name, c.state, c.source, c.packages]),
      [['olm-console-demo', 'READY', 'registry', 13]],
    );
    assert.equal(body.total, 12, '13 packages, tenant-core is non-standalone');
    assert.ok(!body.packages.some((p) => p.name === 'tenant-core'));
    assert.equal(body.facets.capability!['Auto Pilot'], 1);
    assert.equal(body.facets.installMode!.MultiNamespace, 2, 'pgpilot and backstop v2');
  });

  test('keywords rank, facets filter, and counts say what a choice would show', async () => {
    const { body } = await get('?q=gateway');
    assert.deepEqual(body.packages.map((p) => p.name).sort(), ['gatewise', 'routekit']);
    const db = await get('?category=Database');
    assert.deepEqual(db.body.packages.map((p) => p.name).sort(), ['cachely', 'pgpilot']);
    assert.equal(db.body.facets.category!.Database, 2);
    const both = await get('?category=Database&category=Security&installMode=SingleNamespace');
    assert.deepEqual(both.body.packages.map((p) => p.name).sort(), ['pgpilot', 'vaultkeeper']);
    const withDeps = await get('?includeNonStandalone=true');
    assert.equal(withDeps.body.total, 13);
  });

  test('a person who may view everything sees the same packages', async () => {
    const bob = await get('', 'bob');
    assert.equal(bob.status, 200);
    assert.equal(bob.body.total, 12);
  });

  test('bad input is a 400 naming the parameter', async () => {
    const { status, body } = await get(`?q=${'x'.repeat(300)}`);
    assert.equal(status, 400);
    assert.match((body as unknown as { error: { message: string } }).error.message, /^q: /);
  });

  test('sorted by name without keywords, by provider when asked; an ETag answers 304 when nothing changed', async () => {
    const { body } = await get('');
    const names = body.packages.map((p) => p.displayName);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
    const byProvider = (await get('?sort=provider')).body.packages.map((p) => p.provider);
    assert.deepEqual(
      byProvider,
      [...byProvider].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
    assert.equal((await get('?sort=price')).status, 400);
    const first = await GET(sb.request('/api/catalog/packages', { bearer: true }));
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const again = await GET(sb.request('/api/catalog/packages', { bearer: true, headers: { 'if-none-match': etag } }));
    assert.equal(again.status, 304);
  });

  test('installed state: where each package is installed, as a facet and a filter', async () => {
    await subscribe(sb.admin, { namespace: 'cw', package: 'certwarden', channel: 'stable', targets: [''] });
    const { body } = await get('?installState=installed');
    assert.deepEqual(
      body.packages.map((p) => [p.name, p.installedIn]),
      [['certwarden', ['cw']]],
    );
    assert.equal(body.facets.installState!.installed, 1);
    assert.equal(body.facets.installState!.notInstalled, 11);
    const not = await get('?installState=notInstalled');
    assert.equal(not.body.total, 11);
    assert.equal((await get('?installState=maybe')).status, 400);
  });

  test("the nodes' platforms come along for those who may list nodes", async () => {
    const admin = (await get('')).body as unknown as { platforms?: { os: string; arch: string }[] };
    assert.deepEqual(admin.platforms, [{ os: 'linux', arch: 'amd64' }]);
    const bob = (await get('', 'bob')).body as unknown as { platforms?: unknown };
    assert.equal(bob.platforms, undefined, 'view does not include nodes');
  });
});
