// Catalogs as a real cluster runs them (`--catalog-address service`): OLM's in-cluster address,
// a catalog pod and Service, and the registry reached only through pods/portforward, driven by
// @kubernetes/client-node's PortForward (an independent client of the same protocol).
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CoreV1Api, CustomObjectsApi, KubeConfig, PortForward } from '@kubernetes/client-node';
import { healthCheck } from '../olm/catalog-sources';
import { withSandbox } from '../testing/sandbox-fixture';
import { needsSharedCatalogs, sharedCatalog } from '../../testing/shared-catalogs';

const CATALOG = sharedCatalog('gatekeeper-operator-product-v4.20');
const NAME = 'gatekeeper-operator-product-v4-20';

function kubeConfig(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** A local port whose connections client-node forwards to the pod, as its documentation shows. */
async function forwardWithClientNode(
  kc: KubeConfig,
  pod: string,
  port: number,
  errors: string[],
): Promise<{ address: string; server: Server }> {
  const pf = new PortForward(kc);
  const server = createServer((sock) => {
    pf.portForward('olm', pod, [port], sock, { write: (b: Buffer) => errors.push(b.toString()) } as never, sock).catch(
      (err: unknown) => {
        // client-node rejects with the WebSocket's ErrorEvent, whose message carries the HTTP answer.
        errors.push(
          err instanceof Error ? err.message : String((err as { message?: unknown }).message ?? JSON.stringify(err)),
        );
        sock.destroy();
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('catalogs behind their pods (catalog-address service)', needsSharedCatalogs, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let core: CoreV1Api;
  let pod: string;
  const servers: Server[] = [];
  before(async () => {
    sb = await withSandbox({ catalogs: [CATALOG], demo: false, catalogAddress: 'service' });
    core = kubeConfig(sb.kubeconfigPath).makeApiClient(CoreV1Api);
    for (let i = 0; i < 200 && !pod; i++) {
      pod =
        (await core.listNamespacedPod({ namespace: 'olm', labelSelector: `olm.catalogSource=${NAME}` })).items[0]
          ?.metadata?.name ?? '';
      if (!pod) await new Promise((r) => setTimeout(r, 50));
    }
  });
  after(async () => {
    for (const s of servers) s.close();
    await sb.close();
  });

  test('the CatalogSource reports the in-cluster address; its pod and Service are there as OLM makes them', async () => {
    const custom = kubeConfig(sb.kubeconfigPath).makeApiClient(CustomObjectsApi);
    const cs = (await custom.getNamespacedCustomObject({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      namespace: 'olm',
      plural: 'catalogsources',
      name: NAME,
    })) as { status: { connectionState: { address: string }; registryService: { serviceName: string; port: string } } };
    assert.equal(cs.status.connectionState.address, `${NAME}.olm.svc:50051`);
    assert.deepEqual(
      { name: cs.status.registryService.serviceName, port: cs.status.registryService.port },
      { name: NAME, port: '50051' },
    );
    const p = await core.readNamespacedPod({ namespace: 'olm', name: pod });
    assert.equal(p.status?.phase, 'Running');
    assert.equal(p.spec?.containers[0]?.ports?.[0]?.containerPort, 50051);
    assert.equal(p.metadata?.ownerReferences?.[0]?.kind, 'CatalogSource');
    const svc = await core.readNamespacedService({ namespace: 'olm', name: NAME });
    assert.deepEqual(svc.spec?.selector, { 'olm.catalogSource': NAME });
    assert.equal(
      await healthCheck(cs.status.connectionState.address),
      false,
      'the in-cluster name does not resolve from here',
    );
  });

  test('the registry answers through pods/portforward (client-node), SERVING', async () => {
    const errors: string[] = [];
    const fwd = await forwardWithClientNode(kubeConfig(sb.kubeconfigPath), pod, 50051, errors);
    servers.push(fwd.server);
    assert.equal(await healthCheck(fwd.address), true, `health check through the forward; errors: ${errors.join(' ')}`);
  });

  test('port-forward needs create on pods/portforward: a viewer is refused with the reason', async () => {
    const errors: string[] = [];
    const fwd = await forwardWithClientNode(kubeConfig(sb.kubeconfigs.bob!), pod, 50051, errors);
    servers.push(fwd.server);
    assert.equal(await healthCheck(fwd.address), false);
    assert.match(errors.join(' '), /403|Forbidden|forbidden/);
  });

  test('deleting the CatalogSource takes its pod and Service with it', async () => {
    const custom = kubeConfig(sb.kubeconfigPath).makeApiClient(CustomObjectsApi);
    await custom.deleteNamespacedCustomObject({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      namespace: 'olm',
      plural: 'catalogsources',
      name: NAME,
    });
    for (let i = 0; i < 100; i++) {
      const left =
        (await core.listNamespacedPod({ namespace: 'olm', labelSelector: `olm.catalogSource=${NAME}` })).items.length +
        (await core.listNamespacedService({ namespace: 'olm' })).items.filter((s) => s.metadata?.name === NAME).length;
      if (left === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail('the pod or the Service outlived their CatalogSource');
  });
});
