// Which registry addresses another cluster's catalog index may dial from the console: only the
// console's own loopback, and only for a cluster whose API server is there too; anything else it
// reports is reached through that cluster's API server.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { RegistryRoutes } from '../../catalog/registry-route';
import { KubeClient } from '../../k8s/client';
import type { CatalogSource } from '../../olm/resources/catalog-source';
import { sharedCatalogIndex } from '../../catalog/catalog-index';
import {
  clusterCatalogIndex,
  isLoopback,
  keptClusterIndexes,
  MAX_CLUSTER_INDEXES,
  mayDialFor,
} from './catalog-indexes';
import type { FleetMember } from './members';

test('loopback addresses, with ports, brackets or a URL around them, are loopback', () => {
  for (const a of ['127.0.0.1:50051', '127.1.2.3', 'localhost:8443', '[::1]:50051', 'https://127.0.0.1:6443'])
    assert.equal(isLoopback(a), true, a);
});

test("a cluster's service names, pod addresses and other hosts are not", () => {
  for (const a of [
    'operatorhubio-catalog.olm.svc:50051',
    '10.96.0.12:50051',
    'localhost.example.com:443',
    '127.0.0.1.nip.io:50051',
    'https://api.prod.example.com:6443',
  ])
    assert.equal(isLoopback(a), false, a);
});

function member(server: string): FleetMember {
  return {
    name: 'prod-west',
    home: false,
    access: { mode: 'token', server, cluster: { name: 'prod-west', server, skipTLSVerify: false }, source: 'test' },
  };
}

test("another cluster's registry address is never dialled from the console unless both are on its loopback", async () => {
  // Something listens at the address, as the home cluster's own registry could.
  let dialled = 0;
  const server = createServer((s) => {
    dialled++;
    s.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Nothing is asked of the cluster: the KubeConfig points nowhere, so a port-forward fails.
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const cs = {
    metadata: { name: 'demo', namespace: 'olm' },
    spec: { sourceType: 'grpc', address },
    status: { connectionState: { address, lastObservedState: 'READY' } },
  } as unknown as CatalogSource;
  const far = new RegistryRoutes(Date.now, new Set(['olm']), mayDialFor(member('https://api.prod-west.example:6443')));
  await assert.rejects(
    far.route(new KubeClient(kc), cs),
    /the console does not dial 127\.0\.0\.1:\d+ for this cluster/,
  );
  assert.equal(dialled, 0);
  const beside = new RegistryRoutes(Date.now, new Set(['olm']), mayDialFor(member('https://127.0.0.1:6443')));
  assert.deepEqual(await beside.route(new KubeClient(kc), cs), { dial: address, via: 'direct', cacheKey: address });
  await Promise.all([far.close(), beside.close()]);
  server.close();
});

test("other clusters' catalog indexes are kept for the 8 clusters last asked about, the oldest dropped", () => {
  const at = (i: number) => member(`https://127.0.0.1:${7000 + i}`);
  const named = (i: number): FleetMember => ({ ...at(i), name: `cluster-${i}` });
  const first = clusterCatalogIndex(named(1));
  for (let i = 2; i <= MAX_CLUSTER_INDEXES; i++) clusterCatalogIndex(named(i));
  // cluster-1 asked again: the same index, and now the most recently used.
  assert.equal(clusterCatalogIndex(named(1)), first);
  clusterCatalogIndex(named(MAX_CLUSTER_INDEXES + 1));
  const kept = keptClusterIndexes();
  assert.equal(kept.length, MAX_CLUSTER_INDEXES);
  assert.ok(!kept.includes('cluster-2'), `cluster-2, the least recently used, is dropped: ${kept.join(', ')}`);
  assert.ok(kept.includes('cluster-1'));
  // Asked about again, a dropped cluster is read into an index of its own anew.
  const second = clusterCatalogIndex(named(2));
  assert.ok(keptClusterIndexes().includes('cluster-2'));
  assert.notEqual(second, clusterCatalogIndex(named(3)));
  assert.equal(keptClusterIndexes().length, MAX_CLUSTER_INDEXES);
});

test('the home cluster uses the shared index, never counted among the kept ones', () => {
  const home: FleetMember = { ...member('https://127.0.0.1:6443'), name: 'home', home: true };
  assert.equal(clusterCatalogIndex(home), sharedCatalogIndex());
  assert.ok(!keptClusterIndexes().includes('home'));
});
