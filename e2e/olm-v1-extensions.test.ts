// An OLM v1 ClusterExtension managed in Debian's Chromium, against a production build and the
// sandbox's operator-controller (v1.2.0's behaviour; `npm run conformance` compares it with the real
// one). The extension is made through the Kubernetes API as admin (the install wizard is its own
// page and suite): Installed Operators lists it as OLM v1 beside the v0 rows; its page says
// Installed with its objects healthy; an upgrade to a newer version previewed then applied; pinned;
// a viewer sees the changes disabled with the cluster's reason; a roll back whose rights the console
// may not widen refused with the rules it needs; then uninstalled with its CRDs' instances counted,
// its name typed, and only the marked access offered. Checked with the Kubernetes API; screenshots
// at 1440 and 390 px.
// Then the same page, upgrade, pin and uninstall against the real cluster's operator-controller
// v1.2.0 (`npm run cluster`), skipped with the reason where its programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { clientAs } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';
import { CRD_TYPE, NAMESPACE_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '../lib/k8s/core-kinds';
import { isKubeError } from '../lib/k8s/errors';
import type { ResourceType } from '../lib/olm/resources/common';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../lib/server/olm-v1/resources';
import { waitFor } from '../lib/server/testing/cluster';
import { DESKTOP, PHONE } from './support/a11y';
import { useHarness } from './support/harness';

const NAME = 'pgpilot';
const NS = 'pgpilot-v1';
const PG_TYPE: ResourceType = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};

/** The extension at 1.2.0 in channel stable, installing as a ServiceAccount bound to cluster-admin. */
async function createExtension(kube: KubeClient): Promise<void> {
  await kube.create(NAMESPACE_TYPE, { metadata: { name: NS } });
  await kube.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: NS } });
  await kube.create(rbacType('ClusterRoleBinding'), {
    metadata: { name: `${NS}-installer` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: NS }],
  });
  await kube.create(CLUSTER_EXTENSION_TYPE, {
    metadata: { name: NAME },
    spec: {
      namespace: NS,
      serviceAccount: { name: 'installer' },
      source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot', version: '1.2.0', channels: ['stable'] } },
    },
  });
}

const crdGone = (kube: KubeClient, timeoutMs: number) =>
  waitFor(
    'the CRD gone',
    async () => {
      try {
        await kube.get(CRD_TYPE, 'postgresclusters.pgpilot.example.com');
        return undefined;
      } catch (err) {
        return isKubeError(err, 404) ? true : undefined;
      }
    },
    timeoutMs,
  );

describe('ClusterExtensions (OLM v1) on Installed Operators and their page', () => {
  const h = useHarness({
    suite: 'olm-v1-extensions',
    seed: async (kube) => {
      await createExtension(kube);
      // bob (view) may read ClusterExtensions, not change them.
      await kube.create(rbacType('ClusterRole'), {
        metadata: { name: 'extension-reader' },
        rules: [
          {
            apiGroups: ['olm.operatorframework.io'],
            resources: ['clusterextensions'],
            verbs: ['get', 'list', 'watch'],
          },
        ],
      });
      await kube.create(rbacType('ClusterRoleBinding'), {
        metadata: { name: 'bob-extension-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'extension-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
      });
    },
  });
  const stored = () => h.kube.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);

  test('Installed Operators lists the extension as OLM v1, with its version and state', async () => {
    const page = await h.open(`/operators?namespace=${NS}`);
    const row = page.getByRole('row').filter({ hasText: 'OLM v1' });
    await row.getByText('Installed', { exact: true }).waitFor({ timeout: 20_000 });
    await row.getByText('package pgpilot, 1.2.0').waitFor();
    await row.getByRole('cell', { name: NS, exact: true }).waitFor();
    await h.shot(page, 'list');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'list-phone');
    await page.setViewportSize(DESKTOP);
    await row.getByRole('link', { name: NAME, exact: true }).click();
    await page.waitForURL(/\/clusterextensions\/pgpilot$/);
    await page.getByRole('heading', { level: 1, name: /pgpilot/ }).waitFor();
    await page.close();
  });

  test('its page says Installed in v1’s words, with its objects healthy', async () => {
    const page = await h.open(`/clusterextensions/${NAME}`);
    await page.getByText('Health: Healthy').waitFor({ timeout: 20_000 });
    await page.getByText(/pgpilot\.v1\.2\.0 \(1\.2\.0\) is installed: Installed bundle \S+ successfully/).waitFor();
    const objects = page.getByRole('table', { name: `Objects installed by ${NAME}` });
    const dep = objects.getByRole('row').filter({ hasText: 'Deployment' });
    await dep.getByText(/rolled out: 1 of 1 replicas available/).waitFor();
    const crd = objects.getByRole('row').filter({ hasText: 'postgresclusters.pgpilot.example.com' });
    await crd.getByText(/Established/).waitFor();
    await h.shot(page, 'page');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'page-phone');
    await page.close();
  });

  test('a viewer sees every change disabled with the cluster’s reason', async () => {
    const page = await h.openAs('bob', `/clusterextensions/${NAME}`);
    await page.getByText(/You may not change pgpilot: /).waitFor({ timeout: 20_000 });
    await page.getByText(/You may not delete pgpilot: /).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Pin to 1.2.0' }).isDisabled(), true);
    // bob may not list ClusterCatalogs: the versions are not guessed.
    await page.getByText(/Versions unknown: the ClusterCatalogs could not be read: /).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Uninstall…' }).isDisabled(), true);
    await h.shot(page, 'viewer');
    await page.close();
  });

  test('an upgrade is previewed with the version v1 resolves, applied, then pinned', async () => {
    const page = await h.open(`/clusterextensions/${NAME}`);
    await page.getByRole('button', { name: 'Upgrade to 1.3.0' }).click();
    const preview = page.getByRole('region', { name: 'Version change preview' });
    await preview
      .getByText(/On its next pass OLM v1 upgrades to 1\.3\.0 \(pgpilot\.v1\.3\.0, from catalog olm-console-demo\)/)
      .waitFor();
    await h.shot(page, 'upgrade-preview');
    // An older version under CatalogProvided: the preview is v1's refusal, and Apply stays off.
    await page.getByLabel('Version or range').fill('1.0.0');
    await page.getByRole('button', { name: 'Preview' }).click();
    await preview
      .getByText(
        /OLM v1 would refuse this and keep what is installed: error upgrading from currently installed version "1\.2\.0"/,
      )
      .waitFor();
    assert.equal(await preview.getByRole('button', { name: 'Apply' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Upgrade to 1.3.0' }).click();
    await preview.getByText(/upgrades to 1\.3\.0/).waitFor();
    await preview.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: 'Set version 1.3.0' }).waitFor();
    // The page follows v1 without a reload.
    await page.getByText(/pgpilot\.v1\.3\.0 \(1\.3\.0\) is installed/).waitFor({ timeout: 20_000 });
    assert.equal((await stored()).status?.install?.bundle?.version, '1.3.0');
    await page.getByLabel('Version or range').fill('>=1.3.0');
    await page.getByRole('button', { name: 'Preview' }).click();
    await preview.getByText(/upgrades to 1\.4\.0/).waitFor();
    await preview.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(/pgpilot\.v1\.4\.0 \(1\.4\.0\) is installed/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Pin to 1.4.0' }).click();
    await preview.getByText(/stays on 1\.4\.0/).waitFor();
    await preview.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Pinned: the version is exactly 1.4.0.').waitFor({ timeout: 20_000 });
    assert.equal((await stored()).spec?.source?.catalog?.version, '1.4.0');
    await h.shot(page, 'pinned');
    await page.close();
  });

  test('a change needing rights the console may not widen is refused, with the rules and Apply off', async () => {
    // Installer rights marked as the console's install marks them, but bound for alice as well.
    const annotations = { 'olm-console.io/installed-for': `${NAME}/${(await stored()).metadata?.uid}` };
    const meta = { name: `${NAME}-installer`, annotations };
    await h.kube.create(rbacType('ClusterRole'), { metadata: meta, rules: [] });
    await h.kube.create(rbacType('ClusterRoleBinding'), {
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: meta.name },
      subjects: [
        { kind: 'ServiceAccount', name: 'installer', namespace: NS },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
      ],
    });
    const page = await h.open(`/clusterextensions/${NAME}`);
    await page.getByRole('button', { name: 'Roll back to 1.3.0 (SelfCertified)' }).click();
    const preview = page.getByRole('region', { name: 'Version change preview' });
    await preview
      .getByText(
        `The console will not make this change: pgpilot.v1.3.0 needs more rights than ${NAME}-installer grants`,
      )
      .waitFor({ timeout: 20_000 });
    await preview.getByText(/it binds ServiceAccount pgpilot-v1\/installer, User alice, not .* alone/).waitFor();
    await preview.getByText(/The rules it needs \(\d+\)/).click();
    assert.equal(await preview.getByRole('button', { name: 'Apply' }).isDisabled(), true);
    await h.shot(page, 'rights-refused');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'rights-refused-phone');
    await page.close();
    assert.deepEqual((await h.kube.get<{ rules: unknown[] }>(rbacType('ClusterRole'), meta.name)).rules ?? [], []);
    await h.kube.delete(rbacType('ClusterRoleBinding'), meta.name);
    await h.kube.delete(rbacType('ClusterRole'), meta.name);
  });

  test('uninstall counts the instances its CRDs take, needs the name typed, and follows the deletion', async () => {
    await h.kube.create(PG_TYPE, { metadata: { name: 'db1', namespace: 'default' }, spec: {} });
    await h.kube.create(PG_TYPE, { metadata: { name: 'db2', namespace: NS }, spec: {} });
    // A Role and RoleBinding as the install wizard makes and marks them (name and uid of the extension).
    const annotations = { 'olm-console.io/installed-for': `${NAME}/${(await stored()).metadata?.uid}` };
    const role = { name: `${NAME}-installer`, namespace: NS, annotations };
    await h.kube.create(rbacType('Role'), {
      metadata: role,
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    await h.kube.create(rbacType('RoleBinding'), {
      metadata: role,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.name },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: NS }],
    });
    const page = await h.open(`/operators?namespace=${NS}`);
    await page.getByRole('link', { name: `Uninstall ${NAME} (OLM v1)` }).click();
    const panel = page.getByRole('region', { name: `Uninstall ${NAME}` });
    await panel
      .getByText('postgresclusters.pgpilot.example.com: 2 instances deleted with it')
      .waitFor({ timeout: 20_000 });
    await panel.getByText('2 instances will be deleted.').waitFor();
    // The account made by hand above is named as not offered; the role and binding marked as the
    // console's install marks them are offered.
    await panel
      .getByText(`ServiceAccount ${NS}/installer: it carries no mark of this console's install of ${NAME}`)
      .waitFor();
    assert.equal(await panel.getByLabel(`ServiceAccount ${NS}/installer`).count(), 0);
    await panel.getByLabel(`RoleBinding ${NS}/${NAME}-installer`).waitFor();
    await panel.getByLabel(`Role ${NS}/${NAME}-installer`).check();
    const go = panel.getByRole('button', { name: `Uninstall ${NAME}` });
    assert.equal(await go.isDisabled(), true);
    await panel.getByLabel(`Type ${NAME} to confirm`).fill(NAME);
    await h.shot(page, 'uninstall');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'uninstall-phone');
    await page.setViewportSize(DESKTOP);
    await go.click();
    await page.getByText(`ClusterExtension ${NAME} is gone; garbage collection deletes what it installed.`).waitFor({
      timeout: 30_000,
    });
    await page.getByText(`Role ${NAME}-installer: deleted`).waitFor();
    await h.shot(page, 'uninstalled');
    await crdGone(h.kube, 30_000);
    await h.kube.get(rbacType('ClusterRoleBinding'), `${NS}-installer`);
    await h.kube.get(SERVICE_ACCOUNT_TYPE, 'installer', NS);
    await h.kube.get(rbacType('RoleBinding'), `${NAME}-installer`, NS);
    await assert.rejects(h.kube.get(rbacType('Role'), `${NAME}-installer`, NS), (e) => isKubeError(e, 404));
    await page.close();
  });
});

const DEMO_DIR = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const skip = clusterProgramsMissing();

if (skip) test('ClusterExtensions (OLM v1) on the real cluster', (t) => t.skip(skip));
else
  describe('ClusterExtensions (OLM v1) on the real cluster', () => {
    let cluster: RealCluster;
    let admin: RunningConsole;
    let browser: Browser;
    let kube: KubeClient;

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      kube = clientAs(cluster, 'admin');
      await createExtension(kube);
      admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: cluster.kubeconfigPath });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await admin?.stop();
      await cluster?.stop();
    });

    test('real operator-controller: installed and healthy, upgraded, pinned, uninstalled', async () => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(`${admin.url}/operators?namespace=${NS}`);
      const row = page.getByRole('row').filter({ hasText: 'OLM v1' });
      // Real catalogd pulls the catalog and operator-controller installs on their own schedule.
      await row.getByText('Installed', { exact: true }).waitFor({ timeout: 240_000 });
      await row.getByRole('link', { name: NAME, exact: true }).click();
      await page.getByText('Health: Healthy').waitFor({ timeout: 120_000 });
      await page.getByText(/pgpilot\.v1\.2\.0 \(1\.2\.0\) is installed: Installed bundle \S+ successfully/).waitFor();
      await page.getByRole('button', { name: 'Upgrade to 1.3.0' }).click();
      const preview = page.getByRole('region', { name: 'Version change preview' });
      await preview
        .getByText(/On its next pass OLM v1 upgrades to 1\.3\.0 \(pgpilot\.v1\.3\.0, from catalog /)
        .waitFor();
      await preview.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(/pgpilot\.v1\.3\.0 \(1\.3\.0\) is installed/).waitFor({ timeout: 120_000 });
      // An exact version is already a pin; a range lets v1 go on, and pinning stops it there.
      await page.getByText('Pinned: the version is exactly 1.3.0.').waitFor();
      await page.getByLabel('Version or range').fill('>=1.3.0');
      await page.getByRole('button', { name: 'Preview' }).click();
      await preview.getByText(/upgrades to 1\.4\.0/).waitFor();
      await preview.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(/pgpilot\.v1\.4\.0 \(1\.4\.0\) is installed/).waitFor({ timeout: 120_000 });
      await page.getByRole('button', { name: 'Pin to 1.4.0' }).click();
      await preview.getByText(/stays on 1\.4\.0/).waitFor();
      await preview.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Pinned: the version is exactly 1.4.0.').waitFor({ timeout: 60_000 });
      await kube.create(PG_TYPE, { metadata: { name: 'db1', namespace: 'default' }, spec: {} });
      await page.getByRole('button', { name: 'Uninstall…' }).click();
      const panel = page.getByRole('region', { name: `Uninstall ${NAME}` });
      await panel.getByText('postgresclusters.pgpilot.example.com: 1 instance deleted with it').waitFor();
      await panel.getByLabel(`Type ${NAME} to confirm`).fill(NAME);
      await panel.getByRole('button', { name: `Uninstall ${NAME}` }).click();
      const gone = page.getByText(`ClusterExtension ${NAME} is gone; garbage collection deletes what it installed.`);
      // A refusal would be an alert: said, rather than waited out.
      await gone.or(panel.getByRole('alert')).first().waitFor({ timeout: 120_000 });
      assert.deepEqual(await panel.getByRole('alert').allTextContents(), []);
      await gone.waitFor();
      // kube-controller-manager's garbage collector follows the ownerReferences.
      await crdGone(kube, 120_000);
      await page.close();
    });
  });
