// Bundle images whose layers are zstd-compressed (`application/vnd.oci.image.layer.v1.tar+zstd`,
// what `buildah push --compression-format zstd` and podman write), served by a registry of the
// test's own (lib/server/testing/oci-images.ts) and compressed at test time by the zstd program
// (Debian's `zstd` package; fzstd, the console's decoder, has no encoder): read as a gzip layer
// is; one that expands past the limit stops there; a frame asking for a window past the console's
// ceiling (`zstd --long=27`, 128 MiB) is refused before anything is decoded; nothing refused is
// cached.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { imageOf, sha, startTestRegistry, tarOf, type Entry, type TestRegistry } from '../testing/oci-images';
import { readBundleImage } from './bundle-image';
import { forgetBundlesInMemory } from './bundle-cache';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullLimits, type PullSettings } from './pull-settings';

const ANNOTATIONS = 'annotations:\n  operators.operatorframework.io.bundle.package.v1: kube-green\n';
const CSV =
  'apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: kube-green.v0.7.1\n';
const ZSTD = 'application/vnd.oci.image.layer.v1.tar+zstd';

const noZstd = spawnSync('zstd', ['--version']).error ? 'the zstd program is not installed (apt-get install zstd)' : '';

function zstd(input: Buffer, ...args: string[]): Buffer {
  const r = spawnSync('zstd', ['-q', '-c', ...args], { input, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`zstd failed: ${r.stderr.toString()}`);
  return r.stdout;
}

const zstdLayer = async (entries: readonly Entry[], ...args: string[]) => zstd(await tarOf(entries), ...args);

/** An OCI image over these zstd layers. */
function zstdImage(layers: readonly Buffer[]) {
  const image = imageOf(layers);
  const manifest = Buffer.from(
    image.manifest.toString().replaceAll('application/vnd.oci.image.layer.v1.tar+gzip', ZSTD),
  );
  return { ...image, manifest, digest: sha(manifest) };
}

const dir = mkdtempSync(join(tmpdir(), 'zstd-layer-test-'));
let registry: TestRegistry;
let cacheDir: string;

function settings(limits: Partial<PullLimits> = {}): PullSettings {
  return {
    ca: [registry.caPem],
    privateRegistries: new Set([registry.host]),
    limits: { ...DEFAULT_LIMITS, ...limits },
    cacheDir,
    cacheBytes: DEFAULT_CACHE_BYTES,
  };
}

const cached = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.endsWith('.json')) : []);

describe('a bundle image with zstd layers', { skip: noZstd || false }, () => {
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
  });

  test('is read as a gzipped one is, a later layer over an earlier one', async () => {
    const base = await zstdLayer(
      [
        { name: 'manifests/kube-green.clusterserviceversion.yaml', content: 'old' },
        { name: 'metadata/annotations.yaml', content: ANNOTATIONS },
      ],
      '-19',
    );
    const top = await zstdLayer([{ name: 'manifests/kube-green.clusterserviceversion.yaml', content: CSV }]);
    const image = zstdImage([base, top]);
    registry.add('bundles/zstd', image);
    const read = await readBundleImage(`${registry.host}/bundles/zstd@${image.digest}`, settings());
    assert.equal(read.digest, image.digest);
    assert.deepEqual(Object.fromEntries(read.files), {
      'manifests/kube-green.clusterserviceversion.yaml': CSV,
      'metadata/annotations.yaml': ANNOTATIONS,
    });
  });

  test('a small layer that expands past the limit is refused at the limit', async () => {
    const bomb = await zstdLayer([{ name: 'manifests/zeros.yaml', content: '0'.repeat(48 << 20) }]);
    assert.ok(bomb.length < 64 * 1024, `the bomb is small: ${bomb.length}`);
    const image = zstdImage([bomb]);
    registry.add('bundles/zstd-bomb', image);
    const heap = process.memoryUsage().arrayBuffers;
    await assert.rejects(
      readBundleImage(`${registry.host}/bundles/zstd-bomb@${image.digest}`, settings({ expandedBytes: 1 << 20 })),
      new RegExp(`layer ${sha(bomb)} expands past the limit of 1048576 bytes`),
    );
    // Stopped while expanding: what it holds stays near the limit, far below the 48 MiB inside.
    assert.ok(process.memoryUsage().arrayBuffers - heap < 16 << 20);
    assert.deepEqual(cached(), []);
  });

  test("a frame whose window passes the console's ceiling is refused before it is decoded", async () => {
    const wide = await zstdLayer([{ name: 'manifests/csv.yaml', content: CSV }], '--long=27');
    const image = zstdImage([wide]);
    registry.add('bundles/zstd-wide', image);
    await assert.rejects(
      readBundleImage(`${registry.host}/bundles/zstd-wide@${image.digest}`, settings()),
      new RegExp(
        `layer ${sha(wide)} is not a zstd stream read here: a frame's window is 134217728 bytes, more than the ` +
          '8388608 this console decodes',
      ),
    );
    assert.deepEqual(cached(), []);
  });

  test('bytes that are not zstd are refused', async () => {
    const junk = Buffer.from('this is not zstd at all');
    const image = zstdImage([junk]);
    registry.add('bundles/zstd-junk', image);
    await assert.rejects(
      readBundleImage(`${registry.host}/bundles/zstd-junk@${image.digest}`, settings()),
      new RegExp(`layer ${sha(junk)} is not a zstd stream read here: no zstd frame starts at byte 0`),
    );
    assert.deepEqual(cached(), []);
  });
});
