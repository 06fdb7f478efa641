// Warming the shared catalog index at start, against the sandbox: the global catalogs are read
// before anyone asks, and a catalog that does not come up is named rather than waited on forever.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sharedCatalogIndex } from '../catalog/catalog-index';
import { CATALOG_SOURCE_TYPE } from '../olm/resources/catalog-source';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { clientAs } from './testing/cluster';
import { warmCatalogIndex } from './warm-index';

let sb: Awaited<ReturnType<typeof withSandbox>>;
before(async () => {
  sb = await withSandbox({ deploymentDelayMs: 0 });
});
after(() => sb.close());

test('the global catalogs are read into the shared index before anyone asks', async () => {
  assert.equal(sharedCatalogIndex().catalogOf('olm', 'olm-console-demo'), undefined);
  const lines: string[] = [];
  const r = await warmCatalogIndex(clientAs(sb, 'admin'), {
    patienceMs: 20_000,
    retryMs: 200,
    log: (l) => lines.push(l),
  });
  assert.equal(r.read, 1);
  assert.deepEqual(r.waiting, []);
  assert.ok(sharedCatalogIndex().catalogOf('olm', 'olm-console-demo')?.packages.has('pgpilot'));
  assert.match(lines.join('\n'), /catalog index ready: 1 catalog, 13 packages/);
});

test('a catalog that never comes up is named, and warming gives up when its patience runs out', async () => {
  const admin = clientAs(sb, 'admin');
  await admin.create(CATALOG_SOURCE_TYPE, {
    metadata: { name: 'nowhere', namespace: 'olm' },
    spec: { sourceType: 'grpc', address: '127.0.0.1:1', displayName: 'Nowhere' },
  });
  const r = await warmCatalogIndex(admin, { patienceMs: 1_500, retryMs: 200 });
  assert.equal(r.read, 1, 'the demo catalog is read');
  assert.equal(r.waiting.length, 1);
  assert.match(r.waiting[0]!, /^olm\/nowhere: /);
});
