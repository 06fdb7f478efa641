// What reading a bundle image costs the console (lib/server/bundle-images): the first read of an
// image (the token flow, the manifest, the layer over HTTPS, its digest checked, gzip and tar
// read, the files written to the cache folder), a read of the same digest by a process that has
// it only on disk, and a read from memory. The registry is the tests' own on loopback
// (lib/server/testing/oci-images.ts), so a real registry's round trips come on top of the first
// read; the bundle is a demo bundle's objects padded with a CRD schema to a published bundle's
// size (a few hundred KB of YAML).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { forgetBundlesInMemory } from '../lib/server/bundle-images/bundle-cache';
import { readBundleImage } from '../lib/server/bundle-images/bundle-image';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from '../lib/server/bundle-images/pull-settings';
import { gzipLayer, imageOf, startTestRegistry } from '../lib/server/testing/oci-images';
import { fmt, gc, median } from './support/measure';

const RUNS = 15;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-image-bench-'));
  const registry = await startTestRegistry(dir, { token: 'anonymous' });
  const settings: PullSettings = {
    ca: [registry.caPem],
    privateRegistries: new Set([registry.host]),
    limits: DEFAULT_LIMITS,
    cacheDir: join(dir, 'cache'),
    cacheBytes: DEFAULT_CACHE_BYTES,
  };

  // A CRD whose schema has 400 properties, about the size of a published operator's biggest.
  const properties = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [
      `field${i}`,
      { type: 'string', description: `Field ${i} of the resource, as an operator's CRD documents each one.` },
    ]),
  );
  const crd = JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'examples.bench.example.com' },
    spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties } } }] },
  });

  const images: string[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const files = [
      { name: 'metadata/annotations.yaml', content: `annotations:\n  bench.example.com/run: "${i}"\n` },
      {
        name: 'manifests/csv.yaml',
        content: 'apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n',
      },
      ...Array.from({ length: 6 }, (_, j) => ({ name: `manifests/crd-${j}.json`, content: crd })),
    ];
    bytes = files.reduce((n, f) => n + f.content.length, 0);
    const image = imageOf([await gzipLayer(files)]);
    registry.add('bench/bundle', image);
    images.push(`${registry.host}/bench/bundle@${image.digest}`);
  }

  const timed = async (image: string) => {
    // A full collection first, so that one read does not pay for the garbage of the ones before.
    gc();
    const t0 = performance.now();
    await readBundleImage(image, settings);
    return performance.now() - t0;
  };
  const first: number[] = [];
  const disk: number[] = [];
  const memory: number[] = [];
  for (const image of images) first.push(await timed(image));
  for (const image of images) {
    forgetBundlesInMemory();
    disk.push(await timed(image));
  }
  for (const image of images) memory.push(await timed(image));

  console.log(`bundle: ${fmt(bytes / 1024)} KB of manifests in one gzipped layer; ${RUNS} images`);
  console.log(`first read (token, manifest, layer, checks, cache write): median ${fmt(median(first))} ms`);
  console.log(`read from the cache folder (another process): median ${fmt(median(disk), 2)} ms`);
  console.log(`read from memory: median ${fmt(median(memory), 3)} ms`);
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
