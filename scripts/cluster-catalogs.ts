// How the real cluster's OLM v0 gets its bundles by default (README, "The real cluster"): each
// catalog is served by `opm serve` from a copy in which every bundle carries its manifests inline
// (`olm.bundle.object`: the CSV and CRDs the sandbox derives, bundleManifests) and names no image:
// opm then sends the bundle with an empty bundlePath and its objects, and OLM's resolver builds the
// InstallPlan's steps from them (step_resolver.go) instead of a bundle lookup, so no unpack Job
// runs. Everything else in the copy is the catalog's own blobs, unchanged. `--v0-bundles image`
// serves bundles by image instead, which OLM unpacks in its Jobs (scripts/cluster-image-catalogs.ts,
// scripts/cluster-unpack.ts); that copy starts from this one.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogFromBlobs } from '../lib/olm/fbc/catalog';
import { readFbcDir } from '../lib/olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '../lib/olm/fbc/types';
import { bundleManifests } from '../lib/sandbox/olm/install-steps';

// Bumped when the rendering changes, so copies made by an older one are made again.
const RENDERING = 1;

export interface RenderedCatalog {
  dir: string;
  bundles: number;
  /** Bundles whose manifests were made here rather than taken from the catalog. */
  derived: number;
  reused: boolean;
}

/** Writes the inline copy of the catalog at `source` into `out` (made again only when the source changed). */
export function renderInlineCatalog(source: string, out: string): RenderedCatalog {
  const loaded = readFbcDir(source);
  const hash = createHash('sha256').update(`rendering ${RENDERING}\n`);
  for (const b of loaded.blobs) hash.update(JSON.stringify(b.blob)).update('\n');
  const stamp = hash.digest('hex');
  // Beside the copy, not in it: opm reads every file of a catalog folder.
  const stampFile = `${out}.rendered`;
  const catalog = catalogFromBlobs(loaded.blobs, loaded.problems);
  let bundles = 0;
  let derived = 0;
  const files = new Map<string, string[]>();
  for (const { blob } of loaded.blobs) {
    let written = blob;
    const pkgName =
      typeof blob.package === 'string'
        ? blob.package
        : typeof blob.name === 'string' && blob.schema === 'olm.package'
          ? blob.name
          : '';
    if (blob.schema === SCHEMA_BUNDLE) {
      const pkg = catalog.model.packages.get(pkgName);
      const bundle = pkg?.bundles.get(String(blob.name));
      if (pkg && bundle) {
        bundles++;
        const manifests = bundleManifests(pkg, bundle);
        if (bundle.bundleObjectCount === 0) derived++;
        const properties = (Array.isArray(blob.properties) ? blob.properties : []).filter(
          (p: { type?: string }) => p?.type !== PROPERTY_BUNDLE_OBJECT,
        );
        for (const m of manifests)
          properties.push({
            type: PROPERTY_BUNDLE_OBJECT,
            value: { data: Buffer.from(JSON.stringify(m)).toString('base64') },
          });
        // No image: opm then sends an empty bundle path, and OLM installs from the inline objects.
        const rest = { ...blob };
        delete rest.image;
        written = { ...rest, properties };
      }
    }
    const file = pkgName ? `${pkgName}/catalog.json` : 'others.json';
    if (!files.has(file)) files.set(file, []);
    files.get(file)!.push(JSON.stringify(written));
  }
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)
    return { dir: out, bundles, derived, reused: true };
  rmSync(out, { recursive: true, force: true });
  for (const [file, lines] of files) {
    mkdirSync(join(out, file, '..'), { recursive: true });
    writeFileSync(join(out, file), lines.join('\n') + '\n');
  }
  writeFileSync(stampFile, stamp);
  return { dir: out, bundles, derived, reused: false };
}
