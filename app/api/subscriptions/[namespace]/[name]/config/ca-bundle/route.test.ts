// The trusted CA bundle's ConfigMap on the sandbox's OpenShift flavour: the operator's config names
// one that does not exist, the config view says so, and an administrator creates it labelled for
// OpenShift to fill; a viewer is refused by the cluster; a second create is the API server's 409.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { OPENSHIFT_INJECT_CA_LABEL } from '@/lib/olm/install/operator-config-form';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { operatorConfig } from '@/lib/server/subscription-config';
import { clientAs, waitFor } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const CM = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };

describe('POST /api/subscriptions/<ns>/<name>/config/ca-bundle (OpenShift)', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let POST: Handler;
  let admin: KubeClient;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 0, flavor: 'openshift' });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ POST } = await import('./route'));
    admin = clientAs(sb, 'admin');
    await admin.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: 'certwarden', namespace: 'openshift-operators' },
      spec: { name: 'certwarden', source: 'olm-console-demo', sourceNamespace: 'openshift-marketplace', channel: 'stable', installPlanApproval: 'Automatic', config: { volumes: [{ name: 'trusted-ca-bundle', configMap: { name: 'trusted-ca', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] } }], volumeMounts: [{ name: 'trusted-ca-bundle', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }] } },
    });
    await waitFor('installed', async () => (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators')).status?.installedCSV);
  });
  after(() => sb.close());

  const post = async (user: string) => {
    const res = await POST(consoleRequest('/api/subscriptions/openshift-operators/certwarden/config/ca-bundle', { method: 'POST', token: sb.tokens[user]!, body: { configMap: 'trusted-ca' } }), { params: Promise.resolve({ namespace: 'openshift-operators', name: 'certwarden' }) });
    return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
  };

  test('missing, then created labelled for OpenShift to fill; refused for a viewer and a second time', async () => {
    assert.deepEqual((await operatorConfig(admin, 'openshift-operators', 'certwarden')).caBundle, { configMap: 'trusted-ca', state: 'missing' });
    assert.equal((await post('bob')).status, 403);
    const made = await post('admin');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const cm = await admin.get<{ metadata?: { labels?: Record<string, string> } }>(CM, 'trusted-ca', 'openshift-operators');
    assert.equal(cm.metadata?.labels?.[OPENSHIFT_INJECT_CA_LABEL], 'true');
    assert.deepEqual((await operatorConfig(admin, 'openshift-operators', 'certwarden')).caBundle, { configMap: 'trusted-ca', state: 'present', injected: true });
    assert.equal((await post('admin')).status, 409);
  });
});
