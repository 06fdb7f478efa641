// OpenShift's install options in Debian's Chromium, against a production build and the sandbox's
// OpenShift flavour switched into AWS STS mode (CloudCredential Manual, a service account issuer):
// the role ARN asked for and written as ROLEARN with Manual approval; a console plugin enabled in
// Console cluster; cluster monitoring's label and Prometheus' Role and RoleBinding on a new
// openshift-* namespace. What OpenShift writes is from openshift/console's
// operator-hub-subscribe.tsx; it is read back with the admin's client.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { AUTHENTICATION_TYPE, CLOUD_CREDENTIAL_TYPE, CONSOLE_OPERATOR_TYPE } from '../lib/server/openshift-install';
import { useHarness } from './support/harness';

const NAMESPACE = { group: '', version: 'v1', plural: 'namespaces', namespaced: false, kind: 'Namespace' };
const ROLE = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', namespaced: true, kind: 'Role' };
const BINDING = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'rolebindings',
  namespaced: true,
  kind: 'RoleBinding',
};
const ARN = 'arn:aws:iam::123456789012:role/vaultkeeper-operator';

describe('OpenShift install options', () => {
  const h = useHarness({
    suite: 'openshift-install-options',
    sandbox: { flavor: 'openshift' },
    seed: async (kube) => {
      await kube.patch(CLOUD_CREDENTIAL_TYPE, 'cluster', { spec: { credentialsMode: 'Manual' } }, { type: 'merge' });
      await kube.patch(
        AUTHENTICATION_TYPE,
        'cluster',
        { spec: { serviceAccountIssuer: 'https://oidc.sandbox.example.com' } },
        { type: 'merge' },
      );
    },
  });

  test("AWS STS: the role ARN goes into the Subscription's env, and approval is Manual", async () => {
    const page = await h.open('/operatorhub/openshift-marketplace/olm-console-demo/vaultkeeper/install');
    const token = page.getByRole('group', { name: 'Cloud token authentication' });
    await token.waitFor();
    assert.equal(
      await page.getByRole('radio', { name: /^Automatic/ }).isDisabled(),
      true,
      'OpenShift requires Manual in token mode',
    );
    assert.equal(await page.getByRole('radio', { name: /^Manual/ }).isChecked(), true);
    await page
      .getByRole('note', { name: 'Warnings' })
      .getByText(/without Role ARN the operator cannot reach the cloud API/)
      .waitFor();
    await token.getByLabel(/Role ARN/).fill(ARN);
    await page
      .getByRole('list', { name: 'Pod configuration' })
      .getByText('environment ROLEARN in every container')
      .waitFor();
    await h.shot(page, 'token-auth');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/vaultkeeper-system\/vaultkeeper$/);
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'vaultkeeper', 'vaultkeeper-system');
    assert.equal(sub.spec.installPlanApproval, 'Manual');
    assert.deepEqual((sub.spec.config as { env?: unknown }).env, [{ name: 'ROLEARN', value: ARN }]);
    await page.close();
  });

  test('a console plugin and cluster monitoring: the Console changed last, the namespace labelled, Prometheus let in', async () => {
    const page = await h.open('/operatorhub/openshift-marketplace/olm-console-demo/routekit/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    const options = page.getByRole('group', { name: 'OpenShift options' });
    // RouteKit declares no token support: said, not offered.
    await options
      .getByText(/Cloud token authentication: .*does not declare features\.operators\.openshift\.io\/token-auth-aws/)
      .waitFor();
    // openshift-operators exists: monitoring is offered only for a namespace the install creates.
    await options.getByText(/Cluster monitoring: namespace openshift-operators already exists/).waitFor();
    await page.getByLabel('Installed namespace').fill('openshift-routekit');
    const plugin = options.getByRole('checkbox', { name: /Enable routekit-console/ });
    assert.equal(await plugin.isChecked(), false, 'off by default: the demo catalog is not redhat-operators');
    await plugin.check();
    await options.getByRole('checkbox', { name: /Enable cluster monitoring/ }).check();
    const objects = page.getByRole('list', { name: 'Objects' });
    await objects.getByText('spec.plugins: (none) → routekit-console').waitFor();
    await objects.getByText('Labels: openshift.io/cluster-monitoring=true').waitFor();
    await objects.getByText('RoleBinding openshift-routekit/openshift-routekit-prometheus').waitFor();
    await page
      .getByRole('note', { name: 'Warnings' })
      .getByText(/not Red Hat's redhat-operators catalog/)
      .waitFor();
    await h.shot(page, 'plugin-and-monitoring');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/openshift-routekit\/routekit$/);
    const console = await h.kube.get<{ spec: { plugins?: string[] } }>(CONSOLE_OPERATOR_TYPE, 'cluster');
    assert.deepEqual(console.spec.plugins, ['routekit-console']);
    const ns = await h.kube.get<{ metadata: { labels?: Record<string, string> } }>(NAMESPACE, 'openshift-routekit');
    assert.equal(ns.metadata.labels?.['openshift.io/cluster-monitoring'], 'true');
    const role = await h.kube.get<{ rules: unknown }>(ROLE, 'openshift-routekit-prometheus', 'openshift-routekit');
    assert.deepEqual(role.rules, [
      { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
    ]);
    const rb = await h.kube.get<{ subjects: unknown }>(BINDING, 'openshift-routekit-prometheus', 'openshift-routekit');
    assert.deepEqual(rb.subjects, [
      { kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'openshift-monitoring' },
    ]);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: routekit\.v/ })
      .waitFor({ timeout: 20_000 });
    await h.shot(page, 'plugin-and-monitoring-installed');
    await page.close();
  });
});
