// A catalog bundle's manifests wherever the catalog keeps them: its own objects, else its image
// (served by the test's registry, lib/server/testing/oci-images.ts), else why they are not known;
// what comes from the image renders as v1 renders it and gives the installer's rules.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { installerRbac } from '../../olm/v1/installer-rbac';
import { renderBundle } from '../../olm/v1/render-bundle';
import { gzipLayer, imageOf, startTestRegistry, type TestRegistry } from '../testing/oci-images';
import { bundleManifests } from './bundle-manifests';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from './pull-settings';

const CSV = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'kube-green.v0.7.1' },
  spec: {
    installModes: [{ type: 'AllNamespaces', supported: true }],
    install: {
      strategy: 'deployment',
      spec: {
        clusterPermissions: [
          {
            serviceAccountName: 'kube-green',
            rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }],
          },
        ],
        deployments: [{ name: 'kube-green-manager', spec: { selector: {}, template: { spec: {} } } }],
      },
    },
  },
};

const dir = mkdtempSync(join(tmpdir(), 'bundle-manifests-test-'));
let registry: TestRegistry;
let settings: PullSettings;
let image: string;

before(async () => {
  registry = await startTestRegistry(dir, { token: 'anonymous' });
  settings = {
    ca: [registry.caPem],
    privateRegistries: new Set([registry.host]),
    limits: DEFAULT_LIMITS,
    cacheBytes: DEFAULT_CACHE_BYTES,
  };
  const built = imageOf([
    await gzipLayer([
      { name: 'manifests/kube-green.clusterserviceversion.yaml', content: JSON.stringify(CSV) },
      { name: 'metadata/annotations.yaml', content: 'annotations: {}\n' },
    ]),
  ]);
  registry.add('bundles/kube-green', built);
  image = `${registry.host}/bundles/kube-green@${built.digest}`;
});
after(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

test("an image-only bundle's manifests come from its image and give the installer's rules", async () => {
  const m = await bundleManifests({ name: 'kube-green.v0.7.1', image, properties: [] }, settings);
  assert.ok(!('unknown' in m), JSON.stringify(m));
  assert.equal(m.from, 'image');
  const rendered = renderBundle(m.csv, m.others, 'kube-green');
  assert.ok(!('error' in rendered), JSON.stringify(rendered));
  const rbac = installerRbac({
    manifests: rendered.objects,
    namespace: 'kube-green',
    serviceAccount: 'installer',
    extensionName: 'kube-green',
  });
  const clusterRole = rbac.find((o) => o.kind === 'ClusterRole') as {
    rules: { resources?: string[]; verbs: string[] }[];
  };
  // The bundle's own rule, which the installer must hold to create the role that grants it.
  assert.ok(
    clusterRole.rules.some((r) => r.resources?.includes('deployments') && r.verbs.includes('patch')),
    JSON.stringify(clusterRole.rules),
  );
});

test('with pulls off, or an image that cannot be read, the reason says so', async () => {
  assert.deepEqual(await bundleManifests({ name: 'kube-green.v0.7.1', image }, { off: 'pulls are off' }), {
    unknown: 'the catalog gives bundle kube-green.v0.7.1 by image only, and pulls are off',
  });
  const missing = await bundleManifests({ name: 'gone.v1', image: `${registry.host}/bundles/gone:v1` }, settings);
  assert.match('unknown' in missing ? missing.unknown : '', /^bundle image .*bundles\/gone:v1 cannot be read: .*404/);
});

test('a bundle carrying its own objects is read from the catalog, with no pull', async () => {
  registry.requests.length = 0;
  const data = Buffer.from(JSON.stringify(CSV)).toString('base64');
  const m = await bundleManifests(
    { name: 'kube-green.v0.7.1', image, properties: [{ type: 'olm.bundle.object', value: { data } }] },
    settings,
  );
  assert.ok(!('unknown' in m));
  assert.equal(m.from, 'catalog');
  assert.deepEqual(registry.requests, []);
});
