// What a version of a CatalogSource's package brings when the catalog gives its bundles by image
// only, as published catalogs do: the sandbox serves a catalog folder (CatalogSource images-only)
// whose pgpilot 1.5.0 names an image in a registry of the test's own (lib/server/testing/
// oci-images.ts) holding the demo bundle's objects, asked as bob (view). The registry's GetBundle
// has no objects for it, so the console reads the image: the answer is the one the same bundle
// given inline gets. Not pulling, it is unknown and says why.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { readFbcDir } from '@/lib/olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '@/lib/olm/fbc/types';
import { forgetBundlesInMemory } from '@/lib/server/bundle-images/bundle-cache';
import { waitFor } from '@/lib/server/testing/cluster';
import { gzipLayer, imageOf, startTestRegistry, type TestRegistry } from '@/lib/server/testing/oci-images';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..', '..', '..', '..', '..');
const DEMO_DIR = join(ROOT, 'lib', 'sandbox', 'demo-catalog', 'catalog');
const BUNDLE = 'pgpilot.v1.5.0';
const work = mkdtempSync(join(tmpdir(), 'v0-brings-'));
const catalogDir = join(work, 'images-only');

type Blob = Record<string, unknown> & { schema?: string; name?: string };
type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe('GET …/packages/<ns>/<catalog>/<package>/brings for a bundle given by image only', () => {
  let registry: TestRegistry;
  // Registered before the sandbox's own hooks, so that the registry listens and the catalog naming
  // its image by host is written before the sandbox reads the folder.
  before(async () => {
    registry = await startTestRegistry(work, { token: 'anonymous' });
    const demoBundle = readFbcDir(DEMO_DIR)
      .blobs.map((b) => b.blob as Blob)
      .find((b) => b.schema === SCHEMA_BUNDLE && b.name === BUNDLE)!;
    const props = (demoBundle.properties ?? []) as { type: string; value: { data?: string } }[];
    const image = imageOf([
      await gzipLayer([
        ...props
          .filter((p) => p.type === PROPERTY_BUNDLE_OBJECT)
          .map((p, i) => ({ name: `manifests/${i}.json`, content: Buffer.from(p.value.data!, 'base64').toString() })),
        {
          name: 'metadata/annotations.yaml',
          content: 'annotations:\n  operators.operatorframework.io.bundle.package.v1: pgpilot\n',
        },
      ]),
    ]);
    registry.add('bundles/pgpilot', image);
    writeFileSync(join(work, 'registry-ca.crt'), registry.caPem);
    mkdirSync(catalogDir, { recursive: true });
    writeFileSync(
      join(catalogDir, 'catalog.json'),
      [
        { schema: 'olm.package', name: 'pgpilot', defaultChannel: 'stable' },
        { schema: 'olm.channel', package: 'pgpilot', name: 'stable', entries: [{ name: BUNDLE }] },
        {
          ...demoBundle,
          image: `${registry.host}/bundles/pgpilot@${image.digest}`,
          properties: props.filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT),
        },
      ]
        .map((b) => JSON.stringify(b))
        .join('\n'),
    );
  });
  const sb = routeSandbox({ demo: true, catalogs: [catalogDir] });
  let GET: Handler;

  before(async () => {
    ({ GET } = await import('./route'));
  });
  after(async () => {
    await registry.close();
    rmSync(work, { recursive: true, force: true });
    delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
  });

  const pulls = (on: boolean) => {
    forgetBundlesInMemory();
    if (on) process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
    else delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
    process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(work, 'registry-ca.crt');
    process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = registry.host;
  };
  const get = (catalog: string, query = '') =>
    waitFor(`package pgpilot of ${catalog}`, async () => {
      const r = await sb.call<Answer>(GET, `/api/catalog/packages/olm/${catalog}/pgpilot/brings${query}`, {
        user: 'bob',
        bearer: true,
        params: { namespace: 'olm', catalog, package: 'pgpilot' },
      });
      return r.status === 200 ? r.body : undefined;
    });

  test('pulling, the image gives what the same bundle given inline gives', async () => {
    pulls(true);
    const fromImage = await get('images-only');
    assert.equal(fromImage.csvName, BUNDLE);
    assert.equal(fromImage.from, 'image');
    const inline = await get('olm-console-demo', '?version=1.5.0');
    assert.equal(inline.from, 'catalog');
    assert.ok(fromImage.brings!.namespaced.length > 0);
    assert.deepEqual(fromImage.brings, inline.brings);
    assert.ok(registry.requests.some((r) => r.startsWith('GET /v2/bundles/pgpilot/blobs/')));
  });

  test('not pulling, it is unknown and says why', async () => {
    pulls(false);
    const a = await get('images-only');
    assert.equal(a.brings, undefined);
    assert.equal(
      a.unknown,
      `the catalog gives bundle ${BUNDLE} by image only, and this console does not pull bundle images ` +
        '(OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true)',
    );
  });
});
