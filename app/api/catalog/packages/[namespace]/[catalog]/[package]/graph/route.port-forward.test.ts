// A cluster whose catalogs are reachable only inside it (the sandbox with catalog-address
// service: OLM's `<name>.<ns>.svc:50051` address, a catalog pod): the console reads the registry
// through a port-forward to the pod, as the person asking; a person who may not port-forward
// gets the PackageManifests, and is told the edges are unknown and why.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { GraphView } from '@/lib/catalog/graph-view';
import { CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';
import { needsSharedCatalogs, sharedCatalog } from '@/lib/testing/shared-catalogs';

const CATALOG_DIR = sharedCatalog('gatekeeper-operator-product-v4.20');
const CATALOG = 'gatekeeper-operator-product-v4-20';
const PKG = 'gatekeeper-operator-product';
describe('catalogs reached by port-forward to their pod', needsSharedCatalogs, () => {
  const sb = routeSandbox({ catalogs: [CATALOG_DIR], demo: false, catalogAddress: 'service' });
  let graph: Handler;
  let list: (req: Request) => Promise<Response>;
  let details: Handler;
  before(async () => {
    await waitFor('the catalog ready', async () => {
      const cs = await sb.admin.get<{
        status?: { connectionState?: { lastObservedState?: string; address?: string } };
      }>(CATALOG_SOURCE_TYPE, CATALOG, 'olm');
      return cs.status?.connectionState?.lastObservedState === 'READY' ? cs : undefined;
    });
    ({ GET: graph } = await import('./route'));
    ({ GET: list } = await import('../../../../route'));
    ({ GET: details } = await import('../route'));
  });

  const requestAs = (path: string, user: string) => sb.request(path, { user, bearer: true });
  const getGraph = (user: string) =>
    sb.call<GraphView>(graph, `/api/catalog/packages/olm/${CATALOG}/${PKG}/graph?channel=stable`, {
      user,
      bearer: true,
      params: { namespace: 'olm', catalog: CATALOG, package: PKG },
    });

  // First, before anyone's request has read the registry into the shared index.
  test('a viewer, who may not port-forward, gets the PackageManifests and is told why there are no edges', async () => {
    const res = await list(requestAs('/api/catalog/packages', 'bob'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      catalogs: { name: string; source?: string; problem?: string }[];
      packages: { name: string }[];
    };
    const cat = body.catalogs.find((c) => c.name === CATALOG)!;
    assert.equal(cat.source, 'packagemanifests');
    assert.match(
      cat.problem ?? '',
      new RegExp(`not reachable from the console, and port-forwarding to pod olm/${CATALOG}-\\w+ failed: .*forbidden`),
    );
    assert.deepEqual(
      body.packages.map((p) => p.name),
      [PKG],
    );
    const g = await getGraph('bob');
    assert.equal(g.status, 200);
    assert.equal(g.body.edgesKnown, false);
    assert.deepEqual(g.body.edges, []);
  });

  test('an admin gets the registry through the port-forward: every edge of the channel', async () => {
    const res = await list(requestAs('/api/catalog/packages', 'admin'));
    const body = (await res.json()) as { catalogs: { name: string; source?: string; problem?: string }[] };
    const cat = body.catalogs.find((c) => c.name === CATALOG)!;
    assert.equal(cat.source, 'registry', cat.problem);
    const g = await getGraph('admin');
    assert.equal(g.status, 200);
    assert.equal(g.body.edgesKnown, true);
    // Read by hand from the catalog: stable has 8 replaces, 3 skips and 60 skipRange edges.
    assert.deepEqual(g.body.edgeCounts, { replaces: 8, skips: 3, skipRange: 60 });
    assert.equal(g.body.head, `${PKG}.v3.21.0`);
    // One bundle's whole CSV (GetBundle) comes the same way.
    const d = await details(requestAs(`/api/catalog/packages/olm/${CATALOG}/${PKG}?channel=stable`, 'admin'), {
      params: Promise.resolve({ namespace: 'olm', catalog: CATALOG, package: PKG }),
    });
    assert.equal(d.status, 200);
    const csv = ((await d.json()) as { selected: { csv?: { description: string } } }).selected.csv;
    assert.ok((csv?.description.length ?? 0) > 100, 'the long description, from the full CSV');
  });
});
