// Package icons through the route handler: the demo catalog's SVGs, served with their policy
// and cache headers, revalidated by ETag, for a person who sees the catalog.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { KubeClient } from '@/lib/k8s/client';
import { CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import { CATALOG_DIR_ANNOTATION } from '@/lib/sandbox/olm/catalog-sources';
import { waitFor } from '@/lib/server/testing/cluster';
import { SVG_CSP } from '@/lib/catalog/icon';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /api/catalog/packages/<ns>/<catalog>/<package>/icon', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (pkg: string, opts: { user?: string; query?: string; etag?: string } = {}) =>
    GET(
      sb.request(`/api/catalog/packages/olm/olm-console-demo/${pkg}/icon${opts.query ?? ''}`, {
        user: opts.user,
        bearer: true,
        ...(opts.etag ? { headers: { 'if-none-match': opts.etag } } : {}),
      }),
      {
        params: Promise.resolve({ namespace: 'olm', catalog: 'olm-console-demo', package: pkg }),
      },
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

  test('an icon whose media type carries CR/LF is refused with a reason, never a 500 (registry and PackageManifests)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evil-icon-'));
    // The package's icon, where FBC keeps it (opm copies it into the CSV it builds for the bundle).
    const csv = {
      displayName: 'Evil icon',
      provider: { name: 'x' },
      installModes: [{ type: 'AllNamespaces', supported: true }],
    };
    const docs = [
      {
        schema: 'olm.package',
        name: 'evil-icon',
        defaultChannel: 'stable',
        icon: { base64data: Buffer.from('png').toString('base64'), mediatype: 'image/png\r\nX-Injected: 1' },
      },
      { schema: 'olm.channel', package: 'evil-icon', name: 'stable', entries: [{ name: 'evil-icon.v1.0.0' }] },
      {
        schema: 'olm.bundle',
        package: 'evil-icon',
        name: 'evil-icon.v1.0.0',
        image: 'example.com/evil-icon:1',
        properties: [
          { type: 'olm.package', value: { packageName: 'evil-icon', version: '1.0.0' } },
          { type: 'olm.csv.metadata', value: csv },
        ],
      },
    ];
    writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
    const admin: KubeClient = sb.admin;
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: 'evil', namespace: 'olm', annotations: { [CATALOG_DIR_ANNOTATION]: dir } },
      spec: { sourceType: 'grpc' },
    });
    await waitFor('the evil catalog ready', async () =>
      (
        await admin.get<{ status?: { connectionState?: { lastObservedState?: string } } }>(
          CATALOG_SOURCE_TYPE,
          'evil',
          'olm',
        )
      ).status?.connectionState?.lastObservedState === 'READY'
        ? true
        : undefined,
    );
    const at = (user: string, query = '') =>
      GET(sb.request(`/api/catalog/packages/olm/evil/evil-icon/icon${query}`, { user, bearer: true }), {
        params: Promise.resolve({ namespace: 'olm', catalog: 'evil', package: 'evil-icon' }),
      });
    const viaRegistry = await at('admin');
    assert.equal(viaRegistry.status, 415);
    assert.match(
      ((await viaRegistry.json()) as { error: { message: string } }).error.message,
      /not an image type the console serves/,
    );
    const forAlice = await at('alice', '?namespace=team1');
    assert.equal(forAlice.status, 415);
    // The cluster's own icon subresource (packageserver) serves its default icon instead of failing.
    const { PACKAGE_MANIFEST_TYPE } = await import('@/lib/olm/resources/package-manifest');
    const fromCluster = await waitFor('the icon subresource to answer', async () => {
      try {
        return (await admin.getBytes(PACKAGE_MANIFEST_TYPE, 'evil-icon', 'olm', 'icon')).contentType;
      } catch (err) {
        return (err as { code?: number }).code;
      }
    });
    assert.equal(fromCluster, 'image/svg+xml');
  });
});
