// A --catalog folder with bundles given by image only, as published catalogs give them: with
// --bundle-images on, each such bundle is served naming an image of the sandbox's registry that
// holds what the real cluster derives for it (the CSV made from olm.csv.metadata, a CRD per owned
// CRD), while a bundle that carries its objects is served as written; off, the folder as it is.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readRegistryV1Files } from '../../olm/bundle/registry-v1-files';
import { readBundleImage } from '../../server/bundle-images/bundle-image';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS } from '../../server/bundle-images/pull-settings';
import { fetchCatalog } from '../registry/registry-fetch';
import { withSandbox } from '../testing/sandbox-fixture';

const work = mkdtempSync(join(tmpdir(), 'publish-catalog-'));
const folder = join(work, 'acme-catalog');
const ORIGINAL = 'quay.io/acme/widget-bundle@sha256:' + 'a'.repeat(64);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');

before(() => {
  mkdirSync(folder, { recursive: true });
  const blobs = [
    { schema: 'olm.package', name: 'widget', defaultChannel: 'stable' },
    {
      schema: 'olm.channel',
      package: 'widget',
      name: 'stable',
      entries: [{ name: 'widget.v1.0.0' }, { name: 'widget.v1.1.0', replaces: 'widget.v1.0.0' }],
    },
    {
      schema: 'olm.bundle',
      package: 'widget',
      name: 'widget.v1.0.0',
      image: 'quay.io/acme/widget-bundle:v1.0.0',
      properties: [
        { type: 'olm.package', value: { packageName: 'widget', version: '1.0.0' } },
        {
          type: 'olm.bundle.object',
          value: {
            data: b64({
              apiVersion: 'operators.coreos.com/v1alpha1',
              kind: 'ClusterServiceVersion',
              metadata: { name: 'widget.v1.0.0' },
              spec: { version: '1.0.0', install: { strategy: 'deployment', spec: { deployments: [] } } },
            }),
          },
        },
      ],
    },
    {
      schema: 'olm.bundle',
      package: 'widget',
      name: 'widget.v1.1.0',
      image: ORIGINAL,
      properties: [
        { type: 'olm.package', value: { packageName: 'widget', version: '1.1.0' } },
        { type: 'olm.gvk', value: { group: 'acme.example.com', version: 'v1', kind: 'Widget' } },
        {
          type: 'olm.csv.metadata',
          value: {
            displayName: 'Widget',
            installModes: [{ type: 'AllNamespaces', supported: true }],
            crdDescriptions: {
              owned: [{ name: 'widgets.acme.example.com', version: 'v1', kind: 'Widget' }],
            },
          },
        },
      ],
    },
  ];
  writeFileSync(join(folder, 'catalog.json'), blobs.map((b) => JSON.stringify(b)).join('\n') + '\n');
});
after(() => rmSync(work, { recursive: true, force: true }));

async function served(sb: Awaited<ReturnType<typeof withSandbox>>) {
  const entry = [...sb.olm.catalogs.entries.values()].find((e) => e.name === 'acme-catalog')!;
  const catalog = await fetchCatalog(`127.0.0.1:${entry.registry!.port}`);
  return catalog.packages.get('widget')!.bundles;
}

describe('a --catalog folder with image-only bundles', () => {
  test('with --bundle-images on, the image-only bundle names an image of the derived bundle', async () => {
    const sb = await withSandbox({ catalogs: [folder], bundleImages: true, deploymentDelayMs: 0 });
    try {
      const bundles = await served(sb);
      assert.equal(bundles.get('widget.v1.0.0')!.image, 'quay.io/acme/widget-bundle:v1.0.0');
      const image = bundles.get('widget.v1.1.0')!.image!;
      assert.match(image, new RegExp(`^${sb.imageRegistry.registry.host}/bundles/widget-bundle@sha256:[a-f0-9]{64}$`));
      const pulled = await readBundleImage(image, {
        ca: [sb.caPem],
        privateRegistries: new Set([sb.imageRegistry.registry.host]),
        limits: DEFAULT_LIMITS,
        cacheBytes: DEFAULT_CACHE_BYTES,
      });
      const read = readRegistryV1Files(pulled.files);
      assert.ok(!('error' in read), JSON.stringify(read));
      assert.equal(read.packageName, 'widget');
      assert.equal(read.csv.metadata.name, 'widget.v1.1.0');
      assert.equal((read.csv.spec as { displayName?: string }).displayName, 'Widget');
      assert.deepEqual(
        read.others.map((o) => [o.kind, o.metadata.name]),
        [['CustomResourceDefinition', 'widgets.acme.example.com']],
      );
    } finally {
      await sb.close();
    }
  });

  test('with --bundle-images off, the folder is served as it is', async () => {
    const sb = await withSandbox({ catalogs: [folder], deploymentDelayMs: 0 });
    try {
      assert.equal((await served(sb)).get('widget.v1.1.0')!.image, ORIGINAL);
    } finally {
      await sb.close();
    }
  });
});
