// A cluster's image pull configuration, read as the person on the sandbox, with OpenShift's kinds
// made there as an administrator makes them (CRDs of openshift/api's groups and names): an
// ImageDigestMirrorSet sends a bundle whose source cannot be reached to a mirror that serves it;
// the image configuration's additionalTrustedCA lets a registry with a CA of its own be read. bob
// (view everywhere) may list neither, so the reason he gets says the mirrors were not applied.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { CONFIG_MAP_TYPE, CRD_TYPE, NAMESPACE_TYPE } from '../../k8s/core-kinds';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs } from '../testing/cluster';
import { gzipLayer, imageOf, startTestRegistry, type TestImage, type TestRegistry } from '../testing/oci-images';
import { forgetBundlesInMemory } from './bundle-cache';
import { bundleManifests, type BundleManifests } from './bundle-manifests';
import { IDMS_TYPE, IMAGE_CONFIG_TYPE, readClusterImageConfig } from './cluster-image-config';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from './pull-settings';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let admin: KubeClient;
let bob: KubeClient;
let reg: TestRegistry;
let image: TestImage;

const crd = (group: string, plural: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Cluster',
    names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});

const settings = (ca: string[]): PullSettings => ({
  ca,
  privateRegistries: new Set([reg.host]),
  limits: DEFAULT_LIMITS,
  cacheBytes: DEFAULT_CACHE_BYTES,
});

const text = (m: BundleManifests): string => ('csv' in m ? String(m.csv.metadata?.name) : m.unknown);

before(async () => {
  sb = await withSandbox({ demo: false });
  mkdirSync(join(sb.dir, 'registry'));
  reg = await startTestRegistry(join(sb.dir, 'registry'), { token: 'anonymous' });
  image = imageOf([
    await gzipLayer([
      {
        name: 'manifests/csv.yaml',
        content: JSON.stringify({
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'ClusterServiceVersion',
          metadata: { name: 'mirrored.v1' },
        }),
      },
      { name: 'metadata/annotations.yaml', content: 'annotations: {}\n' },
    ]),
  ]);
  reg.add('mirror/org/bundle', image);
  admin = clientAs(sb, 'admin');
  bob = clientAs(sb, 'bob');
});
after(async () => {
  await reg?.close();
  await sb?.close();
});
beforeEach(() => forgetBundlesInMemory());

describe("the cluster's mirrors and registry CAs, as the person may read them", () => {
  test("no OpenShift kinds: no mirrors, and nothing to add to a failed pull's reason", async () => {
    const config = await readClusterImageConfig(admin);
    assert.deepEqual(config.rules, []);
    assert.equal(config.openshift, false);
    assert.deepEqual(config.notes, []);
  });

  test('an ImageDigestMirrorSet sends the pull to its mirror; bob, who may not list it, is told so', async () => {
    await admin.create(CRD_TYPE, crd('config.openshift.io', 'imagedigestmirrorsets', 'ImageDigestMirrorSet'));
    await admin.create(IDMS_TYPE, {
      metadata: { name: 'bundles' },
      spec: {
        imageDigestMirrors: [
          {
            source: 'source.invalid/org',
            mirrors: [`${reg.host}/mirror/org`],
            mirrorSourcePolicy: 'NeverContactSource',
          },
        ],
      },
    });
    const bundle = { name: 'mirrored.v1', image: `source.invalid/org/bundle@${image.digest}` };
    const bobs = await bundleManifests(bundle, settings([reg.caPem]), { client: bob });
    assert.match(text(bobs), /you may not list imagedigestmirrorsets\.config\.openshift\.io \(403 Forbidden\)/);
    assert.match(text(bobs), /source\.invalid/);

    reg.requests.length = 0;
    const admins = await bundleManifests(bundle, settings([reg.caPem]), { client: admin });
    assert.equal(text(admins), 'mirrored.v1');
    assert.ok(reg.requests.includes(`GET /v2/mirror/org/bundle/manifests/${image.digest}`), reg.requests.join('\n'));

    // Without a person, nothing of the cluster is read: the source, which cannot be reached (what
    // the admin read is cached, and anyone may have it: it was read anonymously).
    forgetBundlesInMemory();
    assert.match(text(await bundleManifests(bundle, settings([reg.caPem]))), /source\.invalid/);
  });

  test("the image configuration's additionalTrustedCA is trusted for its registry", async () => {
    await admin.create(CRD_TYPE, crd('config.openshift.io', 'images', 'Image'));
    await admin.create(NAMESPACE_TYPE, { metadata: { name: 'openshift-config' } }).catch(() => undefined);
    const [host, port] = reg.host.split(':');
    await admin.create(CONFIG_MAP_TYPE, {
      metadata: { name: 'registry-cas', namespace: 'openshift-config' },
      data: { [`${host}..${port}`]: reg.caPem },
    });
    const bundle = { name: 'mirrored.v1', image: `${reg.host}/mirror/org/bundle@${image.digest}` };
    assert.match(text(await bundleManifests(bundle, settings([]), { client: admin })), /certificate/);

    await admin.create(IMAGE_CONFIG_TYPE, {
      metadata: { name: 'cluster' },
      spec: { additionalTrustedCA: { name: 'registry-cas' } },
    });
    assert.equal(text(await bundleManifests(bundle, settings([]), { client: admin })), 'mirrored.v1');
    forgetBundlesInMemory();
    const bobs = await bundleManifests(bundle, settings([]), { client: bob });
    assert.match(text(bobs), /you may not get images\.config\.openshift\.io cluster \(403 Forbidden\)/);
  });
});
