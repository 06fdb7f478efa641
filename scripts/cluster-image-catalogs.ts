// `npm run cluster -- --v0-bundles image`: OLM v0's catalogs as published ones are, every bundle
// given by image only. Each bundle of the catalog's inline copy (scripts/cluster-catalogs.ts) is
// pushed to the cluster's registry as a registry+v1 bundle image (the same images OLM v1 installs
// from: scripts/cluster-olm-v1-catalogs.ts), the catalog's own blobs name those images by digest,
// and the real opm converts the bundles' objects to what published catalogs carry
// (`opm render --migrate-level bundle-object-to-csv-metadata`: olm.csv.metadata in place of every
// olm.bundle.object). opm then serves bundles with a bundle path and no objects, so OLM v0 unpacks
// each from its image in a Job (scripts/cluster-unpack.ts runs its pod).
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderV1Catalog } from './cluster-olm-v1-catalogs';
import type { Registry } from './cluster-registry';

const execFileAsync = promisify(execFile);

/**
 * Writes into `out` the image-only copy of the catalog at `source` (whose inline copy is `inline`),
 * after pushing its bundle images; answers how many bundles are given by image.
 */
export async function renderImageOnlyCatalog(
  source: string,
  inline: string,
  out: string,
  registry: Registry,
  opm: string,
): Promise<{ dir: string; bundles: number }> {
  // The catalog's blobs naming the pushed images, beside the copy (opm reads every file of a catalog folder).
  const named = await renderV1Catalog(source, inline, `${out}.named`, async (bundles) => {
    const refs = bundles.map((b) => ({ dir: b.dir, ref: registry.bundleRef(b.pkg, b.bundle) }));
    const digests = await registry.pushBundles(refs);
    return refs.map((r, i) => `${r.ref.slice(0, r.ref.lastIndexOf(':'))}@${digests[i]}`);
  });
  let rendered: string;
  try {
    ({ stdout: rendered } = await execFileAsync(
      opm,
      ['render', named.dir, '--migrate-level', 'bundle-object-to-csv-metadata', '-o', 'json'],
      { encoding: 'utf8', maxBuffer: 1 << 30 },
    ));
  } catch (err) {
    throw new Error(`opm render ${named.dir} failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'catalog.json'), rendered);
  return { dir: out, bundles: named.bundles };
}
