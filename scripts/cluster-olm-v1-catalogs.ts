// OLM v1 installs a bundle only from its image (operator-controller pulls and unpacks it; there is
// no inline form). So for `--olm-v1` each catalog's bundles become images in the cluster's
// registry: the manifests its inline copy carries (scripts/cluster-catalogs.ts: the bundle's own
// objects, or the CSV and CRDs the sandbox derives from olm.csv.metadata) laid out as a
// registry+v1 bundle (manifests/, metadata/annotations.yaml) and pushed with `registry
// push-bundles`. Bundles given only by image with `olm.csv.metadata` (most published ones) thus
// become images of the same derived objects OLM v0 installs inline, derived once, by
// `bundleManifests`. The catalog image pushed for catalogd is the catalog's own blobs with each
// pushed bundle's `image` naming its digest. A bundle with neither objects nor `olm.csv.metadata`
// has no manifests to push and keeps its original `image`, which the cluster cannot pull.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFbcDir } from '../lib/olm/fbc/load-dir';
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
 * Writes into `out` the catalog image's folder for the catalog at `source`, pushing a bundle image
 * per bundle its inline copy (`inline`, scripts/cluster-catalogs.ts) gives objects for
 * (`pushAll` is given every bundle folder at once and returns the image reference to write for each).
 *
 * The folder is the source's own files, at the same paths and with the same blobs in the same
 * order, each blob re-written as JSON (YAML files as YAML documents of JSON), each pushed bundle's `image` naming its
 * image: catalogd serves the blobs in the order it walks the files, so its content API answers
 * with the catalog's own blobs as they are published. The objects derived for bundles given only
 * by image exist only in their bundle images, never in the catalog.
 */
export async function renderV1Catalog(
  source: string,
  inline: string,
  out: string,
  pushAll: (bundles: { dir: string; pkg: string; bundle: string }[]) => Promise<string[]>,
): Promise<{ dir: string; bundles: number }> {
  rmSync(out, { recursive: true, force: true });
  const bundleDirs = join(out, '..', `${out.split('/').pop()}.bundles`);
  rmSync(bundleDirs, { recursive: true, force: true });
  const inlineBlobs = jsonFiles(inline).flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Blob),
  );
  // The channels each bundle is in, for its annotations.
  const channels = new Map<string, string[]>();
  for (const b of inlineBlobs) {
    if (b.schema !== 'olm.channel') continue;
    for (const e of (b.entries as { name: string }[] | undefined) ?? []) {
      const k = `${b.package}/${e.name}`;
      channels.set(k, [...(channels.get(k) ?? []), String(b.name)]);
    }
  }
  const folders: { dir: string; pkg: string; bundle: string }[] = [];
  for (const b of inlineBlobs) {
    if (b.schema !== SCHEMA_BUNDLE) continue;
    const objects = (b.properties ?? []).filter((p) => p.type === PROPERTY_BUNDLE_OBJECT && p.value?.data);
    if (!objects.length) continue;
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
    folders.push({ dir, pkg, bundle: name });
  }
  const refs = await pushAll(folders);
  const images = new Map(folders.map((f, i) => [`${f.pkg}/${f.bundle}`, refs[i]!]));
  const files = new Map<string, string[]>();
  for (const { blob, origin } of readFbcDir(source).blobs) {
    const ref = blob.schema === SCHEMA_BUNDLE ? images.get(`${String(blob.package)}/${String(blob.name)}`) : undefined;
    if (!files.has(origin.file)) files.set(origin.file, []);
    files.get(origin.file)!.push(JSON.stringify(ref ? { ...blob, image: ref } : blob));
  }
  for (const [file, lines] of files) {
    mkdirSync(join(out, file, '..'), { recursive: true });
    // A YAML file stays YAML, one JSON document each: readers choose JSON or YAML by the first
    // character (operator-registry's YAMLOrJSON decoder), and a YAML file's blobs are converted
    // as YAML, as the published file's are.
    writeFileSync(
      join(out, file),
      /\.ya?ml$/i.test(file) ? lines.map((l) => `---\n${l}\n`).join('') : lines.join('\n') + '\n',
    );
  }
  return { dir: out, bundles: images.size };
}
