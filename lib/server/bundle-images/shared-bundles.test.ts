// Bundles read from images shared by replicas through the ConfigMaps catalog snapshots use, on the
// sandbox. A replica is the console's state: its memory (forgotten between "replicas" here, as a new
// process has none), its snapshot folder (each its own) and the shared store in the console's
// namespace (one per replica, sealed with the session key they share). The image is served by a
// registry of the test's own that wants credentials (lib/server/testing/oci-images.ts; the
// sandbox's registry counts no requests) and alice's CatalogSource names the pull secret; bob may
// not get it. The second replica gives alice the bundle without one registry request, and refuses
// bob as the first would; a copy whose chunk was changed is no copy, so the registry is asked.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SharedSnapshots } from '../../catalog/shared-snapshots';
import type { KubeClient } from '../../k8s/client';
import { CONFIG_MAP_TYPE, SECRET_TYPE } from '../../k8s/core-kinds';
import { CATALOG_SOURCE_TYPE } from '../../olm/resources/catalog-source';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, ensureNamespace } from '../testing/cluster';
import { gzipLayer, imageOf, startTestRegistry, type TestImage, type TestRegistry } from '../testing/oci-images';
import { forgetBundlesInMemory } from './bundle-cache';
import { bundleManifests, type BundleManifests } from './bundle-manifests';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from './pull-settings';
import { SHARED_BUNDLE_BYTES, shareBundles } from './shared-bundles';

const USER = { username: 'puller', password: 'secret-pw' };
const NAMESPACE = 'olm-console';
const REPO = 'bundles/private';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let admin: KubeClient;
let alice: KubeClient;
let bob: KubeClient;
let dir: string;
let registry: TestRegistry;
let image: TestImage;
const sessionKey = randomBytes(32);

const csvName = (m: BundleManifests): string => ('csv' in m ? String(m.csv.metadata?.name) : m.unknown);

/** A replica starting: nothing in memory, a snapshot folder of its own, the shared store. */
function replica(name: string): PullSettings {
  forgetBundlesInMemory();
  shareBundles(new SharedSnapshots(admin, NAMESPACE, sessionKey, { kind: 'bundle', maxBytes: SHARED_BUNDLE_BYTES }));
  const cacheDir = join(dir, name);
  mkdirSync(cacheDir);
  return {
    ca: [registry.caPem],
    privateRegistries: new Set([registry.host]),
    limits: DEFAULT_LIMITS,
    cacheDir,
    cacheBytes: DEFAULT_CACHE_BYTES,
  };
}

const blobReads = () => registry.requests.filter((r) => r.startsWith(`GET /v2/${REPO}/blobs/`)).length;

const read = (client: KubeClient, s: PullSettings) =>
  bundleManifests({ name: 'private.v1', image: `${registry.host}/${REPO}@${image.digest}` }, s, {
    client,
    catalog: { kind: 'CatalogSource', namespace: 'team1', name: 'private' },
  });

before(async () => {
  sb = await withSandbox({ demo: false });
  admin = clientAs(sb, 'admin');
  alice = clientAs(sb, 'alice');
  bob = clientAs(sb, 'bob');
  dir = mkdtempSync(join(sb.dir, 'shared-bundles-'));
  registry = await startTestRegistry(join(dir), { token: 'anonymous', credentials: USER });
  image = imageOf([
    await gzipLayer([
      {
        name: 'manifests/csv.yaml',
        content: JSON.stringify({
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'ClusterServiceVersion',
          metadata: { name: 'private.v1' },
        }),
      },
      { name: 'metadata/annotations.yaml', content: 'annotations: {}\n' },
    ]),
  ]);
  registry.add(REPO, image);
  await ensureNamespace(admin, NAMESPACE);
  const auth = Buffer.from(`${USER.username}:${USER.password}`).toString('base64');
  await admin.create(SECRET_TYPE, {
    metadata: { name: 'pull', namespace: 'team1' },
    type: 'kubernetes.io/dockerconfigjson',
    data: {
      '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [registry.host]: { auth } } })).toString('base64'),
    },
  });
  await admin.create(CATALOG_SOURCE_TYPE, {
    metadata: { name: 'private', namespace: 'team1' },
    spec: { sourceType: 'grpc', address: '127.0.0.1:1', secrets: ['pull'] },
  });
});
after(async () => {
  shareBundles(undefined);
  await registry?.close();
  await sb?.close();
});

describe('bundles shared by replicas', () => {
  test('a second replica gives alice the bundle without the registry, and refuses bob as the first', async () => {
    const first = replica('first');
    assert.equal(csvName(await read(alice, first)), 'private.v1');
    assert.ok(registry.requests.length > 0, 'the first replica reads the registry');

    const second = replica('second');
    registry.requests.length = 0;
    assert.equal(csvName(await read(alice, second)), 'private.v1');
    assert.deepEqual(registry.requests, [], 'no registry request at all');

    // Bob, on a replica that finds only the shared copy: refused as on the first, by its record.
    const third = replica('third');
    assert.match(csvName(await read(bob, third)), /you may not get secret team1\/pull \(403 Forbidden\)/);
    assert.equal(blobReads(), 0, 'and no layer read for him either');
  });

  test('a shared copy whose chunk was changed is no copy: the registry is read', async () => {
    const chunks = await admin.list<{ metadata: { name: string }; binaryData?: Record<string, string> }>(
      CONFIG_MAP_TYPE,
      { namespace: NAMESPACE, labelSelector: 'olm-console.io/catalog-snapshot-chunk' },
    );
    assert.ok(chunks.items.length > 0, 'the first replica shared the bundle');
    for (const cm of chunks.items) {
      const bytes = Buffer.from(cm.binaryData?.chunk ?? '', 'base64');
      bytes[0] = bytes[0]! ^ 0xff;
      await admin.replace(CONFIG_MAP_TYPE, { ...cm, binaryData: { chunk: bytes.toString('base64') } });
    }
    const fourth = replica('fourth');
    registry.requests.length = 0;
    assert.equal(csvName(await read(alice, fourth)), 'private.v1');
    assert.ok(blobReads() > 0, registry.requests.join('\n'));
  });
});
