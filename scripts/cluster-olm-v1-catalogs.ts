// OLM v1 installs a bundle only from its image (operator-controller pulls and unpacks it; there is
// no inline form). So for `--olm-v1` each catalog's bundles become images in the cluster's
// registry: the manifests its inline copy carries (scripts/cluster-catalogs.ts: the bundle's own
// objects, or the CSV and CRDs the sandbox derives from olm.csv.metadata) laid out as a
// registry+v1 bundle (manifests/, metadata/annotations.yaml) and pushed with `registry
// push-bundle`; the catalog image pushed for catalogd is the inline copy with each bundle's
// `image` naming its pushed digest and its inline objects left out. Bundles the catalog gives
// only by image have no manifests here and keep their original `image` (not installable yet).
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '../lib/olm/fbc/types';

type Blob = Record<string, unknown> & {
  schema?: string;
  name?: string;
  package?: string;
  image?: string;
  properties?: { type?: string; value?: { data?: string } }[];
};

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? jsonFiles(p) : n.endsWith('.json') ? [p] : [];
    });
}

/** A file name for a manifest: its order, kind and name, as bundle folders usually have them. */
function manifestName(i: number, o: { kind?: string; metadata?: { name?: string } }): string {
  const safe = (s: string) => s.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
  return `${String(i).padStart(2, '0')}-${safe(o.kind ?? 'object')}-${safe(o.metadata?.name ?? String(i))}.json`;
}

/**
 * Writes into `out` a v1 copy of the inline copy at `inline`, pushing a bundle image per bundle
 * that carries objects (`push(dir, package, bundle)` returns the image reference to write).
 */
export async function renderV1Catalog(
  inline: string,
  out: string,
  push: (dir: string, pkg: string, bundle: string) => Promise<string>,
): Promise<{ dir: string; bundles: number }> {
  rmSync(out, { recursive: true, force: true });
  const bundleDirs = join(out, '..', `${out.split('/').pop()}.bundles`);
  rmSync(bundleDirs, { recursive: true, force: true });
  const blobsByFile = jsonFiles(inline).map((f) => ({
    f,
    blobs: readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Blob),
  }));
  // The channels each bundle is in, for its annotations.
  const channels = new Map<string, string[]>();
  for (const { blobs } of blobsByFile) {
    for (const b of blobs) {
      if (b.schema !== 'olm.channel') continue;
      for (const e of (b.entries as { name: string }[] | undefined) ?? []) {
        const k = `${b.package}/${e.name}`;
        channels.set(k, [...(channels.get(k) ?? []), String(b.name)]);
      }
    }
  }
  let bundles = 0;
  for (const { f, blobs } of blobsByFile) {
    const written: Blob[] = [];
    for (const b of blobs) {
      if (b.schema !== SCHEMA_BUNDLE) {
        written.push(b);
        continue;
      }
      const objects = (b.properties ?? []).filter((p) => p.type === PROPERTY_BUNDLE_OBJECT && p.value?.data);
      if (!objects.length) {
        written.push(b);
        continue;
      }
      const pkg = String(b.package);
      const name = String(b.name);
      const dir = join(bundleDirs, name);
      mkdirSync(join(dir, 'manifests'), { recursive: true });
      mkdirSync(join(dir, 'metadata'), { recursive: true });
      objects.forEach((p, i) => {
        const text = Buffer.from(p.value!.data!, 'base64').toString();
        writeFileSync(join(dir, 'manifests', manifestName(i, JSON.parse(text) as { kind?: string })), text);
      });
      const chans = channels.get(`${pkg}/${name}`) ?? [];
      writeFileSync(
        join(dir, 'metadata', 'annotations.yaml'),
        [
          'annotations:',
          '  operators.operatorframework.io.bundle.mediatype.v1: registry+v1',
          '  operators.operatorframework.io.bundle.manifests.v1: manifests/',
          '  operators.operatorframework.io.bundle.metadata.v1: metadata/',
          `  operators.operatorframework.io.bundle.package.v1: ${JSON.stringify(pkg)}`,
          ...(chans.length
            ? [`  operators.operatorframework.io.bundle.channels.v1: ${JSON.stringify(chans.join(','))}`]
            : []),
          '',
        ].join('\n'),
      );
      bundles++;
      const properties = (b.properties ?? []).filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT);
      written.push({ ...b, image: await push(dir, pkg, name), properties });
    }
    const target = join(out, f.slice(inline.length + 1));
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, written.map((b) => JSON.stringify(b)).join('\n') + '\n');
  }
  return { dir: out, bundles };
}
