// What a version of a CatalogSource's package brings, through the route handler against the
// sandbox's demo catalog (whose bundles carry their objects inline, as `olm.bundle.object`), as a
// viewer sees it: the rules of pgpilot's CSV in words, its CRDs, its image; and the 404s and 400s.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe('GET /api/catalog/packages/<ns>/<catalog>/<package>/brings', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (pkg: string, query = '', user = 'bob', catalog = 'olm-console-demo') =>
    sb.call<Answer>(GET, `/api/catalog/packages/olm/${catalog}/${pkg}/brings${query}`, {
      user,
      bearer: true,
      params: { namespace: 'olm', catalog, package: pkg },
    });

  const words = (b: BundleBrings, scope: 'clusterWide' | 'namespaced') =>
    b[scope].flatMap((p) => p.rules.map((r) => `${p.serviceAccount}: ${r.words}`));

  test('a viewer sees the rules, CRDs and image of the default channel head, from the catalog', async () => {
    const { status, body } = await get('pgpilot');
    assert.equal(status, 200);
    assert.equal(body.csvName, 'pgpilot.v1.4.0');
    assert.equal(body.channel, 'stable');
    assert.equal(body.from, 'catalog');
    const b = body.brings!;
    // The demo bundle's CSV: clusterPermissions read namespaces; permissions on its own kinds,
    // configmaps, secrets and services.
    assert.deepEqual(words(b, 'clusterWide'), [
      'pgpilot-controller: read, list and watch namespaces across the cluster',
    ]);
    assert.deepEqual(words(b, 'namespaced'), [
      'pgpilot-controller: read, list, watch, create, update, patch and delete configmaps, secrets and services ' +
        'in the namespaces it is installed for',
      'pgpilot-controller: do everything on postgresclusters and postgresclusters/status in group ' +
        'pgpilot.example.com in the namespaces it is installed for',
      'pgpilot-controller: do everything on postgresbackups and postgresbackups/status in group ' +
        'pgpilot.example.com in the namespaces it is installed for',
    ]);
    assert.deepEqual(
      b.namespaced[0]!.rules.map((r) => r.notable.map((n) => n.code)),
      [['secrets'], ['wildcard'], ['wildcard']],
    );
    assert.deepEqual(
      b.crds.map((c) => [c.name, c.versions.map((v) => `${v.name} served=${v.served} storage=${v.storage}`)]),
      [
        ['postgresclusters.pgpilot.example.com', ['v1 served=true storage=true']],
        ['postgresbackups.pgpilot.example.com', ['v1 served=true storage=true']],
      ],
    );
    assert.deepEqual(
      b.images.map((i) => i.uses),
      [['container manager of deployment pgpilot-controller-manager', 'related image manager']],
    );
    assert.match(b.images[0]!.image, /^quay\.example\.com\/demo\/pgpilot@sha256:/);
    assert.deepEqual(b.webhooks, []);
  });

  test('another version by channel and version', async () => {
    const { status, body } = await get('pgpilot', '?channel=fast&version=1.2.0');
    assert.equal(status, 200);
    assert.equal(body.csvName, 'pgpilot.v1.2.0');
    assert.equal(body.brings?.csvName, 'pgpilot.v1.2.0');
  });

  test('a version alone is found in the channel that has it, the default channel first', async () => {
    const fast = await get('pgpilot', '?version=1.5.0');
    assert.equal(fast.status, 200);
    assert.deepEqual([fast.body.channel, fast.body.csvName], ['fast', 'pgpilot.v1.5.0']);
    const stable = await get('pgpilot', '?version=pgpilot.v1.2.0');
    assert.deepEqual([stable.body.channel, stable.body.csvName], ['stable', 'pgpilot.v1.2.0']);
  });

  test('an unknown version or package is a 404 that names it', async () => {
    const version = await get('pgpilot', '?version=9.9.9');
    assert.equal(version.status, 404);
    assert.match(version.body.error.message, /9\.9\.9/);
    const pkg = await get('no-such-package');
    assert.equal(pkg.status, 404);
    assert.match(pkg.body.error.message, /package no-such-package is not in catalog olm\/olm-console-demo/);
  });

  test('a query it does not know, or a name that cannot be one, is a 400', async () => {
    assert.equal((await get('pgpilot', '?channels=stable')).status, 400);
    assert.equal((await get('pg pilot')).status, 400);
  });
});
