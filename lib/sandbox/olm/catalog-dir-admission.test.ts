// Only cluster-admins may point a CatalogSource at a folder of the sandbox's host; and a client
// cannot create an object with a status of its choosing (the API server drops it for kinds with
// a status subresource).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ApiException,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  RbacAuthorizationV1Api,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { withSandbox } from '../testing/sandbox-fixture';
import { CATALOG_DIR_ANNOTATION } from './catalog-sources';
import { sharedCatalogs } from '../../testing/shared-catalogs';

const CS = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'catalogsources' };
const catalogs = sharedCatalogs;

function custom(file: string): CustomObjectsApi {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc.makeApiClient(CustomObjectsApi);
}

async function code(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
    return { code: 200, message: '' };
  } catch (err) {
    assert.ok(err instanceof ApiException, String(err));
    return { code: err.code, message: String((JSON.parse(err.body as string) as { message: string }).message) };
  }
}

describe('sandbox: CatalogSource host folders and forged status', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  before(async () => {
    sb = await withSandbox({ demo: false });
    // OLM's aggregated roles give namespace admins no CatalogSource writes; grant them, as the
    // probe that found the hole had.
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'team1',
      body: {
        metadata: { name: 'catalogs' },
        rules: [{ apiGroups: ['operators.coreos.com'], resources: ['catalogsources'], verbs: ['*'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'team1',
      body: {
        metadata: { name: 'alice-catalogs' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'catalogs' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    });
  });
  after(() => sb.close());

  test('a namespace admin cannot name a host folder, in a create or a patch; a cluster-admin can', async () => {
    const alice = custom(join(sb.dir, 'kubeconfig-alice'));
    const body = (dir: string) => ({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'CatalogSource',
      metadata: { name: 'etc', annotations: { [CATALOG_DIR_ANNOTATION]: dir } },
      spec: { sourceType: 'grpc' },
    });
    const refused = await code(alice.createNamespacedCustomObject({ ...CS, namespace: 'team1', body: body('/etc') }));
    assert.equal(refused.code, 403);
    assert.match(refused.message, /User "alice" cannot set annotation sandbox\.olm-console\.dev\/catalog-dir/);

    // Without the annotation the same user may create a CatalogSource (an address-only one) …
    assert.equal(
      (
        await code(
          alice.createNamespacedCustomObject({
            ...CS,
            namespace: 'team1',
            body: {
              apiVersion: 'operators.coreos.com/v1alpha1',
              kind: 'CatalogSource',
              metadata: { name: 'addr' },
              spec: { sourceType: 'grpc', address: '127.0.0.1:1' },
            },
          }),
        )
      ).code,
      200,
    );
    // … but not add the annotation afterwards.
    const patched = await code(
      alice.patchNamespacedCustomObject(
        {
          ...CS,
          namespace: 'team1',
          name: 'addr',
          body: { metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: '/etc' } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    assert.equal(patched.code, 403);

    const admin = custom(sb.kubeconfigPath);
    assert.equal(
      (
        await code(
          admin.createNamespacedCustomObject({
            ...CS,
            namespace: 'team1',
            body: body(join(catalogs, 'gatekeeper-operator-product-v4.20')),
          }),
        )
      ).code,
      200,
    );
    // Changing something else of a source an admin pointed at a folder stays allowed to alice.
    assert.equal(
      (
        await code(
          alice.patchNamespacedCustomObject(
            { ...CS, namespace: 'team1', name: 'etc', body: { spec: { displayName: 'Gatekeeper' } } },
            setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
          ),
        )
      ).code,
      200,
    );
  });

  test('status in a create request is ignored', async () => {
    const admin = custom(sb.kubeconfigPath);
    const created = (await admin.createNamespacedCustomObject({
      ...CS,
      namespace: 'default',
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'forged' },
        spec: { sourceType: 'grpc', address: '127.0.0.1:1' },
        status: { connectionState: { lastObservedState: 'READY', address: 'evil:1' } },
      },
    })) as { status?: unknown };
    assert.equal(created.status, undefined);
    const sub = (await admin.createNamespacedCustomObject({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      plural: 'subscriptions',
      namespace: 'default',
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 's' },
        spec: { name: 'x', source: 'y', sourceNamespace: 'olm' },
        status: { installedCSV: 'forged.v1' },
      },
    })) as { status?: { installedCSV?: string } };
    assert.equal(sub.status?.installedCSV, undefined);
  });
});
