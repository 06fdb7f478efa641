// What a version of a CatalogSource's package brings when the catalog gives its bundles by image
// only, as published catalogs do: the sandbox serves a catalog folder (CatalogSource images-only)
// whose pgpilot 1.5.0 names an image in a registry of the test's own (lib/server/testing/
// oci-images.ts) holding the demo bundle's objects, asked as bob (view). The registry's GetBundle
// has no objects for it, so the console reads the image: the answer is the one the same bundle
// given inline gets. Not pulling, it is unknown and says why.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { waitFor } from '@/lib/server/testing/cluster';
import { imageCatalog } from '@/lib/server/testing/image-catalog';
import { pgpilotByImage } from '@/lib/server/testing/pgpilot-by-image';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const BUNDLE = 'pgpilot.v1.5.0';

type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe('GET …/packages/<ns>/<catalog>/<package>/brings for a bundle given by image only', () => {
  const images = imageCatalog('v0-brings-', 'images-only', async (catalogDir, registry) =>
    (await pgpilotByImage()).serve(registry, catalogDir),
  );
  const { pulls } = images;
  const sb = routeSandbox({ demo: true, catalogs: [images.dir] });
  let GET: Handler;

  before(async () => {
    ({ GET } = await import('./route'));
  });
  const get = (catalog: string, query = '') =>
    waitFor(`package pgpilot of ${catalog}`, async () => {
      const r = await sb.call<Answer>(GET, `/api/catalog/packages/olm/${catalog}/pgpilot/brings${query}`, {
        user: 'bob',
        bearer: true,
        params: { namespace: 'olm', catalog, package: 'pgpilot' },
      });
      return r.status === 200 ? r.body : undefined;
    });

  test('pulling, the image gives what the same bundle given inline gives', async () => {
    pulls(true);
    const fromImage = await get('images-only');
    assert.equal(fromImage.csvName, BUNDLE);
    assert.equal(fromImage.from, 'image');
    const inline = await get('olm-console-demo', '?version=1.5.0');
    assert.equal(inline.from, 'catalog');
    assert.ok(fromImage.brings!.namespaced.length > 0);
    assert.deepEqual(fromImage.brings, inline.brings);
    assert.ok(images.registry.requests.some((r) => r.startsWith('GET /v2/bundles/pgpilot/blobs/')));
  });

  test('not pulling, it is unknown and says why', async () => {
    pulls(false);
    const a = await get('images-only');
    assert.equal(a.brings, undefined);
    assert.equal(
      a.unknown,
      `the catalog gives bundle ${BUNDLE} by image only, and this console does not pull bundle images ` +
        '(OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true)',
    );
  });
});
