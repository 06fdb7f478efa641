// The trusted CA bundle's ConfigMap on the sandbox's OpenShift flavour: the operator's config names
// one that does not exist, the config view says so, and an administrator creates it labelled for
// OpenShift to fill; a viewer is refused by the cluster; a second create is the API server's 409.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { OPENSHIFT_INJECT_CA_LABEL } from '@/lib/olm/install/operator-config-form';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { operatorConfig } from '@/lib/server/subscription-config';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const CM = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };

describe('POST /api/subscriptions/<ns>/<name>/config/ca-bundle (OpenShift)', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, flavor: 'openshift' });
  let POST: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ POST } = await import('./route'));
    admin = sb.admin;
    await admin.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: 'certwarden', namespace: 'openshift-operators' },
      spec: {
        name: 'certwarden',
        source: 'olm-console-demo',
        sourceNamespace: 'openshift-marketplace',
        channel: 'stable',
        installPlanApproval: 'Automatic',
        config: {
          volumes: [
            {
              name: 'trusted-ca-bundle',
              configMap: { name: 'trusted-ca', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] },
            },
          ],
          volumeMounts: [{ name: 'trusted-ca-bundle', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }],
        },
      },
    });
    await waitFor(
      'installed',
      async () =>
        (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators')).status?.installedCSV,
    );
  });

  const post = (user: string) =>
    sb.call<{ error?: { message: string } }>(
      POST,
      '/api/subscriptions/openshift-operators/certwarden/config/ca-bundle',
      {
        method: 'POST',
        user,
        body: { configMap: 'trusted-ca' },
        params: { namespace: 'openshift-operators', name: 'certwarden' },
      },
    );

  test('missing, then created labelled for OpenShift to fill; refused for a viewer and a second time', async () => {
    assert.deepEqual((await operatorConfig(admin, 'openshift-operators', 'certwarden')).caBundle, {
      configMap: 'trusted-ca',
      state: 'missing',
    });
    assert.equal((await post('bob')).status, 403);
    const made = await post('admin');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const cm = await admin.get<{ metadata?: { labels?: Record<string, string> } }>(
      CM,
      'trusted-ca',
      'openshift-operators',
    );
    assert.equal(cm.metadata?.labels?.[OPENSHIFT_INJECT_CA_LABEL], 'true');
    assert.deepEqual((await operatorConfig(admin, 'openshift-operators', 'certwarden')).caBundle, {
      configMap: 'trusted-ca',
      state: 'present',
      injected: true,
    });
    assert.equal((await post('admin')).status, 409);
  });
});
