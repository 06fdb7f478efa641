// The console's client against APIs the cluster does not serve. kube-apiserver answers those with
// Go's plain "404 page not found" rather than a Status (the sandbox does too; conformance's
// `errors/404 …` checks compare it with a real cluster): the client must still read a NotFound,
// in the words kube-apiserver's Status and kubectl use, for reads, writes, discovery and watches,
// so that callers telling an absent API from a refusal (OCM hub and OLM v1 detection) see a 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { KubeClient, type ResourceType } from './client';
import { kubeConfigForToken, resolveClusterAccess } from './cluster-config';
import { KubeError } from './errors';
import { startInformer, type InformerState } from './informer';

const MANAGED_CLUSTER: ResourceType = {
  group: 'cluster.open-cluster-management.io',
  version: 'v1',
  plural: 'managedclusters',
  namespaced: false,
  kind: 'ManagedCluster',
};
/** A version of a group the cluster serves (OLM's CRDs) that none of its CRDs serves. */
const SUB_V9: ResourceType = {
  group: 'operators.coreos.com',
  version: 'v9',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};
const NOT_FOUND = 'the server could not find the requested resource';

async function failure(p: Promise<unknown>): Promise<KubeError> {
  const err = await p.then(
    () => assert.fail('expected the request to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof KubeError, String(err));
  return err;
}

describe('an API the cluster does not serve', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let admin: KubeClient;
  let person: (name: string) => KubeClient;
  before(async () => {
    sb = await withSandbox();
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    admin = new KubeClient(kc);
    const access = resolveClusterAccess({ kubeconfig: sb.kubeconfigPath, perUserTokens: true });
    person = (name) => new KubeClient(kubeConfigForToken(access, sb.tokens[name]!));
  });
  after(() => sb.close());

  test('reads and writes are NotFound in Kubernetes words, saying what was asked', async () => {
    const list = await failure(admin.list(MANAGED_CLUSTER));
    assert.deepEqual(list.toJSON(), { code: 404, reason: 'NotFound', message: `list managedclusters: ${NOT_FOUND}` });
    const get = await failure(admin.get(MANAGED_CLUSTER, 'local-cluster'));
    assert.deepEqual(get.toJSON(), {
      code: 404,
      reason: 'NotFound',
      message: `get ManagedCluster local-cluster: ${NOT_FOUND}`,
    });
    const create = await failure(
      admin.create(SUB_V9, { metadata: { name: 'x' }, spec: { name: 'x' } }, { namespace: 'team1' }),
    );
    assert.equal(create.code, 404);
    assert.equal(create.reason, 'NotFound');
  });

  test('discovery says it is not served, as a group and as a version of a served group', async () => {
    assert.equal(await admin.discover(MANAGED_CLUSTER.group, 'v1'), undefined);
    assert.equal(await admin.serves(MANAGED_CLUSTER), false);
    assert.equal(await admin.discover('operators.coreos.com', 'v9'), undefined);
    assert.equal(await person('bob').serves(SUB_V9), false);
  });

  test('someone allowed the request is told it is not there; someone who is not is refused first', async () => {
    const bob = await failure(person('bob').list(SUB_V9, { namespace: 'team1' }));
    assert.deepEqual(bob.toJSON(), { code: 404, reason: 'NotFound', message: `list subscriptions: ${NOT_FOUND}` });
    const alice = await failure(person('alice').list(MANAGED_CLUSTER));
    assert.equal(alice.code, 403);
    assert.equal(alice.reason, 'Forbidden');
    assert.match(alice.message, /User "alice" cannot list resource "managedclusters"/);
  });

  test('a watch of it fails with the same NotFound and is retried', async () => {
    const states: InformerState[] = [];
    const informer = startInformer(admin, MANAGED_CLUSTER, {
      resumeFrom: '1',
      maxBackoffMs: 50,
      onEvent: () => assert.fail('no events from an API that is not served'),
      onState: (s) => states.push(s),
    });
    try {
      const end = Date.now() + 5000;
      while (!states.some((s) => s.state === 'retrying') && Date.now() < end)
        await new Promise((r) => setTimeout(r, 20));
      const retrying = states.find((s) => s.state === 'retrying');
      assert.ok(retrying && retrying.state === 'retrying', 'the informer reports the failed watch');
      assert.ok(retrying.error instanceof KubeError);
      assert.deepEqual(retrying.error.toJSON(), {
        code: 404,
        reason: 'NotFound',
        message: `watch managedclusters: ${NOT_FOUND}`,
      });
    } finally {
      informer.stop();
    }
  });
});
