// The console's Kubernetes client against the sandbox: it acts with the identity in its
// KubeConfig, and errors come back with the API server's code, reason and message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { KubeClient, type KubeObject, type ResourceType } from './client';
import { kubeConfigForToken, resolveClusterAccess } from './cluster-config';
import { KubeError } from './errors';

const SUB: ResourceType = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};

describe('KubeClient', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  before(async () => {
    sb = await withSandbox();
  });
  after(() => sb.close());

  test('in token mode each person acts with their own token', async () => {
    const access = resolveClusterAccess({ kubeconfig: sb.kubeconfigPath, perUserTokens: true });
    assert.equal(access.mode, 'token');
    assert.equal(access.shared, undefined, 'no shared identity in token mode');
    const alice = new KubeClient(kubeConfigForToken(access, sb.tokens.alice!));
    const body = { metadata: { name: 'etcd' }, spec: { name: 'etcd', source: 'demo', sourceNamespace: 'olm' } };
    const created = await alice.create<KubeObject>(SUB, body, { namespace: 'team1' });
    assert.equal(created.metadata?.namespace, 'team1');
    const err = await alice.create(SUB, body, { namespace: 'default' }).catch((e: unknown) => e);
    assert.ok(err instanceof KubeError);
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.match(err.message, /User "alice" cannot create resource "subscriptions"/);
  });

  test('merge and JSON patches, paged lists, delete', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    const admin = new KubeClient(kc);
    const patched = await admin.patch<{ spec: { channel?: string } }>(
      SUB,
      'etcd',
      { spec: { channel: 'stable' } },
      { namespace: 'team1' },
    );
    assert.equal(patched.spec.channel, 'stable');
    const jp = await admin.patch<{ spec: { channel?: string } }>(
      SUB,
      'etcd',
      [{ op: 'replace', path: '/spec/channel', value: 'fast' }],
      { namespace: 'team1', type: 'json' },
    );
    assert.equal(jp.spec.channel, 'fast');
    for (let i = 0; i < 5; i++)
      await admin.create(
        SUB,
        { metadata: { name: `s${i}` }, spec: { name: 'x', source: 'demo', sourceNamespace: 'olm' } },
        { namespace: 'team1' },
      );
    const all = await admin.listAll(SUB, { namespace: 'team1', limit: 2 });
    assert.equal(all.items.length, 6);
    await admin.delete(SUB, 's0', { namespace: 'team1' });
    const missing = await admin.get(SUB, 's0', 'team1').catch((e: unknown) => e);
    assert.ok(
      missing instanceof KubeError &&
        missing.code === 404 &&
        missing.message === 'subscriptions.operators.coreos.com "s0" not found',
    );
  });

  test('a cluster that is down is a 503 naming the server', async () => {
    const access = resolveClusterAccess({ kubeconfig: sb.kubeconfigPath, perUserTokens: true });
    const down = { ...access, cluster: { ...access.cluster, server: 'https://127.0.0.1:1' } };
    const err = await new KubeClient(kubeConfigForToken(down, 'x')).list(SUB).catch((e: unknown) => e);
    assert.ok(err instanceof KubeError);
    assert.equal(err.code, 503);
    assert.match(err.message, /cannot reach the cluster at https:\/\/127\.0\.0\.1:1/);
  });
});
