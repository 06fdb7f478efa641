// A bundle image's files, as OLM's unpacker sees them: the reference parsed, its manifest read
// (image-manifest.ts), each layer fetched, checked against its digest before it is expanded,
// and applied in order (layer-files.ts); the files under manifests/ and metadata/ as text. A
// reference by digest already cached is answered without a request (bundle-cache.ts); one by tag
// asks for its manifest each time, since a tag may move. Two reads of one image at once share
// one pull.
import { checkDigest } from './digest';
import { cachedBundle, keepBundle, type BundleFiles } from './bundle-cache';
import { GZIP_LAYERS, readImageManifest } from './image-manifest';
import { parseImageReference, referenceText, type ImageReference } from './image-reference';
import { applyLayer, expandLayer, readLayerTar } from './layer-files';
import type { PullSettings } from './pull-settings';
import { RepositoryClient } from './repository-client';

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

async function pull(image: string, settings: PullSettings): Promise<BundleImage> {
  const ref = parseImageReference(image);
  if ('error' in ref) throw new BundleImageRefused(ref.error);
  if (ref.digest) {
    const cached = await cachedBundle(ref.digest, settings.cacheDir);
    if (cached) return { digest: ref.digest, files: cached };
  }
  return inTurn(() => pullAfterCache(ref, settings));
}

async function pullAfterCache(ref: ImageReference, settings: PullSettings): Promise<BundleImage> {
  const client = new RepositoryClient(ref, settings);
  const manifest = await readImageManifest(client, ref, settings.limits);
  if (!ref.digest) {
    const cached = await cachedBundle(manifest.digest, settings.cacheDir);
    if (cached) return { digest: manifest.digest, files: cached };
  }
  const budget = { bytes: settings.limits.expandedBytes, entries: settings.limits.entries };
  const files = new Map<string, Buffer>();
  for (const layer of manifest.layers) {
    const what = `layer ${layer.digest} of ${referenceText(ref)}`;
    const blob = await client.get(`blobs/${layer.digest}`, what, settings.limits.layerBytes);
    checkDigest(what, blob.body, layer.digest);
    const tar = await expandLayer(blob.body, GZIP_LAYERS.has(layer.mediaType), layer.digest, budget, settings.limits);
    applyLayer(files, await readLayerTar(tar, layer.digest, budget, settings.limits));
  }
  const text = new Map([...files].map(([p, b]) => [p, b.toString('utf8')] as const));
  await keepBundle(manifest.digest, text, settings.cacheDir, settings.cacheBytes);
  return { digest: manifest.digest, files: text };
}

/** The files of bundle image `image`; throws with a reason a person can act on. */
export function readBundleImage(image: string, settings: PullSettings): Promise<BundleImage> {
  const running = pulls.inFlight.get(image);
  if (running) return running;
  const p = pull(image, settings).finally(() => pulls.inFlight.delete(image));
  pulls.inFlight.set(image, p);
  return p;
}
