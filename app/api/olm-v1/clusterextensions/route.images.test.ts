// The OLM v1 install wizard's plan for a ClusterCatalog whose bundles are given by image only, as
// published catalogs give them, against the sandbox's catalogd: the catalog (a catalog image the
// sandbox serves from a folder) names pgpilot 1.5.0 by an image in a registry of the test's own
// (lib/server/testing/oci-images.ts; the sandbox serves no bundle images), holding the demo
// bundle's objects. With the console pulling, the plan grants the installer exactly the rules the
// same bundle given inline gets; with pulls off, or the registry on an address the console was not
// told to trust, the rights are "not known" with that reason. A second catalog names the same
// bundle in a registry that wants credentials, which only the pull secret operator-controller's
// --global-pull-secret would name (OLM_CONSOLE_PULL_SECRET here) holds: the wizard pulls with it
// as the person asking, so alice, who may get it, sees the rules and bob, who may not, is told so.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { V1InstallRequestBody, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import { CLUSTER_CATALOG_TYPE } from '@/lib/server/olm-v1/resources';
import { rbacType, SECRET_TYPE } from '@/lib/k8s/core-kinds';
import { setBundlePulls } from '@/lib/server/testing/bundle-pulls';
import { waitFor } from '@/lib/server/testing/cluster';
import { startTestRegistry, type TestRegistry } from '@/lib/server/testing/oci-images';
import { pgpilotByImage } from '@/lib/server/testing/pgpilot-by-image';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const BUNDLE = 'pgpilot.v1.5.0';
const CATALOG_IMAGE = 'quay.io/example/images-only:v1';
const PRIVATE_CATALOG_IMAGE = 'quay.io/example/images-private:v1';
const PULLER = { username: 'puller', password: 'not-for-bob' };
const work = mkdtempSync(join(tmpdir(), 'v1-images-only-'));
const catalogDir = join(work, 'catalog');
const privateCatalogDir = join(work, 'private-catalog');

describe('the v1 install plan for a bundle given by image only', () => {
  const sb = routeSandbox({
    deploymentDelayMs: 0,
    catalogImages: { [CATALOG_IMAGE]: catalogDir, [PRIVATE_CATALOG_IMAGE]: privateCatalogDir },
  });
  let PLAN: Handler;
  let registry: TestRegistry;
  let privateRegistry: TestRegistry;

  before(async () => {
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    registry = await startTestRegistry(work, { token: 'anonymous' });
    mkdirSync(join(work, 'private'));
    privateRegistry = await startTestRegistry(join(work, 'private'), { token: 'anonymous', credentials: PULLER });
    // The same image in both registries, each catalog naming it in its own.
    const pgpilot = await pgpilotByImage();
    pgpilot.serve(registry, catalogDir);
    pgpilot.serve(privateRegistry, privateCatalogDir);
    writeFileSync(join(work, 'registry-ca.crt'), registry.caPem + privateRegistry.caPem);
    for (const [name, ref] of [
      ['images-only', CATALOG_IMAGE],
      ['images-private', PRIVATE_CATALOG_IMAGE],
    ])
      await sb.admin.create(CLUSTER_CATALOG_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name },
        spec: { source: { type: 'Image', image: { ref } } },
      });
    // alice (admin of team1, whose secrets she may get) and bob (a viewer, who may not get secrets)
    // may both read ClusterCatalogs, the one right the wizard needs beyond theirs.
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'catalog-reader' },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'people-read-catalogs' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'catalog-reader' },
      subjects: ['alice', 'bob'].map((name) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name })),
    });
    const auth = Buffer.from(`${PULLER.username}:${PULLER.password}`).toString('base64');
    await sb.admin.create(SECRET_TYPE, {
      metadata: { name: 'bundle-pulls', namespace: 'team1' },
      type: 'kubernetes.io/dockerconfigjson',
      data: {
        '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [privateRegistry.host]: { auth } } })).toString(
          'base64',
        ),
      },
    });
  });
  after(async () => {
    delete process.env.OLM_CONSOLE_PULL_SECRET;
    await privateRegistry?.close();
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const pulls = (on: boolean, privateRegistries = `${registry.host},${privateRegistry.host}`) =>
    setBundlePulls(on, join(work, 'registry-ca.crt'), privateRegistries);
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
  const plan = (catalog: string, user = 'admin') =>
    waitFor(`a plan from ${catalog}`, async () => {
      const r = await sb.call<V1PlanAnswer & ErrorBody>(PLAN, '/api/olm-v1/clusterextensions/plan', {
        method: 'POST',
        body: body(catalog),
        user,
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

  test('pulling with the global pull secret as the person: alice may get it, bob is told he may not', async () => {
    pulls(true);
    process.env.OLM_CONSOLE_PULL_SECRET = 'team1/bundle-pulls';
    try {
      const bobs = await plan('images-private', 'bob');
      assert.deepEqual(bobs.rbac, []);
      assert.match(unknownRights(bobs)[0]?.message ?? '', /you may not get secret team1\/bundle-pulls/);
      const alices = await plan('images-private', 'alice');
      assert.deepEqual(unknownRights(alices), []);
      assert.deepEqual(alices.rbac, (await plan('olm-console-demo')).rbac);
      assert.ok(privateRegistry.requests.some((r) => r.startsWith('GET /v2/bundles/pgpilot/blobs/')));
    } finally {
      delete process.env.OLM_CONSOLE_PULL_SECRET;
    }
  });
});
