// An image's manifest, as a pull picks it: asked by tag or digest with the Docker v2 schema 2 and
// OCI media types accepted; an image index (or Docker manifest list) resolved to its linux/amd64
// manifest, or to its only one. Docker schema 1, deprecated and signed differently, is refused:
// bundle images are built with schema 2 or OCI.
// Every manifest is checked against its digest: the one the reference names, else the one the
// registry states (Docker-Content-Digest), so a tag's answer is pinned to what was read.
import { checkDigest, sha256Digest } from './digest';
import { referenceText, type ImageReference } from './image-reference';
import type { PullLimits } from './pull-settings';
import { RegistryError } from './registry-http';
import type { RepositoryClient } from './repository-client';

export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const ACCEPT = [OCI_INDEX, DOCKER_LIST, OCI_MANIFEST, DOCKER_MANIFEST].join(', ');

export const GZIP_LAYERS = new Set([
  'application/vnd.docker.image.rootfs.diff.tar.gzip',
  'application/vnd.oci.image.layer.v1.tar+gzip',
]);
export const TAR_LAYERS = new Set(['application/vnd.oci.image.layer.v1.tar']);
/** Expanded with fzstd under the same ceilings (zstd-layer.ts). */
export const ZSTD_LAYERS = new Set(['application/vnd.oci.image.layer.v1.tar+zstd']);

const DIGEST = /^sha256:[a-f0-9]{64}$/;

export interface Layer {
  digest: string;
  size: number;
  mediaType: string;
}

export interface ImageManifest {
  /** The digest of what the reference names (the index, when it names one). */
  digest: string;
  layers: Layer[];
}

type Descriptor = { mediaType?: unknown; digest?: unknown; size?: unknown; platform?: unknown };

function parse(bytes: Buffer, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new RegistryError(`${what} is not a JSON object`);
}

function headerText(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

async function fetchManifest(
  client: RepositoryClient,
  reference: string,
  what: string,
  limits: PullLimits,
  expected?: string,
): Promise<{ digest: string; body: Record<string, unknown>; mediaType: string }> {
  const answer = await client.get(`manifests/${reference}`, what, limits.manifestBytes, ACCEPT);
  const stated = headerText(answer.headers['docker-content-digest']);
  const want = expected ?? (stated && DIGEST.test(stated) ? stated : undefined);
  if (want) checkDigest(what, answer.body, want);
  const body = parse(answer.body, what);
  const contentType = headerText(answer.headers['content-type'])?.split(';')[0]?.trim();
  const mediaType =
    typeof body.mediaType === 'string'
      ? body.mediaType
      : Array.isArray(body.manifests)
        ? OCI_INDEX
        : Array.isArray(body.layers)
          ? OCI_MANIFEST
          : (contentType ?? '');
  if (body.schemaVersion !== 2)
    throw new RegistryError(`${what} is schema version ${String(body.schemaVersion)}; only version 2 is read`);
  return { digest: want ?? sha256Digest(answer.body), body, mediaType };
}

const platformOf = (d: Descriptor) => {
  const p = (typeof d.platform === 'object' && d.platform ? d.platform : {}) as Record<string, unknown>;
  return `${String(p.os ?? '?')}/${String(p.architecture ?? '?')}`;
};

function layersOf(body: Record<string, unknown>, what: string, limits: PullLimits): Layer[] {
  if (!Array.isArray(body.layers)) throw new RegistryError(`${what} lists no layers`);
  if (body.layers.length > limits.layers)
    throw new RegistryError(`${what} has ${body.layers.length} layers, over the limit of ${limits.layers}`);
  return (body.layers as Descriptor[]).map((l, i) => {
    if (typeof l.digest !== 'string' || !DIGEST.test(l.digest))
      throw new RegistryError(`${what}: layer ${i + 1} has no sha256 digest`);
    if (typeof l.size !== 'number' || !Number.isSafeInteger(l.size) || l.size < 0)
      throw new RegistryError(`${what}: layer ${i + 1} has no size`);
    if (l.size > limits.layerBytes)
      throw new RegistryError(`${what}: layer ${l.digest} is ${l.size} bytes, over the limit of ${limits.layerBytes}`);
    const mediaType = typeof l.mediaType === 'string' ? l.mediaType : '';
    if (!GZIP_LAYERS.has(mediaType) && !TAR_LAYERS.has(mediaType) && !ZSTD_LAYERS.has(mediaType))
      throw new RegistryError(
        `${what}: layer ${l.digest} is ${mediaType || 'of no media type'}; only tar layers, plain, gzipped or zstd, are read`,
      );
    return { digest: l.digest, size: l.size, mediaType };
  });
}

/** The manifest `ref` names, resolved to one platform's, with its layers checked for form and size. */
export async function readImageManifest(
  client: RepositoryClient,
  ref: ImageReference,
  limits: PullLimits,
): Promise<ImageManifest> {
  const what = `the manifest of ${referenceText(ref)}`;
  const top = await fetchManifest(client, ref.digest ?? ref.tag!, what, limits, ref.digest);
  if (top.mediaType === DOCKER_MANIFEST || top.mediaType === OCI_MANIFEST)
    return { digest: top.digest, layers: layersOf(top.body, what, limits) };
  if (top.mediaType !== OCI_INDEX && top.mediaType !== DOCKER_LIST)
    throw new RegistryError(`${what} is ${top.mediaType || 'of no media type'}, not an image manifest or index`);
  const entries = (Array.isArray(top.body.manifests) ? top.body.manifests : []) as Descriptor[];
  const chosen = entries.length === 1 ? entries[0] : entries.find((d) => platformOf(d) === 'linux/amd64');
  if (!chosen)
    throw new RegistryError(
      `${what} is an index with no linux/amd64 image (it has ${entries.map(platformOf).join(', ') || 'none'})`,
    );
  if (typeof chosen.digest !== 'string' || !DIGEST.test(chosen.digest))
    throw new RegistryError(`${what}: its chosen entry has no sha256 digest`);
  const childWhat = `the ${platformOf(chosen)} manifest of ${referenceText(ref)}`;
  const child = await fetchManifest(client, chosen.digest, childWhat, limits, chosen.digest);
  if (child.mediaType !== DOCKER_MANIFEST && child.mediaType !== OCI_MANIFEST)
    throw new RegistryError(`${childWhat} is ${child.mediaType || 'of no media type'}, not an image manifest`);
  return { digest: top.digest, layers: layersOf(child.body, childWhat, limits) };
}
