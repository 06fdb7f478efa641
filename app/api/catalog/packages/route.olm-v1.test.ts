// OperatorHub's list with OLM v1 beside v0, against the sandbox: the demo catalog is both a
// CatalogSource and a ClusterCatalog, so each of its tiles installs with either OLM; a second
// ClusterCatalog (an image only catalogd serves) brings a package of its own, a package named like
// a demo one but with other content, and a broken package. Who sees what follows RBAC on
// ClusterCatalogs; a disabled catalog contributes nothing, as operator-controller resolves nothing
// from it.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { HubList } from '@/lib/hub/package-summary';
import { NAMESPACE_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '@/lib/k8s/core-kinds';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

const DEMO = 'olm-console-demo';
const EXTRA = 'acme-v1';
const EXTRA_IMAGE = 'quay.example.com/acme/v1-catalog:latest';

function bundle(pkg: string, version: string, image: string) {
  return {
    schema: 'olm.bundle',
    name: `${pkg}.v${version}`,
    package: pkg,
    image,
    properties: [{ type: 'olm.package', value: { packageName: pkg, version } }],
  };
}

/** A catalog of three packages: one only it has, one named like a demo package, one broken. */
function writeExtraCatalog(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'hub-v1-')), EXTRA);
  mkdirSync(dir);
  const docs = [
    { schema: 'olm.package', name: 'solo', defaultChannel: 'stable' },
    { schema: 'olm.channel', name: 'stable', package: 'solo', entries: [{ name: 'solo.v1.0.0' }] },
    bundle('solo', '1.0.0', 'quay.example.com/acme/solo-bundle:v1.0.0'),
    { schema: 'olm.package', name: 'pgpilot', defaultChannel: 'stable' },
    { schema: 'olm.channel', name: 'stable', package: 'pgpilot', entries: [{ name: 'pgpilot.v9.0.0' }] },
    bundle('pgpilot', '9.0.0', 'quay.example.com/acme/pgpilot-fork:v9.0.0'),
    { schema: 'olm.package', name: 'wrecked', defaultChannel: 'stable' },
    { schema: 'olm.channel', name: 'stable', package: 'wrecked', entries: [{ name: 'wrecked.v2.0.0' }] },
  ];
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

describe('OperatorHub lists OLM v1 packages beside OLM v0 ones', () => {
  const sb = routeSandbox({ catalogImages: { [EXTRA_IMAGE]: writeExtraCatalog() } });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (query: string, user = 'admin') =>
    sb.call<HubList & ErrorBody>(GET, `/api/catalog/packages${query}`, { user, bearer: true });
  const serving = (name: string, user = 'admin') =>
    waitFor(`ClusterCatalog ${name} in the hub`, async () => {
      const r = await get('', user);
      return r.body.catalogs?.some((c) => c.kind === 'ClusterCatalog' && c.name === name) ? r.body : undefined;
    });

  test('each demo tile installs with OLM v0 and OLM v1: one tile, not two', async () => {
    const body = await serving(DEMO);
    const v1 = body.catalogs.find((c) => c.kind === 'ClusterCatalog')!;
    assert.deepEqual([v1.name, v1.namespace, v1.packages, v1.problem], [DEMO, '', 13, undefined]);
    assert.equal(body.total, 12, 'the twelve standalone demo packages, each once');
    const pgpilot = body.packages.filter((p) => p.name === 'pgpilot');
    assert.equal(pgpilot.length, 1);
    assert.equal(pgpilot[0]!.catalog.namespace, 'olm');
    assert.deepEqual(pgpilot[0]!.clusterCatalogs, [DEMO]);
    assert.deepEqual(body.facets.olm, { v0: 12, v1: 12 });
    assert.equal(body.facets.catalog![`ClusterCatalog/${DEMO}`], 12);
    const onlyV1 = await get('?olm=v1');
    assert.equal(onlyV1.body.total, 12);
  });

  test('a ClusterCatalog of its own: its package alone, a same-named package with other content apart', async () => {
    await sb.admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: EXTRA },
      spec: { source: { type: 'Image', image: { ref: EXTRA_IMAGE } } },
    });
    const body = await serving(EXTRA);
    const extra = body.catalogs.find((c) => c.name === EXTRA)!;
    assert.equal(extra.packages, 2, 'solo and the other pgpilot; wrecked is left out');
    assert.match(extra.problem ?? '', /^1 package is broken and left out \(package "wrecked"/);
    const solo = body.packages.find((p) => p.name === 'solo')!;
    assert.deepEqual(solo.catalog, { name: EXTRA, namespace: '', kind: 'ClusterCatalog' });
    assert.deepEqual(solo.clusterCatalogs, [EXTRA]);
    // Same name, another head bundle: another operator as far as anyone can tell.
    const pgpilots = body.packages.filter((p) => p.name === 'pgpilot');
    assert.deepEqual(pgpilots.map((p) => [p.catalog.name, p.clusterCatalogs, p.headVersion]).sort(), [
      [EXTRA, [EXTRA], '9.0.0'],
      [DEMO, [DEMO], pgpilots.find((p) => p.catalog.namespace === 'olm')!.headVersion],
    ]);
    assert.ok(!body.packages.some((p) => p.name === 'wrecked'));
    const v1only = await get(`?olm=v1&catalog=ClusterCatalog/${EXTRA}`);
    assert.deepEqual(v1only.body.packages.map((p) => p.name).sort(), ['pgpilot', 'solo']);
    const v0only = await get('?olm=v0');
    assert.ok(!v0only.body.packages.some((p) => p.name === 'solo'));
  });

  test('a viewer who may not list ClusterCatalogs sees the OLM v0 hub, with no error', async () => {
    const bob = await get('', 'bob');
    assert.equal(bob.status, 200);
    assert.ok(!bob.body.catalogs.some((c) => c.kind === 'ClusterCatalog'));
    assert.equal(bob.body.total, 12);
    assert.ok(bob.body.packages.every((p) => !p.clusterCatalogs));
    assert.deepEqual(bob.body.facets.olm, { v0: 12 });
  });

  test('once RBAC lets the viewer list ClusterCatalogs, they see the v1 packages too', async () => {
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'hub-catalog-reader' },
      rules: [{ apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['list'] }],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-hub-catalog-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'hub-catalog-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const body = await serving(EXTRA, 'bob');
    assert.ok(body.packages.some((p) => p.name === 'solo'));
    assert.deepEqual(body.packages.find((p) => p.name === 'cachely')?.clusterCatalogs, [DEMO]);
  });

  test('a disabled ClusterCatalog contributes nothing; enabled again, its packages return', async () => {
    await sb.admin.patch(CLUSTER_CATALOG_TYPE, EXTRA, { spec: { availabilityMode: 'Unavailable' } });
    const gone = await waitFor('the disabled catalog gone from the hub', async () => {
      const r = await get('');
      return r.body.catalogs.some((c) => c.name === EXTRA) ? undefined : r.body;
    });
    assert.ok(!gone.packages.some((p) => p.name === 'solo'));
    assert.equal(gone.packages.filter((p) => p.name === 'pgpilot').length, 1);
    await sb.admin.patch(CLUSTER_CATALOG_TYPE, EXTRA, { spec: { availabilityMode: 'Available' } });
    const back = await serving(EXTRA);
    assert.ok(back.packages.some((p) => p.name === 'solo'));
  });

  test('a ClusterExtension that installed a package marks its tile installed, as that extension', async () => {
    await sb.admin.create(NAMESPACE_TYPE, { metadata: { name: 'cachely' } });
    await sb.admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: 'cachely' } });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'cachely-installer-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'cachely' }],
    });
    await sb.admin.create(CLUSTER_EXTENSION_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'my-cache' },
      spec: {
        namespace: 'cachely',
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'cachely' } },
      },
    });
    const body = await waitFor('the extension installed', async () => {
      const r = await get('?installState=installed');
      return r.body.total === 1 ? r.body : undefined;
    });
    const cachely = body.packages[0]!;
    assert.equal(cachely.name, 'cachely');
    assert.deepEqual(cachely.installedAs, ['my-cache']);
    assert.equal(cachely.installedIn, undefined, 'no Subscription installs it');
    // bob may list ClusterCatalogs here, not ClusterExtensions: nothing is installed as far as he can tell.
    const bob = await get('?installState=installed', 'bob');
    assert.equal(bob.body.total, 0);
  });

  test('an unknown OLM in the filter is refused with the reason, and nothing else is answered', async () => {
    const r = await get('?olm=v2');
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /olm: must be v0 or v1/);
  });
});
