// Moving an operator to OLM v1 when the ClusterCatalog gives its bundles by image only, as published
// catalogs do (olm.csv.metadata, no olm.bundle.object), against the sandbox: OLM v0 installed
// cachely and certwarden from the demo CatalogSource; the ClusterCatalog images-only, of a higher
// priority than the demo one, names each bundle by an image in a registry of the test's own
// (lib/server/testing/oci-images.ts: the sandbox serves no bundle images). cachely's image holds
// the demo bundle's objects, by a tag; certwarden's also ships another team's CRD and a ClusterRole
// named like OLM's shared aggregate-olm-edit. Not pulling, the move cannot list what OLM v1 would
// take over and says why; pulling, the plan names the image and digest it read, a move made
// against a digest the tag no longer names changes nothing, a tag moved during the move is seen
// before anything is marked, and the move itself reaches Installed
// (the sandbox's v1 installing from olm.csv.metadata, as it cannot pull); the image's content
// adopts nothing OLM v0 did not install.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CRD_TYPE, DEPLOYMENT_TYPE, rbacType } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';
import type { MigrationResult, MigrationView } from '@/lib/api/olm-v1-migration';
import { analyseMigration } from '@/lib/server/olm-v1/migration';
import { recheckContent } from '@/lib/server/olm-v1/migration-recheck';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { setBundlePulls } from '@/lib/server/testing/bundle-pulls';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { FOREIGN_CRD, SHARED_ROLE } from '@/lib/server/testing/foreign-bundle-catalog';
import {
  demoDocs,
  foreignObjects,
  objectsOf,
  onlyByImage,
  type BundleObject,
} from '@/lib/server/testing/image-only-bundles';
import {
  gzipLayer,
  imageOf,
  startTestRegistry,
  type TestImage,
  type TestRegistry,
} from '@/lib/server/testing/oci-images';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const CATALOG = 'images-only';
const CATALOG_IMAGE = 'quay.example.com/probe/images-only:v1';
const CACHELY = 'cachely.v0.9.2';
const CERTWARDEN = 'certwarden.v1.1.0';
const work = mkdtempSync(join(tmpdir(), 'move-images-only-'));

/** The bundle's objects as a registry+v1 image: manifests/ and metadata/annotations.yaml. */
async function bundleImage(pkg: string, objects: readonly BundleObject[]): Promise<TestImage> {
  return imageOf([
    await gzipLayer([
      ...objects.map((o, i) => ({ name: `manifests/${i}-${o.kind.toLowerCase()}.json`, content: JSON.stringify(o) })),
      {
        name: 'metadata/annotations.yaml',
        content: `annotations:\n  operators.operatorframework.io.bundle.package.v1: ${pkg}\n`,
      },
    ]),
  ]);
}

describe('a move whose ClusterCatalog gives the bundle by image only', () => {
  const catalogDir = join(work, CATALOG);
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogImages: { [CATALOG_IMAGE]: catalogDir } });
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  let registry: TestRegistry;
  let cachelyImage: TestImage;
  let otherImage: TestImage;
  let tagRef: string;
  let foreignRef: string;
  let foreignDigest: string;

  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    registry = await startTestRegistry(work, { token: 'anonymous' });
    writeFileSync(join(work, 'registry-ca.crt'), registry.caPem);
    tagRef = `${registry.host}/bundles/cachely:v0.9.2`;

    const cachely = demoDocs('cachely');
    const cachelyBundle = cachely.find((d) => d.name === CACHELY)!;
    cachelyImage = await bundleImage('cachely', objectsOf(cachelyBundle));
    // The same bundle with one annotation more: another image the tag may come to name.
    otherImage = await bundleImage(
      'cachely',
      objectsOf(cachelyBundle).map((o) =>
        o.kind === 'ClusterServiceVersion'
          ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, rebuilt: 'yes' } } }
          : o,
      ),
    );
    registry.add('bundles/cachely', otherImage);
    registry.add('bundles/cachely', cachelyImage, 'v0.9.2');

    const certwarden = demoDocs('certwarden');
    const certwardenBundle = certwarden.find((d) => d.name === CERTWARDEN)!;
    const foreignImage = await bundleImage('certwarden', [...objectsOf(certwardenBundle), ...foreignObjects()]);
    registry.add('bundles/certwarden', foreignImage);
    foreignDigest = foreignImage.digest;
    foreignRef = `${registry.host}/bundles/certwarden@${foreignDigest}`;

    for (const [pkg, docs] of [
      ['cachely', onlyByImage(cachely, CACHELY, tagRef)],
      ['certwarden', onlyByImage(certwarden, CERTWARDEN, foreignRef)],
    ] as const) {
      mkdirSync(join(catalogDir, pkg), { recursive: true });
      writeFileSync(join(catalogDir, pkg, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
    }

    await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha' });
    await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    await subscribe(admin, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'] });
    await waitForCsv(admin, 'operators', CACHELY);
    await waitForCsv(admin, 'operators', CERTWARDEN);
    await waitForCsv(admin, 'team2', 'pgpilot.v1.4.0');
    await admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: CATALOG },
      spec: { priority: 10, source: { type: 'Image', image: { ref: CATALOG_IMAGE } } },
    });
    await waitFor(`ClusterCatalog ${CATALOG} serving`, async () => {
      const c = await admin.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        CLUSTER_CATALOG_TYPE,
        CATALOG,
      );
      return c.status?.conditions?.some((x) => x.type === 'Serving' && x.status === 'True') ? true : undefined;
    });
  });
  after(async () => {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const pulls = (on: boolean) => setBundlePulls(on, join(work, 'registry-ca.crt'), registry.host);
  const at = (csv: string) => ({
    path: `/api/operators/operators/${csv}/migrate-to-v1`,
    params: { namespace: 'operators', name: csv },
  });
  const plan = (csv: string) =>
    sb.call<MigrationView>(PLAN, `${at(csv).path}/plan`, { method: 'POST', body: {}, params: at(csv).params });
  const apply = (csv: string, body: Record<string, unknown>) =>
    sb.call<MigrationResult & ErrorBody>(POST, at(csv).path, { method: 'POST', body, params: at(csv).params });

  test('not pulling, what OLM v1 would take over cannot be listed, and the reason says why', async () => {
    pulls(false);
    const { status, body } = await plan(CACHELY);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, false);
    assert.deepEqual(body.reasons, [
      {
        code: 'no-manifests',
        message:
          `the objects OLM v1 would take over cannot be listed, since the manifests of ${CACHELY} ` +
          `(ClusterCatalog ${CATALOG}) are not known: the catalog gives bundle ${CACHELY} by image only, and this ` +
          'console does not pull bundle images (OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true)',
      },
    ]);
  });

  test('pulling, the plan takes over what OLM v0 installed and names the image and digest it read', async () => {
    pulls(true);
    const { status, body } = await plan(CACHELY);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, true, JSON.stringify(body.reasons));
    assert.equal(body.catalog, CATALOG);
    assert.deepEqual(body.source, { from: 'image', image: tagRef, digest: cachelyImage.digest });
    const fates = new Map(body.objects!.map((o) => [`${o.kind}/${o.name}`, o.fate]));
    assert.equal(fates.get('CustomResourceDefinition/cacheclusters.cachely.example.com'), 'adopt');
    assert.equal(fates.get('Deployment/cachely-controller-manager'), 'adopt');
    assert.ok(registry.requests.some((r) => r.startsWith('GET /v2/bundles/cachely/blobs/')));
  });

  test('an image bringing another team’s CRD and OLM’s shared role takes over neither', async () => {
    pulls(true);
    const { status, body } = await plan(CERTWARDEN);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, false);
    assert.deepEqual(body.reasons, [
      {
        code: 'not-installed-by-v0',
        message: `CustomResourceDefinition ${FOREIGN_CRD} exists and OLM v0 did not install it for ${CERTWARDEN}`,
        object: { kind: 'CustomResourceDefinition', name: FOREIGN_CRD },
      },
      {
        code: 'shared-role',
        message:
          `ClusterRole ${SHARED_ROLE} is one of Kubernetes’ or OLM’s shared roles (its name starts with aggregate-); ` +
          'a move never takes it over',
        object: { kind: 'ClusterRole', name: SHARED_ROLE },
      },
    ]);
    // The refusal says where what it is about came from.
    assert.deepEqual(body.source, { from: 'image', image: foreignRef, digest: foreignDigest });
    const refused = await apply(CERTWARDEN, {});
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    await admin.get(SUBSCRIPTION_TYPE, 'certwarden', 'operators');
    const crd = await admin.get<{ metadata: { labels?: Record<string, string> } }>(CRD_TYPE, FOREIGN_CRD);
    assert.equal(crd.metadata.labels?.['olm.operatorframework.io/owner-name'], undefined);
    await admin.get(rbacType('ClusterRole'), SHARED_ROLE);
  });

  test('a move made against a digest the tag no longer names is refused, and changes nothing', async () => {
    pulls(true);
    registry.add('bundles/cachely', otherImage, 'v0.9.2');
    try {
      const { status, body } = await apply(CACHELY, { bundleDigest: cachelyImage.digest });
      assert.equal(status, 409, JSON.stringify(body));
      assert.equal(
        body.error.message,
        `the plan you saw was read from bundle image digest ${cachelyImage.digest}, but ${tagRef} now resolves to ` +
          `${otherImage.digest}; nothing was changed: look at the plan again`,
      );
      await admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators');
      await admin.get(CSV_TYPE, CACHELY, 'operators');
      await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'cachely'), (e) => isKubeError(e, 404));
    } finally {
      registry.add('bundles/cachely', cachelyImage, 'v0.9.2');
    }
  });

  test('a digest that is not one is a 400 that changes nothing', async () => {
    const { status, body } = await apply(CACHELY, { bundleDigest: 'latest' });
    assert.equal(status, 400, JSON.stringify(body));
    assert.match(body.error.message, /not a sha256 digest/);
    await admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators');
  });

  test('a tag moved after the plan is seen just before anything would be marked', async () => {
    pulls(true);
    const a = await analyseMigration(admin, 'operators', CACHELY);
    assert.equal(await recheckContent(admin, a.target!), undefined);
    registry.add('bundles/cachely', otherImage, 'v0.9.2');
    try {
      assert.equal(
        await recheckContent(admin, a.target!),
        `bundle image ${tagRef} now resolves to ${otherImage.digest}, not to ${cachelyImage.digest}, ` +
          'whose content the plan checked',
      );
    } finally {
      registry.add('bundles/cachely', cachelyImage, 'v0.9.2');
    }
  });

  test('moved against the digest it was shown, the operator is Installed by OLM v1 and keeps its Deployment', async () => {
    pulls(true);
    const { status, body } = await apply(CACHELY, { bundleDigest: cachelyImage.digest });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.ok, true, JSON.stringify(body));
    const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
    assert.equal(ce.status?.conditions?.find((c) => c.type === 'Installed')?.status, 'True');
    assert.equal(ce.status?.install?.bundle?.name, CACHELY);
    // The sandbox's OLM v1 cannot pull either: it installs what the catalog's olm.csv.metadata gives
    // (lib/sandbox/olm/install-steps.ts), which has no Deployments, so the Deployment is only kept.
    await admin.get(DEPLOYMENT_TYPE, 'cachely-controller-manager', 'operators');
    const crd = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      CRD_TYPE,
      'cacheclusters.cachely.example.com',
    );
    assert.equal(crd.metadata.labels?.['olm.operatorframework.io/owner-name'], 'cachely');
    await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators'), (e) => isKubeError(e, 404));
  });
});
