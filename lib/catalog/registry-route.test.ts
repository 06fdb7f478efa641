import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import type { CatalogSource } from '../olm/resources/catalog-source';
import { reachable, RegistryRoutes, trustedCatalogNamespaces } from './registry-route';

test('reachable: a listening port answers; a cluster-only name or a closed port does not', async () => {
  const server = createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  assert.equal(await reachable(`127.0.0.1:${port}`), true);
  server.close();
  assert.equal(await reachable(`127.0.0.1:${port}`), false, 'closed now');
  assert.equal(await reachable('catalog.olm.svc.invalid:50051'), false);
  assert.equal(await reachable('no-port'), false);
});

test('a catalog given by a spec.address that does not answer has no pod to forward to: said plainly', async () => {
  // No cluster call is made for it: the KubeConfig points nowhere.
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const routes = new RegistryRoutes();
  const cs = {
    metadata: { name: 'ext', namespace: 'olm' },
    spec: { sourceType: 'grpc', address: 'registry.example.invalid:50051' },
    status: { connectionState: { address: 'registry.example.invalid:50051', lastObservedState: 'READY' } },
  } as unknown as CatalogSource;
  await assert.rejects(
    routes.route(new KubeClient(kc), cs),
    /the registry at registry\.example\.invalid:50051 does not answer from the console/,
  );
  await routes.close();
});

test('an address named by a CatalogSource outside the trusted namespaces is never dialled', async () => {
  // Something listens at the address, as an internal service a namespace admin aims at would.
  let dialled = 0;
  const server = createServer((s) => {
    dialled++;
    s.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const routes = new RegistryRoutes(Date.now, trustedCatalogNamespaces({}));
  const cs = (ns: string) =>
    ({
      metadata: { name: 'internal', namespace: ns },
      spec: { sourceType: 'grpc', address },
      status: { connectionState: { address, lastObservedState: 'READY' } },
    }) as unknown as CatalogSource;
  await assert.rejects(
    routes.route(new KubeClient(kc), cs('team1')),
    /does not dial addresses named by CatalogSources in namespace team1, which is not a trusted catalog namespace \(OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES: olm, openshift-marketplace\)/,
  );
  assert.equal(dialled, 0);
  assert.deepEqual(await routes.route(new KubeClient(kc), cs('olm')), {
    dial: address,
    via: 'direct',
    cacheKey: address,
  });
  await routes.close();
  server.close();
  assert.deepEqual(
    [...trustedCatalogNamespaces({ OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES: 'catalogs, olm' })],
    ['catalogs', 'olm'],
  );
  assert.deepEqual([...trustedCatalogNamespaces({ OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES: '' })], []);
});
