// A CatalogSource folder as published catalogs give bundles (olm.csv.metadata, no
// olm.bundle.object, an image), for the tests of what the console reads for them: the demo's
// cachely, each bundle kept with its image in a registry of the test's own (oci-images.ts) holding
// the demo bundle's objects. The registry's GetBundle answers for them with a CSV made from the
// metadata. `metadataOnlyCatalog` is the whole set-up of such a test: registry, folder, pull settings.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageCatalog, type ImageCatalog } from './image-catalog';
import { demoDocs, imageOnly, objectsOf } from './image-only-bundles';
import { gzipLayer, imageOf, type TestRegistry } from './oci-images';

export const METADATA_ONLY_BUNDLE = 'cachely.v0.9.2';

type Entry = { name: string; replaces?: string };

/**
 * Writes the folder `dir` (its CatalogSource is named for it) with cachely's `bundles` alone in
 * their channels, and adds their images to `registry`.
 */
export async function writeMetadataOnlyCatalog(
  dir: string,
  registry: TestRegistry,
  bundles: readonly string[] = [METADATA_ONLY_BUNDLE],
): Promise<void> {
  const docs = [];
  for (const d of demoDocs('cachely')) {
    if (d.schema === 'olm.channel') {
      const entries = (d.entries as Entry[]).filter((e) => bundles.includes(e.name));
      docs.push({
        ...d,
        entries: entries.map((e) => (e.replaces && !bundles.includes(e.replaces) ? { name: e.name } : e)),
      });
      continue;
    }
    if (d.schema !== 'olm.bundle') {
      docs.push(d);
      continue;
    }
    if (!bundles.includes(d.name!)) continue;
    const image = imageOf([
      await gzipLayer([
        ...objectsOf(d).map((o, i) => ({ name: `manifests/${i}.json`, content: JSON.stringify(o) })),
        {
          name: 'metadata/annotations.yaml',
          content: 'annotations:\n  operators.operatorframework.io.bundle.package.v1: cachely\n',
        },
      ]),
    ]);
    const repo = `bundles/${d.name!.replace(/\.v/, '-')}`.replaceAll('.', '-');
    registry.add(repo, image);
    docs.push(imageOnly(d, `${registry.host}/${repo}@${image.digest}`));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
}

/**
 * For a `describe`, ahead of `routeSandbox`: the CatalogSource metadata-only (image-catalog.ts), in a
 * temporary folder made with `tmpPrefix`, with cachely's `bundles` by image in a registry of its own.
 */
export const metadataOnlyCatalog = (tmpPrefix: string, bundles?: readonly string[]): ImageCatalog =>
  imageCatalog(tmpPrefix, 'metadata-only', (dir, registry) => writeMetadataOnlyCatalog(dir, registry, bundles));
