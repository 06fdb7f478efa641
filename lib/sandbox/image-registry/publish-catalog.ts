// A catalog folder published as real catalogs are: each bundle's content in an image of the
// sandbox's registry, the catalog naming that image by digest (docs/sandbox.md#bundle-images).
//
// - `imageOnly` (the demo catalog): every bundle becomes image-only, as `opm render` writes a
//   published bundle: its `olm.bundle.object`s leave the catalog for the image, and the catalog
//   keeps `olm.csv.metadata` (csv-metadata.ts) and an `image` naming the sandbox registry.
// - otherwise (`--catalog` folders): a bundle that already has its objects stays as written; one
//   given by image only gets an image made of what the real cluster derives for it
//   (scripts/cluster-catalogs.ts and cluster-olm-v1-catalogs.ts: bundleManifests, the CSV and CRDs
//   made from `olm.csv.metadata`), and its `image` names that image instead of the original,
//   which the sandbox cannot pull. A folder with no such bundle is served as it is.
//
// The image references name the registry's 127.0.0.1:PORT: the catalogs are written again at
// each start, since the port may change; the digests do not (bundle-image-layout.ts). The copy
// keeps the source's files and blob order (JSON lines; a YAML file stays YAML, one JSON document
// each, as cluster-olm-v1-catalogs.ts writes the real cluster's catalog images), and the folder
// keeps its name, which names the CatalogSource.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { catalogFromBlobs } from '../../olm/fbc/catalog';
import { readFbcDir } from '../../olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA, SCHEMA_BUNDLE } from '../../olm/fbc/types';
import { bundleManifests } from '../olm/install-steps';
import { buildBundleImage } from './bundle-image-layout';
import { csvMetadataOf } from './csv-metadata';
import type { ImageRegistry } from './registry-server';

export interface Published {
  /** The folder to serve: the copy, or the source when nothing in it needed an image. */
  dir: string;
  /** Bundle images made and added to the registry. */
  images: number;
}

type Blob = Record<string, unknown> & { properties?: { type?: string; value?: unknown }[] };

/** A repository path component from catalog content (hostile: only what registries allow). */
const component = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[._-]+$/g, '') || 'package';
const tagOf = (s: string) =>
  s
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[.-]+/, '')
    .slice(0, 128) || 'bundle';

/** Where the copy of `source` goes under `root`: its own folder, keeping the source's name. */
export function publishedDir(root: string, source: string): string {
  const id = createHash('sha256').update(resolve(source)).digest('hex').slice(0, 12);
  return join(root, id, basename(resolve(source)));
}

export async function publishCatalog(
  source: string,
  out: string,
  registry: ImageRegistry,
  opts: { imageOnly: boolean; repositoryPrefix: string },
): Promise<Published> {
  let loaded;
  try {
    loaded = readFbcDir(source);
  } catch {
    loaded = undefined;
  }
  // A folder that does not load is served as it is, so its problems are reported as they are.
  if (!loaded || loaded.problems.length) return { dir: source, images: 0 };
  const catalog = catalogFromBlobs(loaded.blobs, loaded.problems);
  const files = new Map<string, string[]>();
  let images = 0;
  for (const { blob, origin } of loaded.blobs) {
    let written: Blob = blob as Blob;
    if (blob.schema === SCHEMA_BUNDLE) {
      const pkg = catalog.model.packages.get(String(blob.package));
      const bundle = pkg?.bundles.get(String(blob.name));
      if (pkg && bundle && (opts.imageOnly || bundle.bundleObjectCount === 0)) {
        const manifests = bundleManifests(pkg, bundle);
        const csv = manifests.find((o) => o.kind === 'ClusterServiceVersion');
        if (csv) {
          const image = await buildBundleImage({
            packageName: pkg.name,
            channels: bundle.channels,
            ...(pkg.defaultChannel ? { defaultChannel: pkg.defaultChannel } : {}),
            objects: manifests,
          });
          const ref = registry.add(
            `${opts.repositoryPrefix}/${component(pkg.name)}-bundle`,
            image,
            tagOf(`v${bundle.version ?? bundle.name}`),
          );
          images++;
          const properties = (written.properties ?? []).filter((p) => p?.type !== PROPERTY_BUNDLE_OBJECT);
          if (!properties.some((p) => p?.type === PROPERTY_CSV_METADATA))
            properties.push({ type: PROPERTY_CSV_METADATA, value: csvMetadataOf(csv as Record<string, unknown>) });
          written = { ...written, image: ref, properties };
        }
      }
    }
    const file = origin.file;
    if (!files.has(file)) files.set(file, []);
    files.get(file)!.push(JSON.stringify(written));
  }
  if (!images) return { dir: source, images };
  rmSync(out, { recursive: true, force: true });
  for (const [file, lines] of files) {
    mkdirSync(join(out, file, '..'), { recursive: true });
    writeFileSync(
      join(out, file),
      /\.ya?ml$/i.test(file) ? lines.map((l) => `---\n${l}\n`).join('') : lines.join('\n') + '\n',
    );
  }
  return { dir: out, images };
}
