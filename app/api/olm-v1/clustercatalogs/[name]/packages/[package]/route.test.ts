// A ClusterCatalog package's details and graph against the sandbox's catalogd, as the person: the
// demo catalog's packages (also a CatalogSource's, so each page links the other OLM's), the
// deprecations operator-controller would report (flagpole deprecates its package, a channel and a
// bundle), a broken package's problems in words, and every way a package can be missing.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { V1PackageDetails } from '@/lib/api/olm-v1-packages';
import type { GraphView, PackageDetails } from '@/lib/hub/catalog-types';
import { rbacType } from '@/lib/k8s/core-kinds';
import { CLUSTER_CATALOG_TYPE } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const DEMO = 'olm-console-demo';
const BROKEN = 'acme-broken';
const BROKEN_IMAGE = 'quay.example.com/acme/broken:latest';

/** A catalog whose only package names a bundle its channel never defines. */
function writeBrokenCatalog(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'v1-pkg-')), BROKEN);
  mkdirSync(dir);
  const docs = [
    { schema: 'olm.package', name: 'wrecked', defaultChannel: 'stable' },
    { schema: 'olm.channel', name: 'stable', package: 'wrecked', entries: [{ name: 'wrecked.v2.0.0' }] },
  ];
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

describe('a ClusterCatalog package through the console', () => {
  const sb = routeSandbox({ catalogImages: { [BROKEN_IMAGE]: writeBrokenCatalog() } });
  let DETAILS: Handler, GRAPH: Handler, V0: Handler, ICON: Handler;
  before(async () => {
    ({ GET: ICON } = (await import('./icon/route')) as unknown as { GET: Handler });
    ({ GET: DETAILS } = (await import('./route')) as unknown as { GET: Handler });
    ({ GET: GRAPH } = (await import('./graph/route')) as unknown as { GET: Handler });
    ({ GET: V0 } = (await import('@/app/api/catalog/packages/[namespace]/[catalog]/[package]/route')) as unknown as {
      GET: Handler;
    });
  });

  const details = (catalog: string, pkg: string, query = '', user = 'admin') =>
    sb.call<V1PackageDetails & ErrorBody>(DETAILS, `/api/olm-v1/clustercatalogs/${catalog}/packages/${pkg}${query}`, {
      user,
      params: { name: catalog, package: pkg },
    });
  const graph = (catalog: string, pkg: string, query = '') =>
    sb.call<GraphView & ErrorBody>(GRAPH, `/api/olm-v1/clustercatalogs/${catalog}/packages/${pkg}/graph${query}`, {
      params: { name: catalog, package: pkg },
    });
  const demoServing = () =>
    waitFor('the demo ClusterCatalog serving', async () => {
      const r = await details(DEMO, 'pgpilot');
      return r.status === 200 ? r.body : undefined;
    });

  test('channels, versions and the head’s facts, from catalogd, with the CatalogSource that offers it too', async () => {
    const d = await demoServing();
    assert.deepEqual(d.catalog, { name: DEMO, namespace: '', kind: 'ClusterCatalog' });
    assert.equal(d.source, 'catalogd');
    assert.equal(d.clusterCatalog.name, DEMO);
    assert.match(d.clusterCatalog.resolvedRef ?? '', /@sha256:[0-9a-f]{64}$/);
    assert.ok(d.channels.length > 0);
    const ch = d.channels.find((c) => c.name === d.selected.channel)!;
    assert.equal(d.selected.csvName, ch.head);
    assert.equal(d.selected.csv?.displayName, 'PgPilot');
    assert.deepEqual(d.alsoFromCatalogSources, [
      { namespace: 'olm', name: DEMO, displayName: 'olm-console demo operators' },
    ]);
    assert.deepEqual(d.canInstall, { allowed: true });
    assert.deepEqual(d.channelResolvesTo, { bundle: ch.head, version: ch.headVersion });
  });

  test('the v0 details page of the same package names the ClusterCatalog that offers it', async () => {
    await demoServing();
    const r = await sb.call<PackageDetails>(V0, `/api/catalog/packages/olm/${DEMO}/pgpilot`, {
      params: { namespace: 'olm', catalog: DEMO, package: 'pgpilot' },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.clusterCatalogs, [DEMO]);
  });

  test('deprecations as OLM v1 reports them on an extension that installs the chosen version', async () => {
    await demoServing();
    const head = await details(DEMO, 'flagpole');
    assert.equal(head.status, 200);
    assert.deepEqual(
      head.body.v1Deprecations.map((c) => c.type),
      ['PackageDeprecated'],
    );
    assert.match(head.body.v1Deprecations[0]!.message, /Flagpole is no longer maintained/);
    const old = await details(DEMO, 'flagpole', '?version=1.0.0');
    assert.deepEqual(
      old.body.v1Deprecations.map((c) => c.type),
      ['PackageDeprecated', 'BundleDeprecated'],
    );
    assert.match(old.body.v1Deprecations[1]!.message, /leaks flag evaluations/);
    const legacy = await details(DEMO, 'flagpole', '?channel=legacy');
    assert.deepEqual(
      legacy.body.v1Deprecations.map((c) => c.type),
      ['PackageDeprecated', 'ChannelDeprecated'],
    );
    // Of stable's two bundles v1 takes the one not deprecated.
    assert.deepEqual(head.body.channelResolvesTo, { bundle: 'flagpole.v1.0.1', version: '1.0.1' });
  });

  test('the upgrade graph keeps replaces, skips and skipRange, and says nothing v0-only', async () => {
    await demoServing();
    const g = await graph(DEMO, 'flagpole', '?channel=stable');
    assert.equal(g.status, 200);
    assert.equal(g.body.edgesKnown, true);
    assert.deepEqual(g.body.nodes.map((n) => [n.name, n.replaces]).sort(), [
      ['flagpole.v1.0.0', undefined],
      ['flagpole.v1.0.1', 'flagpole.v1.0.0'],
    ]);
    assert.equal(g.body.edgeCounts.replaces, 1);
    assert.ok(g.body.nodes.every((n) => n.neverTarget === undefined));
  });

  test('a broken package says what is broken; a missing one, a missing channel and a bad name are refused', async () => {
    await sb.admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: BROKEN },
      spec: { source: { type: 'Image', image: { ref: BROKEN_IMAGE } } },
    });
    const broken = await waitFor('the broken catalog read', async () => {
      const r = await details(BROKEN, 'wrecked');
      return r.status === 422 ? r : undefined;
    });
    assert.equal(broken.body.error.reason, 'Invalid');
    assert.match(broken.body.error.message, /^package wrecked in ClusterCatalog acme-broken is broken/);
    assert.match(broken.body.error.message, /wrecked\.v2\.0\.0/);
    const missing = await details(DEMO, 'no-such-package');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.message, `ClusterCatalog ${DEMO} has no package no-such-package`);
    const noCatalog = await details('nothing-here', 'pgpilot');
    assert.equal(noCatalog.status, 404);
    assert.equal(noCatalog.body.error.message, 'there is no ClusterCatalog nothing-here');
    const noChannel = await details(DEMO, 'pgpilot', '?channel=nightly');
    assert.equal(noChannel.status, 404);
    assert.match(noChannel.body.error.message, /has no channel nightly/);
    const badName = await details(DEMO, 'pg pilot');
    assert.equal(badName.status, 400);
    const unknownQuery = await details(DEMO, 'pgpilot', '?namespace=team1');
    assert.equal(unknownQuery.status, 400);
  });

  test('a disabled catalog is said to be disabled, with the way out', async () => {
    await sb.admin.patch(CLUSTER_CATALOG_TYPE, BROKEN, { spec: { availabilityMode: 'Unavailable' } });
    const r = await waitFor('the catalog disabled', async () => {
      const d = await details(BROKEN, 'wrecked');
      return d.status === 409 ? d : undefined;
    });
    assert.match(r.body.error.message, /is disabled \(availabilityMode Unavailable\)/);
  });

  test('someone who may not list ClusterCatalogs gets the API server’s refusal; granted, Install is refused', async () => {
    const refused = await details(DEMO, 'pgpilot', '', 'bob');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.reason, 'Forbidden');
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'pkg-catalog-reader' },
      rules: [{ apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['list'] }],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-pkg-catalog-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pkg-catalog-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const bob = await waitFor('bob reading the package', async () => {
      const r = await details(DEMO, 'pgpilot', '', 'bob');
      return r.status === 200 ? r.body : undefined;
    });
    assert.equal(bob.canInstall.allowed, false);
    assert.ok(bob.canInstall.reason);
  });

  // The demo catalog's pgpilot/catalog.yaml declares its icon as image/svg+xml in the olm.package
  // document; catalogd serves that document as it is.
  test('the package icon from catalogd’s content: its bytes, its type, under the SVG policy', async () => {
    await demoServing();
    const path = `/api/olm-v1/clustercatalogs/${DEMO}/packages/pgpilot/icon?v=1.4.0`;
    const res = await ICON(sb.request(path), { params: Promise.resolve({ name: DEMO, package: 'pgpilot' }) as never });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(
      Buffer.from(await res.arrayBuffer()).toString('utf8'),
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
    const etag = res.headers.get('etag') ?? '';
    const again = await ICON(sb.request(path, { headers: { 'if-none-match': etag } }), {
      params: Promise.resolve({ name: DEMO, package: 'pgpilot' }) as never,
    });
    assert.equal(again.status, 304);
    const bad = await ICON(sb.request(`${path}&size=big`), {
      params: Promise.resolve({ name: DEMO, package: 'pgpilot' }) as never,
    });
    assert.equal(bad.status, 400);
  });
});
