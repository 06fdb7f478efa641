// A catalog folder whose bundles are given by image, in a registry of the test's own
// (oci-images.ts), for the route tests of what the console reads from bundle images: the
// registry, its CA file and the folder are made in a temporary folder of the test's, before the
// sandbox reads its catalogs, and removed after; `pulls` sets whether the console pulls from it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { setBundlePulls } from './bundle-pulls';
import { startTestRegistry, type TestRegistry } from './oci-images';

export interface ImageCatalog {
  /** The catalog folder; the sandbox names its CatalogSource after it. */
  readonly dir: string;
  /** The registry (once the hooks have run). */
  readonly registry: TestRegistry;
  /** Turns the console's bundle image pulls on or off, trusting this registry and its CA. */
  pulls(on: boolean): void;
}

/**
 * Hooks for the `describe` that calls it, ahead of `routeSandbox` (so that its `before` runs
 * first: the registry listens and the catalog naming its images by host is written before the
 * sandbox reads the folder): a registry in a folder made with `tmpPrefix`, and the catalog folder
 * `name` filled by `write`. After, the registry is closed, the folder removed and pulls turned off.
 */
export function imageCatalog(
  tmpPrefix: string,
  name: string,
  write: (dir: string, registry: TestRegistry) => Promise<void>,
): ImageCatalog {
  const work = mkdtempSync(join(tmpdir(), tmpPrefix));
  const dir = join(work, name);
  const caFile = join(work, 'registry-ca.crt');
  let registry: TestRegistry | undefined;
  const started = (): TestRegistry => {
    if (!registry) throw new Error('the test registry is not started: use it in a test or a before hook');
    return registry;
  };
  before(async () => {
    registry = await startTestRegistry(work, { token: 'anonymous' });
    writeFileSync(caFile, registry.caPem);
    await write(dir, registry);
  });
  after(async () => {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
    delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
  });
  return {
    dir,
    get registry() {
      return started();
    },
    pulls: (on) => setBundlePulls(on, caFile, started().host),
  };
}
