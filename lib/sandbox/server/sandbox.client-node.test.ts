// The sandbox driven over HTTPS by @kubernetes/client-node, as the console drives a cluster.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ApiException,
  AuthorizationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { withSandbox } from '../testing/sandbox-fixture';

type Fixture = Awaited<ReturnType<typeof withSandbox>>;

function clientsFor(file: string) {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return {
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    authz: kc.makeApiClient(AuthorizationV1Api),
  };
}

async function statusOf(p: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected an ApiException, got ${String(err)}`);
    const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    return { code: err.code, reason: body.reason, message: body.message };
  }
  assert.fail('expected the call to fail');
}

describe('sandbox API with @kubernetes/client-node', () => {
  let sb: Fixture;
  let admin: ReturnType<typeof clientsFor>;
  let alice: ReturnType<typeof clientsFor>;
  before(async () => {
    sb = await withSandbox();
    admin = clientsFor(sb.kubeconfigPath);
    alice = clientsFor(sb.kubeconfigs.alice!);
  });
  after(() => sb.close());

  test('a fresh cluster has the upstream OLM namespaces', async () => {
    const names = (await admin.core.listNamespace()).items.map((n) => n.metadata?.name);
    for (const n of ['default', 'kube-system', 'olm', 'operators']) assert.ok(names.includes(n), n);
  });

  test('create, get, replace; a stale resourceVersion is 409 Conflict', async () => {
    const created = await admin.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'cfg' }, data: { a: '1' } },
    });
    const got = await admin.core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    assert.equal(got.metadata?.uid, created.metadata?.uid);
    const replaced = await admin.core.replaceNamespacedConfigMap({
      namespace: 'default',
      name: 'cfg',
      body: { ...got, data: { a: '2' } },
    });
    assert.notEqual(replaced.metadata?.resourceVersion, got.metadata?.resourceVersion);
    const stale = await statusOf(
      admin.core.replaceNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: { ...got, data: { a: '3' } } }),
    );
    assert.equal(stale.code, 409);
    assert.equal(stale.reason, 'Conflict');
    assert.match(
      stale.message,
      /the object has been modified; please apply your changes to the latest version and try again/,
    );
  });

  test('404, 409 AlreadyExists and 422 Invalid in Kubernetes words', async () => {
    assert.deepEqual(await statusOf(admin.core.readNamespacedConfigMap({ namespace: 'default', name: 'nope' })), {
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "nope" not found',
    });
    await admin.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'dup' } } });
    assert.deepEqual(
      await statusOf(
        admin.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'dup' } } }),
      ),
      { code: 409, reason: 'AlreadyExists', message: 'configmaps "dup" already exists' },
    );
    const invalid = await statusOf(
      admin.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'Not_Valid' } } }),
    );
    assert.equal(invalid.code, 422);
    assert.equal(invalid.reason, 'Invalid');
    const missingNs = await statusOf(
      admin.core.createNamespacedConfigMap({ namespace: 'nowhere', body: { metadata: { name: 'x' } } }),
    );
    assert.deepEqual(missingNs, { code: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found' });
  });

  test('a namespace-only user works in team1 and is refused elsewhere with 403', async () => {
    const sub = {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 'etcd', labels: { team: 'one' } },
      spec: { name: 'etcd', source: 'demo', sourceNamespace: 'olm', channel: 'alpha' },
    };
    await alice.custom.createNamespacedCustomObject({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      namespace: 'team1',
      plural: 'subscriptions',
      body: sub,
    });
    const denied = await statusOf(
      alice.custom.createNamespacedCustomObject({
        group: 'operators.coreos.com',
        version: 'v1alpha1',
        namespace: 'default',
        plural: 'subscriptions',
        body: sub,
      }),
    );
    assert.equal(denied.code, 403);
    assert.equal(
      denied.message,
      'subscriptions.operators.coreos.com is forbidden: User "alice" cannot create resource "subscriptions" in API group "operators.coreos.com" in the namespace "default"',
    );
    const list = (await admin.custom.listNamespacedCustomObject({
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      namespace: 'team1',
      plural: 'subscriptions',
      labelSelector: 'team in (one,two)',
    })) as { items: unknown[] };
    assert.equal(list.items.length, 1);
  });

  test('SelfSubjectAccessReview answers per user', async () => {
    const review = (ns: string) => ({
      spec: {
        resourceAttributes: { verb: 'create', group: 'operators.coreos.com', resource: 'subscriptions', namespace: ns },
      },
    });
    assert.equal((await alice.authz.createSelfSubjectAccessReview({ body: review('team1') })).status?.allowed, true);
    assert.equal((await alice.authz.createSelfSubjectAccessReview({ body: review('olm') })).status?.allowed, false);
  });

  test('the status subresource changes only status; the main resource keeps it', async () => {
    const base = {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      namespace: 'team1',
      plural: 'subscriptions',
      name: 'etcd',
    };
    const cur = (await admin.custom.getNamespacedCustomObject(base)) as {
      metadata: { generation: number };
      spec: unknown;
    };
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await admin.custom.patchNamespacedCustomObjectStatus(
      { ...base, body: { status: { state: 'AtLatestKnown' }, spec: { channel: 'ignored' } } },
      merge,
    );
    const after1 = (await admin.custom.getNamespacedCustomObject(base)) as {
      status: { state: string };
      spec: { channel: string };
      metadata: { generation: number };
    };
    assert.equal(after1.status.state, 'AtLatestKnown');
    assert.equal(after1.spec.channel, 'alpha');
    assert.equal(after1.metadata.generation, cur.metadata.generation);
    await admin.custom.patchNamespacedCustomObject({
      ...base,
      body: [
        { op: 'replace', path: '/spec/channel', value: 'beta' },
        { op: 'replace', path: '/status/state', value: 'ignored' },
      ],
    });
    const after2 = (await admin.custom.getNamespacedCustomObject(base)) as {
      status: { state: string };
      spec: { channel: string };
      metadata: { generation: number };
    };
    assert.equal(after2.spec.channel, 'beta');
    assert.equal(after2.status.state, 'AtLatestKnown');
    assert.equal(after2.metadata.generation, cur.metadata.generation + 1);
  });

  test('owner references: deleting the owner collects its dependents', async () => {
    const owner = await admin.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'owner' } },
    });
    await admin.core.createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
        },
      },
    });
    await admin.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'owner' });
    assert.equal(
      (await statusOf(admin.core.readNamespacedConfigMap({ namespace: 'default', name: 'dependent' }))).code,
      404,
    );
  });
});
