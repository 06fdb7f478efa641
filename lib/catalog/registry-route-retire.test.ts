// Routes being dropped (another cluster's catalog index, the least recently used of those kept) let
// a read under way through a port-forward finish, and close the forward once it is over. Against
// the sandbox with catalogs behind their pods (`catalogAddress: 'service'`), so the registry is
// reached only through pods/portforward, as on a real cluster.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { needsSharedCatalogs, sharedCatalog } from '../testing/shared-catalogs';
import { RegistryClient } from './registry-client';
import { reachable, RegistryRoutes } from './registry-route';

// A published catalog whose ListBundles stream is megabytes, so that it spans many reads of the
// forward's socket and a close in the middle of it has something left to cut.
const CATALOG = 'okderators';

describe('retired registry routes', needsSharedCatalogs, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let admin: KubeClient;
  let catalog: CatalogSource;
  before(async () => {
    sb = await withSandbox({ catalogs: [sharedCatalog(CATALOG)], demo: false, catalogAddress: 'service' });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    admin = new KubeClient(kc);
    for (let i = 0; i < 200; i++) {
      catalog = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, CATALOG, 'olm');
      if (catalog.status?.registryService?.serviceName) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  after(() => sb.close());

  /** Routes that never dial an address themselves: every registry is reached through its pod. */
  const forwardOnly = () => new RegistryRoutes(Date.now, new Set(['olm']), () => false);

  test('a ListBundles stream under way when the routes are retired finishes whole', async () => {
    const whole = forwardOnly();
    const route = await whole.route(admin, catalog);
    assert.equal(route.via, 'port-forward');
    const before = new RegistryClient(route.dial);
    const expected = (await before.listBundles()).length;
    before.close();
    await whole.close();
    assert.ok(expected > 10, `the catalog has bundles (${expected})`);

    const routes = forwardOnly();
    const { dial } = await routes.route(admin, catalog);
    const client = new RegistryClient(dial);
    let retiring: Promise<void> | undefined;
    const bundles = await client.listBundles((b) => {
      // Dropped while the first messages arrive: the stream is open through the forward.
      retiring ??= routes.retire();
      return b;
    });
    await retiring;
    client.close();
    assert.equal(bundles.length, expected, 'every bundle of the stream arrived');

    // Once nothing reads through it, the next sweep closes the forward.
    await new Promise((r) => setTimeout(r, 100));
    await routes.retire();
    assert.equal(await reachable(dial), false, 'the forward is closed once its read is over');
  });

  test('close, unlike retire, cuts a read under way', async () => {
    const routes = forwardOnly();
    const { dial } = await routes.route(admin, catalog);
    const client = new RegistryClient(dial);
    let closing: Promise<void> | undefined;
    await assert.rejects(
      client.listBundles((b) => {
        closing ??= routes.close();
        return b;
      }),
    );
    await closing;
    client.close();
  });
});
