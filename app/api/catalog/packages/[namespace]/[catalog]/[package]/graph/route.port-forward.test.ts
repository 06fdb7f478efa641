// A cluster whose catalogs are reachable only inside it (the sandbox with catalog-address
// service: OLM's `<name>.<ns>.svc:50051` address, a catalog pod): the console reads the registry
// through a port-forward to the pod, as the person asking; a person who may not port-forward
// gets the PackageManifests, and is told the edges are unknown and why.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { GraphView } from '@/lib/catalog/graph-view';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';
import { clientAs, waitFor } from '@/lib/server/testing/cluster';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const CATALOG_DIR = join(import.meta.dirname, '..', '..', '..', '..', '..', '..', '..', '..', '..', 'shared', 'catalogs', 'gatekeeper-operator-product-v4.20');
const CATALOG = 'gatekeeper-operator-product-v4-20';
const PKG = 'gatekeeper-operator-product';
const CATSRC = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'catalogsources', namespaced: true, kind: 'CatalogSource' };

describe('catalogs reached by port-forward to their pod', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let graph: Handler;
  let list: (req: Request) => Promise<Response>;
  let details: Handler;
  before(async () => {
    sb = await withSandbox({ catalogs: [CATALOG_DIR], demo: false, catalogAddress: 'service' });
    await waitFor('the catalog ready', async () => {
      const cs = await clientAs(sb, 'admin').get<{ status?: { connectionState?: { lastObservedState?: string; address?: string } } }>(CATSRC, CATALOG, 'olm');
      return cs.status?.connectionState?.lastObservedState === 'READY' ? cs : undefined;
    });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ GET: graph } = await import('./route'));
    ({ GET: list } = await import('../../../../route'));
    ({ GET: details } = await import('../route'));
  });
  after(() => sb.close());

  const auth = (user: string) => ({ headers: { authorization: `Bearer ${sb.tokens[user]!}` } });
  const getGraph = async (user: string) => {
    const res = await graph(new Request(`http://console.local/api/catalog/packages/olm/${CATALOG}/${PKG}/graph?channel=stable`, auth(user)), { params: Promise.resolve({ namespace: 'olm', catalog: CATALOG, package: PKG }) });
    return { status: res.status, body: (await res.json()) as GraphView };
  };

  // First, before anyone's request has read the registry into the shared index.
  test('a viewer, who may not port-forward, gets the PackageManifests and is told why there are no edges', async () => {
    const res = await list(new Request('http://console.local/api/catalog/packages', auth('bob')));
    assert.equal(res.status, 200);
    const body = (await res.json()) as { catalogs: { name: string; source?: string; problem?: string }[]; packages: { name: string }[] };
    const cat = body.catalogs.find((c) => c.name === CATALOG)!;
    assert.equal(cat.source, 'packagemanifests');
    assert.match(cat.problem ?? '', new RegExp(`not reachable from the console, and port-forwarding to pod olm/${CATALOG}-\\w+ failed: .*forbidden`));
    assert.deepEqual(body.packages.map((p) => p.name), [PKG]);
    const g = await getGraph('bob');
    assert.equal(g.status, 200);
    assert.equal(g.body.edgesKnown, false);
    assert.deepEqual(g.body.edges, []);
  });

  test('an admin gets the registry through the port-forward: every edge of the channel', async () => {
    const res = await list(new Request('http://console.local/api/catalog/packages', auth('admin')));
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
    const d = await details(new Request(`http://console.local/api/catalog/packages/olm/${CATALOG}/${PKG}?channel=stable`, auth('admin')), { params: Promise.resolve({ namespace: 'olm', catalog: CATALOG, package: PKG }) });
    assert.equal(d.status, 200);
    const csv = ((await d.json()) as { selected: { csv?: { description: string } } }).selected.csv;
    assert.ok((csv?.description.length ?? 0) > 100, 'the long description, from the full CSV');
  });
});
