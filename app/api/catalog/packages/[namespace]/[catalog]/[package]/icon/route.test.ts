// Package icons through the route handler: the demo catalog's SVGs, served with their policy
// and cache headers, revalidated by ETag, for a person who sees the catalog.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SVG_CSP } from '@/lib/catalog/icon';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe('GET /api/catalog/packages/<ns>/<catalog>/<package>/icon', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let GET: Handler;
  before(async () => {
    sb = await withSandbox();
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ GET } = await import('./route'));
  });
  after(() => sb.close());

  const get = (pkg: string, opts: { user?: string; query?: string; etag?: string } = {}) =>
    GET(
      new Request(`http://console.local/api/catalog/packages/olm/olm-console-demo/${pkg}/icon${opts.query ?? ''}`, {
        headers: { authorization: `Bearer ${sb.tokens[opts.user ?? 'admin']!}`, ...(opts.etag ? { 'if-none-match': opts.etag } : {}) },
      }),
      { params: Promise.resolve({ namespace: 'olm', catalog: 'olm-console-demo', package: pkg }) },
    );

  test('an SVG icon, with its CSP, nosniff, ETag and a day of caching', async () => {
    const res = await get('pgpilot');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.equal(res.headers.get('content-security-policy'), SVG_CSP);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('cache-control')!, /max-age=86400/);
    assert.match(await res.text(), /^<svg/);
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    const again = await get('pgpilot', { etag });
    assert.equal(again.status, 304);
    const other = await get('cachely');
    assert.notEqual(other.headers.get('etag'), etag, 'each package has its own icon');
  });

  test('through PackageManifests in their namespace for a namespace-only user', async () => {
    const res = await get('vaultkeeper', { user: 'alice', query: '?namespace=team1' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
  });

  test('a package that is not there: 404', async () => {
    const res = await get('nope');
    assert.equal(res.status, 404);
  });
});
