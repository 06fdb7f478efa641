// A bundle image's files, as OLM's unpacker sees them: the reference parsed, its manifest read
// (image-manifest.ts), each layer fetched, checked against its digest before it is expanded,
// and applied in order (layer-files.ts); the files under manifests/ and metadata/ as text. Read as
// one person (pull-access.ts): from the cluster's mirrors, then the source, with the pull secret
// that person may read for each registry. A bundle cached by digest (bundle-cache.ts) is handed
// to a person only when it was read anonymously or with a secret this person can get now;
// otherwise its manifest is asked for with this person's credentials, and the cached layers are
// used once the registry has answered. A reference by tag asks for its manifest each time, since
// a tag may move. Two reads of one image with the same sources and credentials share one pull.
import { checkDigest } from './digest';
import { cachedBundle, keepBundle, type BundleFiles, type ReadWith } from './bundle-cache';
import { GZIP_LAYERS, readImageManifest, ZSTD_LAYERS } from './image-manifest';
import { parseImageReference, referenceText, type ImageReference } from './image-reference';
import { applyLayer, expandLayer, LayerRefused, readLayerTar } from './layer-files';
import { planPull, type PlannedSource, type PullAccess } from './pull-access';
import type { PullSettings } from './pull-settings';
import { secretText, stillReadable } from './pull-secrets';
import { expandZstd } from './zstd-layer';
import { RepositoryClient } from './repository-client';
import { RegistryError } from './registry-http';
import { DigestMismatch } from './digest';

export class BundleImageRefused extends Error {}

export interface BundleImage {
  /** The digest of the image the reference names. */
  digest: string;
  files: BundleFiles;
}

/**
 * Pulls at once, per process. A pull holds a layer and its expansion in memory (up to the limits
 * of pull-settings.ts), and anyone who may open the install wizard can start one per bundle
 * version: more than this many wait their turn, so that many pages at once cannot exhaust the
 * console's memory.
 */
const PARALLEL_PULLS = 2;

interface Pulls {
  inFlight: Map<string, Promise<BundleImage>>;
  running: number;
  waiting: (() => void)[];
}
const PULLS = Symbol.for('olm-console.bundle-image-pulls');
const g = globalThis as { [PULLS]?: Pulls };
const pulls: Pulls = (g[PULLS] ??= { inFlight: new Map(), running: 0, waiting: [] });

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (pulls.running >= PARALLEL_PULLS) await new Promise<void>((res) => pulls.waiting.push(res));
  else pulls.running++;
  try {
    return await work();
  } finally {
    // The turn passes to the next waiting pull, or is given back.
    const next = pulls.waiting.shift();
    if (next) next();
    else pulls.running--;
  }
}

function readWithOf(source: PlannedSource): ReadWith {
  if (!source.auth) return { anonymous: true, secrets: [] };
  const { namespace, name, uid } = source.auth.secret;
  return { anonymous: false, secrets: [{ namespace, name, uid }] };
}

async function pullFrom(source: PlannedSource, settings: PullSettings): Promise<BundleImage> {
  const { ref } = source;
  const auth = source.auth ? { credential: source.auth.credential, from: secretText(source.auth.secret) } : undefined;
  const client = new RepositoryClient(ref, settings, auth, source.noAuthWhy);
  const manifest = await readImageManifest(client, ref, settings.limits);
  const how = readWithOf(source);
  // The registry has just let this person's credentials (or anyone) read the manifest: a bundle
  // cached under its digest may be handed over, and this way of reading it is recorded.
  const cached = await cachedBundle(manifest.digest, settings.cacheDir);
  if (cached) {
    await keepBundle(manifest.digest, cached.files, how, settings.cacheDir, settings.cacheBytes);
    return { digest: manifest.digest, files: cached.files };
  }
  const budget = { bytes: settings.limits.expandedBytes, entries: settings.limits.entries };
  const files = new Map<string, Buffer>();
  for (const layer of manifest.layers) {
    const what = `layer ${layer.digest} of ${referenceText(ref)}`;
    const blob = await client.get(`blobs/${layer.digest}`, what, settings.limits.layerBytes);
    checkDigest(what, blob.body, layer.digest);
    const tar = ZSTD_LAYERS.has(layer.mediaType)
      ? expandZstd(blob.body, layer.digest, budget, settings.limits)
      : await expandLayer(blob.body, GZIP_LAYERS.has(layer.mediaType), layer.digest, budget, settings.limits);
    applyLayer(files, await readLayerTar(tar, layer.digest, budget, settings.limits));
  }
  const text = new Map([...files].map(([p, b]) => [p, b.toString('utf8')] as const));
  await keepBundle(manifest.digest, text, how, settings.cacheDir, settings.cacheBytes);
  return { digest: manifest.digest, files: text };
}

/**
 * Whether a cached bundle may be handed to this person without asking a registry: read
 * anonymously, or with a secret the person can get now, the same one (uid). Without a person,
 * anonymous bundles only.
 */
async function mayServe(readWith: ReadWith, access: PullAccess | undefined): Promise<boolean> {
  if (readWith.anonymous) return true;
  if (!access) return false;
  for (const s of readWith.secrets) if (await stillReadable(access.client, s)) return true;
  return false;
}

/** The failures of one source that make a pull try the next one, as containers/image does. */
const sourceFailures = [RegistryError, DigestMismatch, LayerRefused];

/** The sources (each with each secret that applies) in order, the first that answers whole; else every reason. */
async function pullFromSources(ref: ImageReference, sources: PlannedSource[], settings: PullSettings) {
  if (!sources.length)
    throw new BundleImageRefused(
      `the cluster's mirror rules block ${referenceText(ref)} (NeverContactSource), and no mirror of theirs ` +
        `applies to a reference by ${ref.digest ? 'digest' : 'tag'}`,
    );
  const failed: string[] = [];
  for (const source of sources) {
    try {
      return await pullFrom(source, settings);
    } catch (err) {
      if (!sourceFailures.some((k) => err instanceof k)) throw err;
      if (sources.length === 1) throw err;
      const how = source.auth ? ` with secret ${secretText(source.auth.secret)}` : '';
      failed.push(
        `${source.mirror ? 'mirror' : 'source'} ${referenceText(source.ref)}${how}: ${(err as Error).message}`,
      );
    }
  }
  throw new RegistryError(`no mirror, source or secret gave it (${failed.join('; ')})`);
}

/**
 * The files of bundle image `image`, read as the person `access` names (or anonymously, from where
 * it is named, without one); throws with a reason a person can act on.
 */
export async function readBundleImage(
  image: string,
  settings: PullSettings,
  access?: PullAccess,
): Promise<BundleImage> {
  const ref = parseImageReference(image);
  if ('error' in ref) throw new BundleImageRefused(ref.error);
  if (ref.digest) {
    const cached = await cachedBundle(ref.digest, settings.cacheDir);
    if (cached && (await mayServe(cached.readWith, access))) return { digest: ref.digest, files: cached.files };
  }
  const plan = await planPull(ref, settings, access);
  const key = `${image}\0${plan.key}`;
  const running = pulls.inFlight.get(key);
  if (running) return running;
  const p = inTurn(() => pullFromSources(ref, plan.sources, plan.settings)).finally(() => pulls.inFlight.delete(key));
  pulls.inFlight.set(key, p);
  try {
    return await p;
  } catch (err) {
    // A new error of the same kind: the one caught may be shared by every reader of this pull.
    if (!plan.notes.length || !sourceFailures.some((k) => err instanceof k)) throw err;
    const Kind = (err as Error).constructor as new (m: string) => Error;
    throw new Kind(`${(err as Error).message} (${plan.notes.join('; ')})`);
  }
}
