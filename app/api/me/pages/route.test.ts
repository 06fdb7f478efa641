// GET /api/me/pages against the sandbox, as each seed user: the admin may use every cluster-wide
// page, bob (view everywhere) all but Cluster settings and OLM v1's ClusterCatalogs (the view role
// does not include them), alice (admin of team1 only) none, each
// refusal with the cluster's words; logged out is a 401; an unknown parameter a 400 naming it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PageAccessAnswer } from '@/lib/api/page-access';
import { CONSOLE_ORIGIN } from '@/lib/server/testing/console-request';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

describe('GET /api/me/pages', () => {
  const sb = routeSandbox({ demo: false });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const allowed = (a: PageAccessAnswer) => Object.fromEntries(a.pages.map((p) => [p.path, p.allowed]));

  test('the admin may use every cluster-wide page', async () => {
    const { status, body } = await sb.call<PageAccessAnswer>(GET, '/api/me/pages', { user: 'admin' });
    assert.equal(status, 200);
    assert.deepEqual(allowed(body), {
      '/catalogsources': true,
      '/clustercatalogs': true,
      '/cluster-upgrade': true,
      '/settings': true,
    });
    assert.ok(body.pages.every((p) => p.reason === undefined));
  });

  test('bob, who may view everything, is refused the OLMConfig and ClusterCatalogs, saying which right he lacks', async () => {
    const { body } = await sb.call<PageAccessAnswer>(GET, '/api/me/pages', { user: 'bob' });
    assert.deepEqual(allowed(body), {
      '/catalogsources': true,
      '/clustercatalogs': false,
      '/cluster-upgrade': true,
      '/settings': false,
    });
    const settings = body.pages.find((p) => p.path === '/settings')!;
    assert.equal(settings.needs, 'read the OLMConfig named cluster');
    assert.match(settings.reason ?? '', /^you may not get olmconfigs$/);
    const v1 = body.pages.find((p) => p.path === '/clustercatalogs')!;
    assert.match(v1.reason ?? '', /^you may not list clustercatalogs$/);
  });

  test('alice, admin of one namespace, may use none of them', async () => {
    const { body } = await sb.call<PageAccessAnswer>(GET, '/api/me/pages', { user: 'alice' });
    assert.deepEqual(allowed(body), {
      '/catalogsources': false,
      '/clustercatalogs': false,
      '/cluster-upgrade': false,
      '/settings': false,
    });
    const catalogs = body.pages.find((p) => p.path === '/catalogsources')!;
    assert.match(catalogs.reason ?? '', /^you may not list catalogsources$/);
  });

  test('without a login it is a 401, and an unknown parameter is a 400 naming it', async () => {
    const res = await GET(new Request(`${CONSOLE_ORIGIN}/api/me/pages`));
    assert.equal(res.status, 401);
    const bad = await sb.call<ErrorBody>(GET, '/api/me/pages?namespace=team1', { user: 'admin' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /namespace/);
  });
});
