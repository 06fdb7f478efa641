// An operator's pod placement and configuration in Debian's Chromium, against a production build
// and the sandbox's OpenShift flavour (which has a cluster Proxy): set in the install wizard's
// Advanced section and seen in the plan, then on the installed operator's Subscription tab, where
// the Deployment OLM wrote shows what it carries; a placement no node accepts and a bad quantity
// are caught before anything is written; a viewer may look but not change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { useHarness } from './support/harness';

const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', namespaced: false, kind: 'Proxy' };

describe('Pod placement and configuration', () => {
  const h = useHarness({
    suite: 'operator-config',
    sandbox: { flavor: 'openshift' },
    seed: async (kube) => {
      await kube.patch(
        PROXY,
        'cluster',
        {
          status: {
            httpProxy: 'http://proxy.corp.example.com:3128',
            httpsProxy: 'http://proxy.corp.example.com:3128',
            noProxy: '.cluster.local,.svc',
          },
        },
        { type: 'merge', subresource: 'status' },
      );
    },
  });

  test('set at install: the plan says what it does, and the Subscription carries it', async () => {
    const page = await h.open('/operatorhub/openshift-marketplace/olm-console-demo/certwarden/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByText('Advanced: pod placement and configuration').click();
    await page.getByRole('button', { name: 'Add a node label' }).click();
    await page.getByLabel('Node label 1 key').fill('node-role.kubernetes.io/infra');
    await page.getByRole('button', { name: 'Add a toleration' }).click();
    await page.getByLabel('Toleration 1 key').fill('node-role.kubernetes.io/infra');
    await page.getByLabel('Toleration 1 operator').selectOption('Exists');
    // The sandbox's nodes have no infra label: the console says the pods would fit nowhere.
    await page
      .getByRole('alert')
      .filter({
        hasText: 'fit no node: no schedulable node has every label node-role.kubernetes.io/infra (empty value)',
      })
      .waitFor();
    await page.getByLabel('Memory limit').fill('512 megabytes');
    await page.getByText('512 megabytes is not a Kubernetes quantity').waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Install', exact: true }).isDisabled(),
      true,
      'nothing can be installed with a bad field',
    );
    await page.getByLabel('Memory limit').fill('512Mi');
    await page.getByText(/The cluster proxy \(HTTP_PROXY=http:\/\/proxy\.corp\.example\.com:3128/).waitFor();
    const config = page.getByRole('list', { name: 'Pod configuration' });
    await config.getByText('runs only on nodes labelled node-role.kubernetes.io/infra').waitFor();
    await config.getByText(/every container gets memory limit 512Mi/).waitFor();
    await h.shot(page, 'wizard');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/openshift-operators\/certwarden$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: certwarden\.v/ })
      .waitFor({ timeout: 20_000 });
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators');
    assert.deepEqual(sub.spec.config, {
      nodeSelector: { 'node-role.kubernetes.io/infra': '' },
      tolerations: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' }],
      resources: { limits: { memory: '512Mi' } },
    });
    await page.close();
  });

  test('on the Subscription tab: what the Deployment carries, then a change OLM writes into it', async () => {
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators');
    const page = await h.open(`/operators/openshift-operators/${sub.status!.installedCSV}?tab=subscription`);
    const form = page.getByRole('form', { name: 'Operator configuration' });
    await form.waitFor();
    assert.equal(await page.getByLabel('Node label 1 key').inputValue(), 'node-role.kubernetes.io/infra');
    const deployment = page.getByRole('region', { name: /^Deployment / });
    await deployment.getByText('node-role.kubernetes.io/infra', { exact: true }).waitFor();
    // OLM passes the cluster proxy on: the Deployment shows it though the config does not name it.
    await deployment.getByText(/HTTP_PROXY=http:\/\/proxy\.corp\.example\.com:3128/).waitFor();
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.getByLabel('Variable 1 name').fill('LOG_LEVEL');
    await page.getByLabel('Variable 1 value').fill('debug');
    await page.getByLabel('Set the proxy for this operator').check();
    assert.equal(
      await page.getByLabel('NO_PROXY').inputValue(),
      '.cluster.local,.svc',
      "it starts from the cluster's values",
    );
    await page.getByLabel('NO_PROXY').fill('*');
    await page
      .getByRole('note', { name: 'What will change' })
      .getByText(/proxy set here .*NO_PROXY=\*.*the cluster's proxy is not passed on/)
      .waitFor();
    await h.shot(page, 'subscription-tab-editing');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved. OLM is writing the Deployment again.' }).waitFor();
    await deployment.getByText(/LOG_LEVEL=debug/).waitFor({ timeout: 15_000 });
    await deployment.getByText(/NO_PROXY=\*/).waitFor();
    await h.shot(page, 'subscription-tab-saved');
    await page.close();
  });

  test('a trusted CA bundle from a ConfigMap that does not exist yet: created for OpenShift to fill', async () => {
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators');
    const page = await h.open(`/operators/openshift-operators/${sub.status!.installedCSV}?tab=subscription`);
    await page.getByRole('form', { name: 'Operator configuration' }).waitFor();
    await page.getByLabel('ConfigMap').fill('trusted-ca');
    assert.equal(await page.getByLabel(/^Key/).inputValue(), 'ca-bundle.crt', "OpenShift's key, filled in");
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const missing = page
      .getByRole('alert')
      .filter({ hasText: 'ConfigMap trusted-ca does not exist in openshift-operators' });
    await missing.waitFor();
    await h.shot(page, 'ca-bundle-missing');
    await missing.getByRole('button', { name: 'Create ConfigMap trusted-ca for OpenShift to fill' }).click();
    await missing.waitFor({ state: 'detached' });
    const cm = await h.kube.get<{ metadata?: { labels?: Record<string, string> } }>(
      { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' },
      'trusted-ca',
      'openshift-operators',
    );
    assert.equal(cm.metadata?.labels?.['config.openshift.io/inject-trusted-cabundle'], 'true');
    await page.close();
  });

  test('a viewer sees the configuration but may not change it, and is told why', async () => {
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators');
    const page = await h.openAs('bob', `/operators/openshift-operators/${sub.status!.installedCSV}?tab=subscription`);
    await page.getByRole('form', { name: 'Operator configuration' }).waitFor();
    await page
      .getByText(/You may not change subscriptions in openshift-operators: you may not \w+ subscriptions/)
      .first()
      .waitFor();
    assert.equal(await page.getByLabel('Node label 1 key').isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Save configuration' }).isDisabled(), true);
    await page.close();
  });
});
