// A registry+v1 bundle image made from a bundle's objects, laid out as operator-sdk and opm lay
// one out (docs/olm-v1/bundle-images.md): `manifests/` with one YAML file per object, named as
// operator-sdk names them (`<package>.clusterserviceversion.yaml`, `<group>_<plural>.yaml` for a
// CRD, `<name>_<group>_<version>_<kind>.yaml` otherwise), and `metadata/annotations.yaml` with the
// package, channels and media type; the image config's labels are those annotations, as a bundle
// Dockerfile copies them. One gzipped layer, an OCI manifest.
//
// The bytes are a function of the objects alone (tar headers with time 0 and no owner, YAML with
// a fixed key order, gzip without a file name or time), so an image's digest is the same on every
// start of the sandbox: a digest a catalog or a console cache holds stays valid.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import yaml from 'js-yaml';
import { pack } from 'tar-stream';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
const OCI_GZIP_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

export const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export interface BuiltImage {
  digest: string;
  manifest: Buffer;
  mediaType: string;
  /** Digest → bytes: the config and the layer. */
  blobs: Map<string, Buffer>;
  /** The files of the image, as an unpacker sees them (path → text). */
  files: Map<string, string>;
}

export interface BundleContent {
  packageName: string;
  /** The channels the bundle is in (its annotations name them; the first is the default). */
  channels: readonly string[];
  defaultChannel?: string;
  objects: readonly { apiVersion?: string; kind?: string; metadata?: { name?: string }; spec?: unknown }[];
}

const safe = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'object';

/** operator-sdk's file name for an object of the bundle. */
function fileName(o: BundleContent['objects'][number], pkg: string): string {
  const name = o.metadata?.name ?? 'object';
  if (o.kind === 'ClusterServiceVersion') return `${safe(pkg)}.clusterserviceversion.yaml`;
  if (o.kind === 'CustomResourceDefinition') {
    const spec = (o.spec ?? {}) as { group?: string; names?: { plural?: string } };
    if (spec.group && spec.names?.plural) return `${safe(spec.group)}_${safe(spec.names.plural)}.yaml`;
  }
  const [group, version] = (o.apiVersion ?? 'v1').includes('/') ? o.apiVersion!.split('/') : ['', o.apiVersion];
  return `${safe(name)}_${group ? `${safe(group)}_` : ''}${safe(version ?? 'v1')}_${safe(o.kind ?? 'object')}.yaml`;
}

// Each object's keys in its own order, as operator-sdk writes them.
const dump = (o: unknown) => yaml.dump(o, { lineWidth: -1, noRefs: true });

/** The files of the bundle's image: manifests/ (one per object) and metadata/annotations.yaml. */
export function bundleFiles(b: BundleContent): Map<string, string> {
  const files = new Map<string, string>();
  for (const o of b.objects) {
    let path = `manifests/${fileName(o, b.packageName)}`;
    // Two objects that would share a name (two CRDs of one plural in different files, say) keep both.
    for (let i = 2; files.has(path); i++) path = path.replace(/(?:-\d+)?\.yaml$/, `-${i}.yaml`);
    files.set(path, dump(o));
  }
  files.set('metadata/annotations.yaml', dump({ annotations: bundleAnnotations(b) }));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function bundleAnnotations(b: BundleContent): Record<string, string> {
  return {
    'operators.operatorframework.io.bundle.mediatype.v1': 'registry+v1',
    'operators.operatorframework.io.bundle.manifests.v1': 'manifests/',
    'operators.operatorframework.io.bundle.metadata.v1': 'metadata/',
    'operators.operatorframework.io.bundle.package.v1': b.packageName,
    ...(b.channels.length ? { 'operators.operatorframework.io.bundle.channels.v1': b.channels.join(',') } : {}),
    ...(b.defaultChannel ? { 'operators.operatorframework.io.bundle.channel.default.v1': b.defaultChannel } : {}),
  };
}

const EPOCH = new Date(0);

async function tarOf(files: Map<string, string>): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const done = new Promise<void>((res, rej) => {
    p.on('end', () => res());
    p.on('error', rej);
  });
  const header = { mtime: EPOCH, uid: 0, gid: 0, uname: '', gname: '' };
  const dirs = new Set<string>();
  for (const path of files.keys()) dirs.add(path.slice(0, path.indexOf('/') + 1));
  for (const d of [...dirs].sort()) p.entry({ ...header, name: d, type: 'directory', mode: 0o755 });
  for (const [name, text] of files) p.entry({ ...header, name, type: 'file', mode: 0o644 }, Buffer.from(text));
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** The bundle as an image. */
export async function buildBundleImage(b: BundleContent): Promise<BuiltImage> {
  const files = bundleFiles(b);
  const tar = await tarOf(files);
  // Node's gzip writes no name and a zero time in its header: the same input, the same bytes.
  const layer = gzipSync(tar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Labels: bundleAnnotations(b) },
      rootfs: { type: 'layers', diff_ids: [sha256(tar)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: OCI_CONFIG, digest: sha256(config), size: config.length },
      layers: [{ mediaType: OCI_GZIP_LAYER, digest: sha256(layer), size: layer.length }],
    }),
  );
  return {
    digest: sha256(manifest),
    manifest,
    mediaType: OCI_MANIFEST,
    blobs: new Map([
      [sha256(config), config],
      [sha256(layer), layer],
    ]),
    files,
  };
}
