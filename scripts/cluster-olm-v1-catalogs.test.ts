// The catalog image's folder and the bundle images OLM v1 gets on the real cluster, made from a
// published catalog that mixes bundles carrying their own objects with bundles given only by
// image (olm.csv.metadata): every bundle becomes an image holding what OLM v0's inline copy
// installs, and the catalog catalogd serves is the published one with only `image` changed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFbcDir } from '../lib/olm/fbc/load-dir';
import { needsSharedCatalogs, sharedCatalog } from '../lib/testing/shared-catalogs';
import { renderInlineCatalog } from './cluster-catalogs';
import { renderV1Catalog } from './cluster-olm-v1-catalogs';

type Blob = Record<string, unknown> & { properties?: { type: string; value: { data?: string } }[] };

describe('the OLM v1 copy of a published catalog', needsSharedCatalogs, () => {
  const work = mkdtempSync(join(tmpdir(), 'olm-v1-catalog-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const source = sharedCatalog('okderators');
  const pushed = new Map<string, string>();
  const made = (async () => {
    const inline = renderInlineCatalog(source, join(work, 'inline'));
    const v1 = await renderV1Catalog(source, inline.dir, join(work, 'v1'), async (bundles) =>
      bundles.map(({ dir, pkg, bundle }) => {
        pushed.set(bundle, dir);
        return `registry.test/bundles/${pkg}@sha256:${String(pushed.size).padStart(64, '0')}`;
      }),
    );
    return { inline, v1 };
  })();

  test("serves the catalog's own files and blobs in their order, only each bundle's image changed", async () => {
    const { v1 } = await made;
    const before = readFbcDir(source);
    const now = readFbcDir(v1.dir);
    assert.deepEqual(now.files, before.files);
    assert.equal(now.blobs.length, before.blobs.length);
    for (const [i, { blob, origin }] of before.blobs.entries()) {
      const got = now.blobs[i]!;
      assert.deepEqual(got.origin, origin);
      if (blob.schema !== 'olm.bundle') {
        assert.deepEqual(got.blob, blob);
        continue;
      }
      assert.match(String(got.blob.image), /^registry\.test\/bundles\/[\w.-]+@sha256:\d{64}$/);
      assert.deepEqual({ ...got.blob, image: blob.image }, blob, `${String(blob.name)} otherwise unchanged`);
    }
  });

  test('pushes one bundle image per bundle, those given only by image included', async () => {
    const { inline, v1 } = await made;
    assert.equal(v1.bundles, 25);
    assert.equal(pushed.size, 25);
    assert.equal(inline.derived, 14, 'okderators gives 14 of its 25 bundles only by image');
  });

  test("a bundle image holds the objects OLM v0's inline copy installs, as a registry+v1 folder", async () => {
    const { inline } = await made;
    const inlineBundles = readFbcDir(inline.dir).blobs.map((b) => b.blob as Blob);
    // One given only by image (olm.csv.metadata), one with its own objects.
    for (const name of ['csi-addons.v4.15.0-2024-10-16-184240', 'csi-addons.v4.15.0-2024-05-27-184620']) {
      const dir = pushed.get(name)!;
      const objects = (inlineBundles.find((b) => b.name === name)!.properties ?? [])
        .filter((p) => p.type === 'olm.bundle.object')
        .map((p) => JSON.parse(Buffer.from(p.value.data!, 'base64').toString()) as unknown);
      const files = readdirSync(join(dir, 'manifests')).sort();
      assert.deepEqual(
        files.map((f) => JSON.parse(readFileSync(join(dir, 'manifests', f), 'utf8')) as unknown),
        objects,
      );
      assert.ok(
        objects.some((o) => (o as { kind?: string }).kind === 'ClusterServiceVersion'),
        `${name} has its CSV`,
      );
      const annotations = readFileSync(join(dir, 'metadata', 'annotations.yaml'), 'utf8');
      assert.match(annotations, /operators\.operatorframework\.io\.bundle\.mediatype\.v1: registry\+v1/);
      assert.match(annotations, /operators\.operatorframework\.io\.bundle\.package\.v1: "csi-addons"/);
      assert.match(annotations, /operators\.operatorframework\.io\.bundle\.channels\.v1: "alpha"/);
    }
  });
});
