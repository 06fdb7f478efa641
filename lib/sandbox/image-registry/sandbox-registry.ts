// The sandbox's image registry as the sandbox starts it: listening (on the port the last start
// had, when it is free, so the references a console read stay valid), known to the OLM emulations
// (bundle-store.ts), holding the bundle images of the catalogs it serves (publish-catalog.ts).
import { join } from 'node:path';
import { DEMO_CATALOG_DIR } from '../demo-catalog/location';
import { registerImageRegistry } from './bundle-store';
import { publishCatalog, publishedDir } from './publish-catalog';
import { loadRegistryCredentials } from './pull-secret';
import { RegistryAuth } from './registry-auth';
import { startImageRegistry, type ImageRegistry } from './registry-server';

/**
 * The repository that needs credentials, as a vendor's private repository: GPU Forge's bundle, a
 * demo operator sold with a subscription (`operators.openshift.io/valid-subscription`) that OLM v1
 * can install (no dependencies), so the v1 wizard reads it and needs the pull secret to.
 */
export const PROTECTED_REPOSITORY = 'demo/gpu-forge-bundle';
/** Where the demo catalog's bundle images are. */
export const DEMO_REPOSITORY_PREFIX = 'demo';
/** Where the images made for a --catalog folder's image-only bundles are, as the real cluster's. */
export const CATALOG_REPOSITORY_PREFIX = 'bundles';

export interface SandboxRegistry {
  registry: ImageRegistry;
  /** The --catalog folders to serve, each the published copy or the folder itself, in order. */
  catalogDirs: string[];
  /** The demo catalog folder to serve (the image-only copy, or the inline original). */
  demoDir: string;
  stop(): Promise<void>;
}

export async function startSandboxRegistry(opts: {
  /** The kubeconfig's folder: the credentials and the published copies go there. */
  dir: string;
  tls: { key: string; cert: string };
  host: string;
  port: number;
  catalogs: readonly string[];
  demo: boolean;
  /**
   * Publish the catalogs' bundles in images: the demo catalog image-only, a --catalog folder's
   * image-only bundles with derived images. Off, every folder is served as it is.
   */
  bundleImages: boolean;
  /**
   * Catalog folders served with every bundle by image only, whatever `bundleImages` says, as the
   * real cluster's `--image-catalog` (conformance compares OLM v0's unpack on one).
   */
  imageCatalogs?: readonly string[];
}): Promise<SandboxRegistry> {
  const credentials = loadRegistryCredentials(join(opts.dir, 'registry-credentials.json'));
  const registry = await startImageRegistry({
    tls: opts.tls,
    auth: new RegistryAuth(PROTECTED_REPOSITORY, credentials),
    host: opts.host,
    port: opts.port,
  });
  const unregister = registerImageRegistry(registry);
  const root = join(opts.dir, 'published-catalogs');
  try {
    const catalogDirs: string[] = [];
    for (const c of opts.catalogs) {
      if (!opts.bundleImages) {
        catalogDirs.push(c);
        continue;
      }
      const p = await publishCatalog(c, publishedDir(root, c), registry, {
        imageOnly: false,
        repositoryPrefix: CATALOG_REPOSITORY_PREFIX,
      });
      catalogDirs.push(p.dir);
    }
    for (const c of opts.imageCatalogs ?? []) {
      const p = await publishCatalog(c, publishedDir(root, c), registry, {
        imageOnly: true,
        repositoryPrefix: CATALOG_REPOSITORY_PREFIX,
      });
      catalogDirs.push(p.dir);
    }
    let demoDir = DEMO_CATALOG_DIR;
    if (opts.demo && opts.bundleImages)
      demoDir = (
        await publishCatalog(DEMO_CATALOG_DIR, join(root, 'demo', 'catalog'), registry, {
          imageOnly: true,
          repositoryPrefix: DEMO_REPOSITORY_PREFIX,
        })
      ).dir;
    return {
      registry,
      catalogDirs,
      demoDir,
      stop: async () => {
        unregister();
        await registry.stop();
      },
    };
  } catch (err) {
    unregister();
    await registry.stop();
    throw err;
  }
}
