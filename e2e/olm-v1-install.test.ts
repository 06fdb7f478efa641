// Installing a demo package as an OLM v1 ClusterExtension in Debian's Chromium, against a production
// build and the sandbox's operator-controller (v1.2.0's behaviour): the wizard opened from the
// package's address with a channel and version; "this minor" resolves live to the highest patch;
// a custom range v1 cannot read is refused in its words; the plan shows the objects and the GitOps
// YAML; Install creates the namespace, the ServiceAccount with its rights and the extension, and the
// page follows it to Installed. Checked with the Kubernetes API. A namespace admin who may not grant
// cluster-wide rights installs anyway: the extension retries in Forbidden words until an
// administrator applies the rights she copied, then installs. A viewer sees Install unavailable with
// the cluster's reason. Then "this minor" installed from the wizard on the real cluster's
// operator-controller v1.2.0 (`npm run cluster`), skipped with the reason where it is not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load } from 'js-yaml';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';
import { DEPLOYMENT_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../lib/k8s/core-kinds';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../lib/server/olm-v1/resources';
import { DESKTOP, PHONE } from './support/a11y';
import { useHarness } from './support/harness';

const PATH = '/clustercatalogs/olm-console-demo/packages/pgpilot/install?channel=stable&version=1.2.0';

describe('Install with OLM v1', () => {
  const h = useHarness({
    suite: 'olm-v1-install',
    // alice administers team1 only; here she may also read ClusterCatalogs and create ClusterExtensions.
    seed: async (kube) => {
      await kube.create(rbacType('ClusterRole'), {
        metadata: { name: 'clusterextension-maker' },
        rules: [
          { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['get', 'create'] },
        ],
      });
      await kube.create(rbacType('ClusterRoleBinding'), {
        metadata: { name: 'alice-clusterextension-maker' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'clusterextension-maker' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      });
    },
  });

  test('"this minor" resolves live, the plan is shown, and Install follows the extension to Installed', async () => {
    const page = await h.open(PATH);
    await page.getByRole('heading', { name: /^Install .* with OLM v1$/ }).waitFor({ timeout: 30_000 });
    const resolved = page.getByRole('status', { name: 'Resolved version' });
    // Opened at 1.2.0 exactly, in channel stable.
    await resolved.getByText(/v1 installs 1\.2\.0 \(pgpilot\.v1\.2\.0/).waitFor({ timeout: 30_000 });
    assert.ok(await page.getByRole('checkbox', { name: /^stable/ }).isChecked());

    await page.getByRole('radio', { name: 'This minor' }).check();
    await page.getByText(/^~1\.2: any 1\.2\.z/).waitFor();
    await resolved.getByText(/v1 installs 1\.2\.\d+ \(pgpilot\.v1\.2\.\d+/).waitFor();

    await page.getByRole('radio', { name: 'Custom range' }).check();
    await page.getByRole('textbox', { name: 'Range' }).fill('one point two');
    await page
      .getByText('desired version range "one point two" is invalid: improper constraint: one point two')
      .waitFor();
    await page.getByRole('radio', { name: 'This minor' }).check();

    const objects = page.getByRole('list', { name: 'Objects' });
    for (const o of [
      'Namespace pgpilot-system',
      'ServiceAccount pgpilot-system/pgpilot-installer',
      'ClusterRole pgpilot-installer',
      'ClusterExtension pgpilot',
    ])
      await objects.getByText(o, { exact: true }).waitFor();
    await page.getByText('Export for GitOps instead').click();
    await page
      .getByText(/kind: ClusterExtension/)
      .first()
      .waitFor();
    await h.shot(page, 'wizard');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'wizard-phone');
    await page.setViewportSize(DESKTOP);

    const install = page.getByRole('button', { name: 'Install', exact: true });
    // Playwright's click waits for the button to be enabled (the plan of these choices is in).
    await install.click();
    await page.getByRole('heading', { name: 'ClusterExtension pgpilot created' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: Installed bundle .* successfully/ })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Open ClusterExtension pgpilot' }).waitFor();
    await h.shot(page, 'installed');

    const ce = await h.kube.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
    assert.equal(ce.spec?.source?.catalog?.version, '~1.2');
    assert.deepEqual(ce.spec?.source?.catalog?.channels, ['stable']);
    assert.match(ce.status?.install?.bundle?.version ?? '', /^1\.2\.\d+$/);
    await h.kube.get(SERVICE_ACCOUNT_TYPE, 'pgpilot-installer', 'pgpilot-system');
    await h.kube.get(rbacType('ClusterRole'), 'pgpilot-installer');
    await h.kube.get(DEPLOYMENT_TYPE, 'pgpilot-controller-manager', 'pgpilot-system');
    await page.close();
  });

  test('a namespace admin installs, copies the rights for an administrator, and v1 installs once they exist', async () => {
    const page = await h.openAs('alice', '/clustercatalogs/olm-console-demo/packages/certwarden/install');
    await page.getByRole('heading', { name: /^Install .* with OLM v1$/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Install namespace' }).fill('team1');
    const copy = page.getByRole('region', { name: 'Copy for an administrator' });
    await copy.waitFor({ timeout: 30_000 });
    await page.getByText(/You may not grant certwarden-installer the rights it needs/).waitFor();
    await h.shot(page, 'rights-for-admin');
    const yamlText = (await copy.locator('pre').textContent()) ?? '';
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.getByRole('heading', { name: 'ClusterExtension certwarden created' }).waitFor();
    // Without the rights, operator-controller retries in the API server's Forbidden words.
    await page
      .getByRole('status')
      .filter({
        hasText:
          /^Not installed yet, v1 retries: .*is forbidden: User "system:serviceaccount:team1:certwarden-installer"/,
      })
      .waitFor({ timeout: 30_000 });
    await h.shot(page, 'waiting-for-rights');
    // An administrator applies what was copied, as it was shown.
    const copied = load(yamlText) as { items: { kind: string }[] };
    assert.deepEqual(
      copied.items.map((o) => o.kind),
      ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    );
    for (const o of copied.items.slice(1)) await h.kube.create(rbacType(o.kind as 'Role'), o);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: Installed bundle .* successfully/ })
      .waitFor({ timeout: 30_000 });
    await h.kube.get(SERVICE_ACCOUNT_TYPE, 'certwarden-installer', 'team1');
    await page.close();
  });

  test('"this minor" chosen before the versions are known starts from the highest one', async () => {
    const page = await h.open('/clustercatalogs/olm-console-demo/packages/certwarden/install');
    // At once, before the first plan has listed the catalog's versions.
    await page.getByRole('radio', { name: 'This minor' }).check();
    const resolved = page.getByRole('status', { name: 'Resolved version' });
    await resolved.getByText(/v1 installs 1\.1\.\d+ \(certwarden\.v1\.1\.\d+/).waitFor({ timeout: 30_000 });
    await page.getByText(/^~1\.1: any 1\.1\.z/).waitFor();
    await page.close();
  });

  test('a viewer sees Install unavailable, with the cluster’s reason', async () => {
    const page = await h.openAs('bob', PATH.replace('pgpilot/install', 'certwarden/install').replace(/\?.*/, ''));
    await page.getByRole('heading', { name: /^Install .* with OLM v1$/ }).waitFor({ timeout: 30_000 });
    await page.getByText(/Install is unavailable: /).waitFor({ timeout: 30_000 });
    assert.ok(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled());
    await page
      .getByRole('alert')
      .filter({ hasText: /cannot list resource "clustercatalogs"/ })
      .waitFor();
    await page.getByText('Not known: the install could not be planned.').waitFor();
    await h.shot(page, 'viewer');
    await page.close();
  });
});

const DEMO_DIR = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const skip = clusterProgramsMissing();

if (skip) test('Install with OLM v1 on the real cluster', (t) => t.skip(skip));
else
  describe('Install with OLM v1 on the real cluster', () => {
    let cluster: RealCluster;
    let admin: RunningConsole;
    let browser: Browser;
    let kube: KubeClient;
    const catalog = catalogSourceName(DEMO_DIR);

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      kube = clientAs(cluster, 'admin');
      admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: cluster.kubeconfigPath });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await admin?.stop();
      await cluster?.stop();
    });

    test('real operator-controller installs "this minor" with exactly the rights the wizard grants', async () => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(`${admin.url}/clustercatalogs/${catalog}/packages/pgpilot/install?channel=stable&version=1.3.0`);
      // Real catalogd serves the content once it has pulled the image.
      const resolved = page.getByRole('status', { name: 'Resolved version' });
      await resolved.getByText(/v1 installs 1\.3\.0 /).waitFor({ timeout: 180_000 });
      await page.getByRole('radio', { name: 'This minor' }).check();
      await resolved.getByText(/v1 installs 1\.3\.\d+ /).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Install', exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Installed: Installed bundle .* successfully/ })
        .waitFor({ timeout: 180_000 });
      const ce = await kube.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
      assert.equal(ce.spec?.source?.catalog?.version, '~1.3');
      assert.match(ce.status?.install?.bundle?.version ?? '', /^1\.3\.\d+$/);
      // Progressing "desired state reached": the informers' cluster-wide list/watch was granted too.
      assert.equal(ce.status?.conditions?.find((c) => c.type === 'Progressing')?.message, 'desired state reached');
      await kube.get(DEPLOYMENT_TYPE, 'pgpilot-controller-manager', 'pgpilot-system');
      await page.close();
    });
  });
