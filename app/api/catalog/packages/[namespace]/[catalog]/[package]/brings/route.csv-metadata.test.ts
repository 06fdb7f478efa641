// What a version brings when the catalog gives its bundle as published catalogs do: an image and
// olm.csv.metadata, no olm.bundle.object (lib/server/testing/metadata-only-catalog.ts). The
// registry's GetBundle then answers with a CSV it made from the metadata, with no rules and no
// deployments (opm's ConvertModelBundleToAPIBundle; the sandbox's registry too): that is not the
// bundle's manifests. The console reads the image, or says it does not know; it never answers
// from the made-up CSV that the operator brings no rules.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { waitFor } from '@/lib/server/testing/cluster';
import { METADATA_ONLY_BUNDLE, metadataOnlyCatalog } from '@/lib/server/testing/metadata-only-catalog';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe('GET …/brings for a bundle given by image and olm.csv.metadata', () => {
  const { dir, pulls } = metadataOnlyCatalog('v0-brings-metadata-');
  const sb = routeSandbox({ demo: true, catalogs: [dir] });
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });
  const get = (catalog: string, query = '') =>
    waitFor(`package cachely of ${catalog}`, async () => {
      const r = await sb.call<Answer>(GET, `/api/catalog/packages/olm/${catalog}/cachely/brings${query}`, {
        user: 'bob',
        bearer: true,
        params: { namespace: 'olm', catalog, package: 'cachely' },
      });
      return r.status === 200 ? r.body : undefined;
    });

  test("pulling, the rules are the image's, as the same bundle given inline brings them", async () => {
    pulls(true);
    const a = await get('metadata-only');
    assert.equal(a.csvName, METADATA_ONLY_BUNDLE);
    assert.equal(a.from, 'image');
    const inline = await get('olm-console-demo', '?version=0.9.2');
    assert.equal(inline.from, 'catalog');
    assert.ok(inline.brings!.clusterWide.length > 0);
    assert.deepEqual(a.brings, inline.brings);
  });

  test('not pulling, it is unknown and says why, rather than no rules', async () => {
    pulls(false);
    const a = await get('metadata-only');
    assert.equal(a.brings, undefined);
    assert.equal(
      a.unknown,
      `the catalog gives bundle ${METADATA_ONLY_BUNDLE} by image only, and this console does not pull bundle ` +
        'images (OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true)',
    );
  });
});
