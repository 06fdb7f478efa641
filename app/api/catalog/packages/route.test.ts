// OperatorHub's list against the sandbox's demo catalog, through the route handler, as the admin
// and as a namespace-only user.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';

type Body = { catalogs: { name: string; state: string; source?: string; packages: number }[]; facets: Record<string, Record<string, number>>; total: number; packages: { name: string; displayName: string; catalog: { name: string } }[] };

describe('GET /api/catalog/packages', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    sb = await withSandbox();
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ GET } = await import('./route'));
  });
  after(() => sb.close());

  const get = async (query: string, user = 'admin') => {
    const res = await GET(new Request(`http://console.local/api/catalog/packages${query}`, { headers: { authorization: `Bearer ${sb.tokens[user]!}` } }));
    return { status: res.status, body: (await res.json()) as Body };
  };

  test('every tile of the demo catalog, read through its registry, without the non-standalone one', async () => {
    const { status, body } = await get('');
    assert.equal(status, 200);
    assert.deepEqual(body.catalogs.map((c) => [c.name, c.state, c.source, c.packages]), [['olm-console-demo', 'READY', 'registry', 13]]);
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
});
