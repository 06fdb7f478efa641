// What the sandbox's OLM emulations read when a bundle is given by image: the image's own files,
// from the sandbox's registry, read as OLM reads an unpacked bundle (lib/olm/bundle/
// registry-v1-files.ts: metadata/annotations.yaml, then manifests/). OLM v0 unpacks the image in a
// Job and operator-controller pulls it; the sandbox, which has neither pods that run images nor a
// reason to pull from itself over the network, reads the same bytes from the registry's memory.
// Only images the sandbox's own registries hold are read: any other image is not pullable here,
// and the emulations fall back to what the catalog says of the bundle (install-steps.ts).
import { readRegistryV1Files } from '../../olm/bundle/registry-v1-files';
import type { KObject } from '../store/types';
import type { ImageRegistry } from './registry-server';

const REGISTRIES = Symbol.for('olm-console.sandbox-image-registries');
const g = globalThis as { [REGISTRIES]?: Set<ImageRegistry> };
const registries: Set<ImageRegistry> = (g[REGISTRIES] ??= new Set());

/** Read objects by image digest: an image's content never changes. */
const read = new Map<string, KObject[] | { error: string }>();

export function registerImageRegistry(r: ImageRegistry): () => void {
  registries.add(r);
  return () => registries.delete(r);
}

/**
 * The objects of the bundle image `image` (its CSV first, then the other manifests in file
 * order), when a sandbox registry of this process holds it; `error` when the image is not a
 * bundle OLM can read; undefined when no sandbox registry has it.
 */
export function sandboxBundleImage(image: string | undefined): KObject[] | { error: string } | undefined {
  if (!image) return undefined;
  for (const r of registries) {
    const built = r.imageFor(image);
    if (!built) continue;
    let objects = read.get(built.digest);
    if (!objects) {
      const bundle = readRegistryV1Files(built.files);
      objects = 'error' in bundle ? bundle : ([bundle.csv, ...bundle.others] as unknown as KObject[]);
      read.set(built.digest, objects);
    }
    return 'error' in objects ? objects : structuredClone(objects);
  }
  return undefined;
}

/**
 * What a container runtime pulling `image` for a pod gets from the sandbox's registries: the
 * image's files, or why the pull fails (no registry of this process has it, or its repository
 * needs credentials that `auths` — a pull secret's `{host: {auth}}` — does not give).
 */
export function pullSandboxImage(
  image: string,
  auths: Record<string, { auth?: string }>,
): { digest: string; files: ReadonlyMap<string, string> } | { error: string } {
  for (const r of registries) {
    const built = r.imageFor(image);
    if (!built) continue;
    const repository = image.slice(r.host.length + 1, image.lastIndexOf('@'));
    const auth = auths[r.host]?.auth;
    if (!r.auth.pullAllowed(repository, auth ? `Basic ${auth}` : undefined))
      return { error: `failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized` };
    return { digest: built.digest, files: built.files };
  }
  return { error: `${image}: not found` };
}

/** Whether `image` names a registry of this process (held there or not): one the sandbox can pull from. */
export function onSandboxRegistry(image: string): boolean {
  return [...registries].some((r) => image.startsWith(`${r.host}/`));
}
