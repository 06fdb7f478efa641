// What a version of a ClusterCatalog's package brings, through the route handler against the
// sandbox's catalogd: from the demo catalog's inline objects, and from a catalog that
// gives the same bundle by image only (as published catalogs do), pulled from a registry of the
// test's own (lib/server/testing/oci-images.ts); with pulls off, `unknown` says why. The 404s name
// what is missing; someone who may not list ClusterCatalogs gets the API server's 403.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { CLUSTER_CATALOG_TYPE } from '@/lib/server/olm-v1/resources';
import { setBundlePulls } from '@/lib/server/testing/bundle-pulls';
import { waitFor } from '@/lib/server/testing/cluster';
import { startTestRegistry, type TestRegistry } from '@/lib/server/testing/oci-images';
import { pgpilotByImage } from '@/lib/server/testing/pgpilot-by-image';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const BUNDLE = 'pgpilot.v1.5.0';
const CATALOG_IMAGE = 'quay.io/example/images-only:v1';
const work = mkdtempSync(join(tmpdir(), 'v1-brings-'));
const catalogDir = join(work, 'catalog');

type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe('GET /api/olm-v1/clustercatalogs/<name>/packages/<package>/brings', () => {
  const sb = routeSandbox({ catalogImages: { [CATALOG_IMAGE]: catalogDir } });
  let GET: Handler;
  let registry: TestRegistry;

  before(async () => {
    ({ GET } = (await import('./route')) as unknown as { GET: Handler });
    registry = await startTestRegistry(work, { token: 'anonymous' });
    (await pgpilotByImage()).serve(registry, catalogDir);
    writeFileSync(join(work, 'registry-ca.crt'), registry.caPem);
    await sb.admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: 'images-only' },
      spec: { source: { type: 'Image', image: { ref: CATALOG_IMAGE } } },
    });
  });
  after(async () => {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
    delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
  });

  const pulls = (on: boolean) => setBundlePulls(on, join(work, 'registry-ca.crt'), registry.host);
  const get = (catalog: string, pkg: string, query = '', user = 'admin') =>
    sb.call<Answer>(GET, `/api/olm-v1/clustercatalogs/${catalog}/packages/${pkg}/brings${query}`, {
      user,
      params: { name: catalog, package: pkg },
    });
  const served = (catalog: string, query = '') =>
    waitFor(`ClusterCatalog ${catalog} serving`, async () => {
      const r = await get(catalog, 'pgpilot', query);
      return r.status === 200 ? r.body : undefined;
    });
  const words = (b: BundleBrings) =>
    [...b.clusterWide, ...b.namespaced].flatMap((p) => p.rules.map((r) => `${p.serviceAccount}: ${r.words}`));

  test('a viewer of the cluster who may not list ClusterCatalogs is told so in Kubernetes’ words', async () => {
    await served('olm-console-demo');
    const bob = await get('olm-console-demo', 'pgpilot', '', 'bob');
    assert.equal(bob.status, 403);
    assert.match(bob.body.error.message, /User "bob" cannot list resource "clustercatalogs"/);
  });

  test('what the version brings, from the catalog’s inline objects', async () => {
    const a = await served('olm-console-demo', '?channel=fast&version=1.5.0');
    assert.equal(a.csvName, BUNDLE);
    assert.equal(a.from, 'catalog');
    assert.deepEqual(words(a.brings!).slice(0, 2), [
      'pgpilot-controller: read, list and watch namespaces across the cluster',
      'pgpilot-controller: read, list, watch, create, update, patch and delete configmaps, secrets and services ' +
        'in the namespaces it is installed for',
    ]);
    assert.deepEqual(
      a.brings!.crds.map((c) => c.name),
      ['postgresclusters.pgpilot.example.com', 'postgresbackups.pgpilot.example.com'],
    );
  });

  test('a bundle given by image only: read from its image when pulling, the same as inline', async () => {
    pulls(true);
    const fromImage = await served('images-only');
    assert.equal(fromImage.from, 'image');
    const inline = await served('olm-console-demo', '?channel=fast&version=1.5.0');
    assert.deepEqual(fromImage.brings, inline.brings);
    assert.ok(registry.requests.some((r) => r.startsWith('GET /v2/bundles/pgpilot/blobs/')));
  });

  test('not pulling, the answer is unknown and says why', async () => {
    pulls(false);
    const a = await served('images-only');
    assert.equal(a.brings, undefined);
    assert.equal(
      a.unknown,
      `the catalog gives bundle ${BUNDLE} by image only, and this console does not pull bundle images ` +
        '(OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true) (ClusterCatalog images-only)',
    );
  });

  test('an unknown version, package or catalog is a 404 that names it; bad names a 400', async () => {
    await served('olm-console-demo');
    const version = await get('olm-console-demo', 'pgpilot', '?version=9.9.9');
    assert.equal(version.status, 404);
    assert.match(version.body.error.message, /9\.9\.9/);
    const pkg = await get('olm-console-demo', 'nothing-here');
    assert.equal(pkg.status, 404);
    assert.match(pkg.body.error.message, /nothing-here/);
    const catalog = await get('no-such-catalog', 'pgpilot');
    assert.equal(catalog.status, 404);
    assert.match(catalog.body.error.message, /there is no ClusterCatalog no-such-catalog/);
    assert.equal((await get('olm-console-demo', 'pgpilot', '?namespace=x')).status, 400);
  });
});
