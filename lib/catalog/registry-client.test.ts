// The console reading a catalog through the registry API gets the same catalog as the files:
// served by the sandbox's registry server from gatekeeper, fetched with RegistryClient, rebuilt
// with catalogFromRegistry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeProblems } from '../olm/fbc/catalog';
import { catalogFromRegistry } from '../olm/fbc/from-registry';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { startRegistryServer } from '../sandbox/registry/registry-server';
import { RegistryClient } from './registry-client';
import { needsSharedCatalogs, sharedCatalog } from '../testing/shared-catalogs';

const dir = sharedCatalog('gatekeeper-operator-product-v4.20');

describe('catalogFromRegistry over a live registry', needsSharedCatalogs, () => {
  test('packages, default channels, channel entries with their edges, versions: as in the files', async () => {
    const fromFiles = loadCatalog(dir);
    const server = await startRegistryServer({ catalog: fromFiles });
    const client = new RegistryClient(server.address, 10_000);
    try {
      const names = await client.listPackages();
      const packages = await Promise.all(names.map((n) => client.getPackage(n)));
      const viaApi = catalogFromRegistry(packages, await client.listBundles());
      assert.deepEqual(describeProblems(viaApi), []);
      const a = fromFiles.packages.get('gatekeeper-operator-product')!;
      const b = viaApi.packages.get('gatekeeper-operator-product')!;
      assert.equal(b.defaultChannel, a.defaultChannel);
      assert.deepEqual([...b.channels.keys()].sort(), [...a.channels.keys()].sort());
      for (const [name, ch] of a.channels) {
        const sortByName = (x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name);
        assert.deepEqual([...b.channels.get(name)!.entries].sort(sortByName), [...ch.entries].sort(sortByName), name);
      }
      for (const [name, bundle] of a.bundles) {
        assert.equal(b.bundles.get(name)?.version, bundle.version, name);
        assert.equal(b.bundles.get(name)?.image, bundle.image, name);
      }
      assert.deepEqual(
        b.bundles.get('gatekeeper-operator-product.v3.21.0')?.channels,
        a.bundles.get('gatekeeper-operator-product.v3.21.0')?.channels,
      );
    } finally {
      client.close();
      await server.stop();
    }
  });
});
