// The bundle image reader against images the test builds, served by a registry of the test's own
// over HTTPS (lib/server/testing/oci-images.ts says why not the real cluster's alone): a bundle
// read whole through the token flow, an index and a whiteout; kept on disk by digest and not
// pulled again; and hostile images refused with the reason, leaving nothing in the cache.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, beforeEach, describe, test } from 'node:test';
import { gzipLayer, imageOf, indexOf, sha, startTestRegistry, type TestRegistry } from '../testing/oci-images';
import { BundleImageRefused, readBundleImage } from './bundle-image';
import { forgetBundlesInMemory } from './bundle-cache';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullLimits, type PullSettings } from './pull-settings';

const ANNOTATIONS = 'annotations:\n  operators.operatorframework.io.bundle.package.v1: kube-green\n';
const CSV =
  'apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: kube-green.v0.7.1\n';

const dir = mkdtempSync(join(tmpdir(), 'bundle-image-test-'));
let registry: TestRegistry;
let cacheDir: string;

function settings(over: { limits?: Partial<PullLimits>; privateRegistries?: string[] } = {}): PullSettings {
  return {
    ca: [registry.caPem],
    privateRegistries: new Set(over.privateRegistries ?? [registry.host]),
    limits: { ...DEFAULT_LIMITS, ...over.limits },
    cacheDir,
    cacheBytes: DEFAULT_CACHE_BYTES,
  };
}

const cached = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.endsWith('.json')) : []);

before(async () => {
  registry = await startTestRegistry(dir, { token: 'anonymous' });
});
after(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = mkdtempSync(join(dir, 'cache-'));
  forgetBundlesInMemory();
  registry.requests.length = 0;
});

describe('reading a bundle image', () => {
  test('through the token flow, an index resolved to linux/amd64, and later layers over earlier ones', async () => {
    const base = await gzipLayer([
      { name: 'manifests/', type: 'directory' },
      { name: 'manifests/kube-green.clusterserviceversion.yaml', content: 'old' },
      { name: 'manifests/stale.yaml', content: 'apiVersion: v1\nkind: ConfigMap\n' },
      { name: 'metadata/annotations.yaml', content: ANNOTATIONS },
      { name: 'etc/passwd', content: 'not read' },
    ]);
    const top = await gzipLayer([
      { name: './manifests/kube-green.clusterserviceversion.yaml', content: CSV },
      { name: 'manifests/.wh.stale.yaml', content: '' },
    ]);
    const amd64 = imageOf([base, top]);
    const arm64 = imageOf([await gzipLayer([{ name: 'manifests/other.yaml', content: 'x' }])]);
    const index = indexOf([
      { image: arm64, platform: 'linux/arm64' },
      { image: amd64, platform: 'linux/amd64' },
    ]);
    registry.add('bundles/kube-green', amd64);
    registry.add('bundles/kube-green', arm64);
    registry.add('bundles/kube-green', index, 'v0.7.1');

    const read = await readBundleImage(`${registry.host}/bundles/kube-green:v0.7.1`, settings());
    assert.equal(read.digest, index.digest);
    assert.deepEqual(Object.fromEntries(read.files), {
      'manifests/kube-green.clusterserviceversion.yaml': CSV,
      'metadata/annotations.yaml': ANNOTATIONS,
    });
    assert.ok(registry.requests.includes('GET /token'), registry.requests.join('\n'));
    assert.deepEqual(cached(), [`${index.digest.replace(':', '-')}.json`]);

    // By digest, a second read (another process: nothing in memory) is answered from the folder.
    forgetBundlesInMemory();
    registry.requests.length = 0;
    const again = await readBundleImage(`${registry.host}/bundles/kube-green@${index.digest}`, settings());
    assert.deepEqual(Object.fromEntries(again.files), Object.fromEntries(read.files));
    assert.deepEqual(registry.requests, []);
  });

  test('a Docker v2 schema 2 image by digest', async () => {
    const image = imageOf(
      [
        await gzipLayer([
          { name: 'manifests/csv.yaml', content: CSV },
          { name: 'metadata/annotations.yaml', content: ANNOTATIONS },
        ]),
      ],
      true,
    );
    registry.add('bundles/docker', image);
    const read = await readBundleImage(`${registry.host}/bundles/docker@${image.digest}`, settings());
    assert.deepEqual([...read.files.keys()].sort(), ['manifests/csv.yaml', 'metadata/annotations.yaml']);
  });
});

describe('a hostile image is refused with the reason, and nothing is cached', () => {
  const refused = async (ref: string, reason: RegExp, s = settings()) => {
    await assert.rejects(() => readBundleImage(ref, s), reason);
    assert.deepEqual(cached(), []);
  };

  test('a layer whose bytes are not its digest', async () => {
    const honest = await gzipLayer([{ name: 'manifests/csv.yaml', content: CSV }]);
    const image = imageOf([honest]);
    registry.add('bundles/lying', image);
    registry.blobs.set(sha(honest), await gzipLayer([{ name: 'manifests/csv.yaml', content: 'swapped' }]));
    await refused(
      `${registry.host}/bundles/lying@${image.digest}`,
      new RegExp(
        `layer ${sha(honest)} of .* does not match its digest: expected ${sha(honest)}, the registry sent sha256:`,
      ),
    );
  });

  test('a manifest whose bytes are not the digest asked for', async () => {
    const image = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: CSV }])]);
    const other = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: 'other' }])]);
    registry.add('bundles/swapped', other);
    registry.manifests.set(`bundles/swapped:${image.digest}`, {
      body: other.manifest,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
    });
    await refused(`${registry.host}/bundles/swapped@${image.digest}`, /does not match its digest/);
  });

  test('an entry that climbs out of the image root', async () => {
    const image = imageOf([await gzipLayer([{ name: 'manifests/../../etc/cron.d/x', content: 'boom' }])]);
    registry.add('bundles/traversal', image);
    await refused(
      `${registry.host}/bundles/traversal@${image.digest}`,
      /entry "manifests\/\.\.\/\.\.\/etc\/cron\.d\/x" leaves the image's root/,
    );
  });

  test('a symlink where a bundle file would be', async () => {
    const image = imageOf([
      await gzipLayer([{ name: 'manifests/csv.yaml', type: 'symlink', linkname: '/var/run/secrets/token' }]),
    ]);
    registry.add('bundles/symlink', image);
    await refused(
      `${registry.host}/bundles/symlink@${image.digest}`,
      /manifests\/csv\.yaml is a symlink; only regular files are read from a bundle/,
    );
  });

  test('a layer that expands past the limit (a gzip bomb)', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        await (
          await import('../testing/oci-images')
        ).tarOf([{ name: 'manifests/zeros.yaml', content: '0'.repeat(4 << 20) }]),
      ]),
    );
    assert.ok(bomb.length < 64 * 1024, `the bomb is small: ${bomb.length}`);
    const image = imageOf([bomb]);
    registry.add('bundles/bomb', image);
    await refused(
      `${registry.host}/bundles/bomb@${image.digest}`,
      new RegExp(`layer ${sha(bomb)} expands past the limit of 1048576 bytes`),
      settings({ limits: { expandedBytes: 1 << 20 } }),
    );
  });

  test('a layer larger than the limit is not downloaded', async () => {
    const big = await gzipLayer([
      {
        name: 'manifests/a.yaml',
        content: Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251)).toString('base64'),
      },
    ]);
    const image = imageOf([big]);
    registry.add('bundles/big', image);
    await refused(
      `${registry.host}/bundles/big@${image.digest}`,
      new RegExp(`layer ${sha(big)} is ${big.length} bytes, over the limit of 1024`),
      settings({ limits: { layerBytes: 1024 } }),
    );
    assert.ok(!registry.requests.includes(`GET /v2/bundles/big/blobs/${sha(big)}`), registry.requests.join('\n'));
  });

  test('a registry on a loopback address the console was not told to trust', async () => {
    const image = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: CSV }])]);
    registry.add('bundles/private', image);
    await refused(
      `${registry.host}/bundles/private@${image.digest}`,
      new RegExp(
        'registry 127\\.0\\.0\\.1:\\d+ resolves to 127\\.0\\.0\\.1, a loopback, private or link-local address, ' +
          'which the console dials only for registries named in OLM_CONSOLE_PRIVATE_REGISTRIES',
      ),
      settings({ privateRegistries: [] }),
    );
    assert.deepEqual(registry.requests, []);
  });

  test('a registry name that resolves to loopback is judged by the address it resolves to', async () => {
    const image = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: CSV }])]);
    registry.add('bundles/by-name', image);
    const byName = registry.host.replace('127.0.0.1', 'localhost');
    await refused(
      `${byName}/bundles/by-name@${image.digest}`,
      /registry localhost:\d+ resolves to (127\.0\.0\.1|::1), a loopback, private or link-local address/,
      settings({ privateRegistries: [] }),
    );
    assert.deepEqual(registry.requests, []);
    // Named by the console's operator, the same name is read; its token service, on another private
    // host (127.0.0.1), must be named too.
    const read = await readBundleImage(
      `${byName}/bundles/by-name@${image.digest}`,
      settings({ privateRegistries: [byName, registry.host] }),
    );
    assert.deepEqual([...read.files.keys()], ['manifests/csv.yaml']);
  });

  test('a link-local address (the cloud metadata service) is refused before any connection', async () => {
    await refused(
      '169.254.169.254/latest/meta-data:v1',
      /registry 169\.254\.169\.254 resolves to 169\.254\.169\.254, a loopback, private or link-local address/,
      settings({ privateRegistries: [] }),
    );
  });

  test('a reference that is not one', async () => {
    await assert.rejects(() => readBundleImage('quay.io/Bad Name@sha256:xyz', settings()), BundleImageRefused);
  });
});

describe('many pulls at once', () => {
  test('at most two pulls reach registries at a time; the others wait their turn and are read', async () => {
    mkdirSync(join(dir, 'slow'));
    const slow = await startTestRegistry(join(dir, 'slow'), { delayMs: 50 });
    try {
      const refs: string[] = [];
      for (let i = 0; i < 6; i++) {
        const image = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: `${CSV}# ${i}\n` }])]);
        slow.add('bundles/many', image);
        refs.push(`${slow.host}/bundles/many@${image.digest}`);
      }
      const s = { ...settings({ privateRegistries: [slow.host] }), ca: [slow.caPem] };
      const read = await Promise.all(refs.map((r) => readBundleImage(r, s)));
      assert.equal(read.length, 6);
      assert.equal(slow.mostAtOnce(), 2);
    } finally {
      await slow.close();
    }
  });
});

describe('the token flow', () => {
  test('a token service that refuses anonymous pulls means the image needs credentials', async () => {
    mkdirSync(join(dir, 'refusing'));
    const refusing = await startTestRegistry(join(dir, 'refusing'), { token: 'refused' });
    try {
      const image = imageOf([await gzipLayer([{ name: 'manifests/csv.yaml', content: CSV }])]);
      refusing.add('bundles/secret', image);
      await assert.rejects(
        () =>
          readBundleImage(`${refusing.host}/bundles/secret@${image.digest}`, {
            ...settings({ privateRegistries: [refusing.host] }),
            ca: [refusing.caPem],
          }),
        new RegExp(
          `${refusing.host.replace(/\./g, '\\.')} gives no anonymous pull token for bundles/secret \\(401\\): ` +
            'the image needs credentials, and no pull secret was read \\(the console reads them only as the person asking\\)',
        ),
      );
    } finally {
      await refusing.close();
    }
  });
});
