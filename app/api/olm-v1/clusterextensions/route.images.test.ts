// The OLM v1 install wizard's plan for a ClusterCatalog whose bundles are given by image only, as
// published catalogs give them, against the sandbox's catalogd: the catalog (a catalog image the
// sandbox serves from a folder) names pgpilot 1.5.0 by an image in a registry of the test's own
// (lib/server/testing/oci-images.ts; the sandbox serves no bundle images), holding the demo
// bundle's objects. With the console pulling, the plan grants the installer exactly the rules the
// same bundle given inline gets; with pulls off, or the registry on an address the console was not
// told to trust, the rights are "not known" with that reason.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { V1InstallRequestBody, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import { readFbcDir } from '@/lib/olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '@/lib/olm/fbc/types';
import { forgetBundlesInMemory } from '@/lib/server/bundle-images/bundle-cache';
import { CLUSTER_CATALOG_TYPE } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { gzipLayer, imageOf, startTestRegistry, type TestRegistry } from '@/lib/server/testing/oci-images';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const DEMO_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const BUNDLE = 'pgpilot.v1.5.0';
const CATALOG_IMAGE = 'quay.io/example/images-only:v1';
const work = mkdtempSync(join(tmpdir(), 'v1-images-only-'));
const catalogDir = join(work, 'catalog');

type Blob = Record<string, unknown> & { schema?: string; name?: string; package?: string };

describe('the v1 install plan for a bundle given by image only', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogImages: { [CATALOG_IMAGE]: catalogDir } });
  let PLAN: Handler;
  let registry: TestRegistry;

  before(async () => {
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    registry = await startTestRegistry(work, { token: 'anonymous' });
    const bundle = readFbcDir(DEMO_DIR)
      .blobs.map((b) => b.blob as Blob)
      .find((b) => b.schema === SCHEMA_BUNDLE && b.name === BUNDLE)!;
    const props = (bundle.properties ?? []) as { type: string; value: { data?: string } }[];
    const objects = props.filter((p) => p.type === PROPERTY_BUNDLE_OBJECT);
    const image = imageOf([
      await gzipLayer([
        ...objects.map((p, i) => ({
          name: `manifests/${i}.json`,
          content: Buffer.from(p.value.data!, 'base64').toString(),
        })),
        {
          name: 'metadata/annotations.yaml',
          content: 'annotations:\n  operators.operatorframework.io.bundle.package.v1: pgpilot\n',
        },
      ]),
    ]);
    registry.add('bundles/pgpilot', image);
    mkdirSync(catalogDir, { recursive: true });
    writeFileSync(
      join(catalogDir, 'catalog.json'),
      [
        { schema: 'olm.package', name: 'pgpilot', defaultChannel: 'stable' },
        { schema: 'olm.channel', package: 'pgpilot', name: 'stable', entries: [{ name: BUNDLE }] },
        {
          ...bundle,
          image: `${registry.host}/bundles/pgpilot@${image.digest}`,
          properties: props.filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT),
        },
      ]
        .map((b) => JSON.stringify(b))
        .join('\n'),
    );
    writeFileSync(join(work, 'registry-ca.crt'), registry.caPem);
    await sb.admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: 'images-only' },
      spec: { source: { type: 'Image', image: { ref: CATALOG_IMAGE } } },
    });
  });
  after(async () => {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const pulls = (on: boolean, privateRegistries = registry.host) => {
    forgetBundlesInMemory();
    if (on) process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
    else delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
    process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(work, 'registry-ca.crt');
    process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = privateRegistries;
  };
  const body = (catalog: string): V1InstallRequestBody => ({
    catalog,
    packageName: 'pgpilot',
    name: 'pgpilot',
    namespace: 'pgpilot-v1',
    serviceAccount: { name: 'pgpilot-installer', grant: true },
    version: '1.5.0',
    channels: [],
    onlyThisCatalog: true,
    upgradeConstraintPolicy: 'CatalogProvided',
  });
  const plan = (catalog: string) =>
    waitFor(`a plan from ${catalog}`, async () => {
      const r = await sb.call<V1PlanAnswer & ErrorBody>(PLAN, '/api/olm-v1/clusterextensions/plan', {
        method: 'POST',
        body: body(catalog),
      });
      return r.status === 200 ? r.body.plan : undefined;
    });
  const unknownRights = (p: V1PlanAnswer['plan']) => p.warnings.filter((w) => w.code === 'rightsUnknown');

  test('pulling, the installer gets the rules the same bundle given inline gets', async () => {
    pulls(true);
    const fromImage = await plan('images-only');
    assert.deepEqual(unknownRights(fromImage), []);
    assert.deepEqual(fromImage.resolution, { bundle: BUNDLE, version: '1.5.0', catalog: 'images-only' });
    const inline = await plan('olm-console-demo');
    assert.deepEqual(inline.resolution, { bundle: BUNDLE, version: '1.5.0', catalog: 'olm-console-demo' });
    assert.ok(fromImage.rbac.length > 0);
    assert.deepEqual(fromImage.rbac, inline.rbac);
    assert.ok(registry.requests.some((r) => r.startsWith('GET /v2/bundles/pgpilot/blobs/')));
  });

  test('not pulling, the rights are not known, and the reason says why', async () => {
    pulls(false);
    const p = await plan('images-only');
    assert.deepEqual(p.rbac, []);
    assert.match(
      unknownRights(p)[0]?.message ?? '',
      new RegExp(
        `not known here \\(the catalog gives bundle ${BUNDLE} by image only, and this console does not pull ` +
          'bundle images \\(OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true\\) \\(ClusterCatalog images-only\\)\\)',
      ),
    );
  });

  test('a registry on an address the console was not told to trust is not dialled', async () => {
    pulls(true, '');
    registry.requests.length = 0;
    const p = await plan('images-only');
    assert.deepEqual(p.rbac, []);
    assert.match(
      unknownRights(p)[0]?.message ?? '',
      /resolves to 127\.0\.0\.1, a loopback, private or link-local address/,
    );
    assert.deepEqual(registry.requests, []);
  });
});
