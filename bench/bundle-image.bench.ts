// What reading a bundle image costs the console (lib/server/bundle-images): the first read of an
// image (the token flow, the manifest, the layer over HTTPS, its digest checked, gzip and tar
// read, the files written to the cache folder), a read of the same digest by a process that has
// it only on disk, and a read from memory. The registry is the tests' own on loopback
// (lib/server/testing/oci-images.ts), so a real registry's round trips come on top of the first
// read; the bundle is a demo bundle's objects padded with a CRD schema to a published bundle's
// size (a few hundred KB of YAML). Then the same read as a person on the sandbox, through a
// registry that wants credentials: the first read (the cluster's mirror rules, image configuration,
// the CatalogSource and its pull secret read with the person's client, a token asked for with the
// secret's credentials), and a cached read, where the person's right to that secret is checked
// again (one `get secret`) before the bundle is handed over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mkdirSync } from 'node:fs';
import { SECRET_TYPE } from '../lib/k8s/core-kinds';
import { CATALOG_SOURCE_TYPE } from '../lib/olm/resources/catalog-source';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs } from '../lib/server/testing/cluster';
import { forgetBundlesInMemory } from '../lib/server/bundle-images/bundle-cache';
import { readBundleImage } from '../lib/server/bundle-images/bundle-image';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from '../lib/server/bundle-images/pull-settings';
import { gzipLayer, imageOf, startTestRegistry, type TestRegistry } from '../lib/server/testing/oci-images';
import type { PullAccess } from '../lib/server/bundle-images/pull-access';
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

  mkdirSync(join(dir, 'private'));
  const privateReg: TestRegistry = await startTestRegistry(join(dir, 'private'), {
    token: 'anonymous',
    credentials: { username: 'bench', password: 'bench-password' },
  });
  settings.ca.push(privateReg.caPem);
  settings.privateRegistries.add(privateReg.host);
  const images: string[] = [];
  const privateImages: string[] = [];
  let bytes = 0;
  // Twice as many images: the second half, behind credentials, must not be in the cache already.
  for (let i = 0; i < 2 * RUNS; i++) {
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
    if (i < RUNS) {
      registry.add('bench/bundle', image);
      images.push(`${registry.host}/bench/bundle@${image.digest}`);
    } else {
      privateReg.add('bench/private', image);
      privateImages.push(`${privateReg.host}/bench/private@${image.digest}`);
    }
  }

  const timed = async (image: string, access?: PullAccess) => {
    // A full collection first, so that one read does not pay for the garbage of the ones before.
    gc();
    const t0 = performance.now();
    await readBundleImage(image, settings, access);
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

  const sb = await withSandbox({ demo: false });
  const admin = clientAs(sb, 'admin');
  const auth = Buffer.from('bench:bench-password').toString('base64');
  await admin.create(SECRET_TYPE, {
    metadata: { name: 'pull', namespace: 'team1' },
    type: 'kubernetes.io/dockerconfigjson',
    data: {
      '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [privateReg.host]: { auth } } })).toString('base64'),
    },
  });
  await admin.create(CATALOG_SOURCE_TYPE, {
    metadata: { name: 'private', namespace: 'team1' },
    spec: { sourceType: 'grpc', address: '127.0.0.1:1', secrets: ['pull'] },
  });
  const access: PullAccess = {
    client: clientAs(sb, 'alice'),
    catalog: { kind: 'CatalogSource', namespace: 'team1', name: 'private' },
  };
  const withSecret: number[] = [];
  const cachedWithSecret: number[] = [];
  for (const image of privateImages) withSecret.push(await timed(image, access));
  for (const image of privateImages) cachedWithSecret.push(await timed(image, access));
  console.log(
    `first read as a person with a pull secret (cluster configuration, secret, Basic token): median ` +
      `${fmt(median(withSecret))} ms`,
  );
  console.log(`cached read as that person (the secret checked again): median ${fmt(median(cachedWithSecret), 2)} ms`);
  await sb.close();
  await privateReg.close();
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
