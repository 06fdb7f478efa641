// OLM v1's ClusterCatalogs managed in Debian's Chromium, against a production build and the
// sandbox's catalogd (v1.2.0's behaviour; `npm run conformance` compares it with the real one):
// the seeded catalog listed Serving in catalogd's words; disabled after a confirmation naming the
// ClusterExtension that uses it, and catalogd's conditions change; enabled again; its priority
// changed; a catalog added from an image that does not exist fails in catalogd's words and is
// deleted; a viewer who may read catalogs sees every control disabled with the cluster's reason.
// Checked with the Kubernetes API. Then the same list, disable, enable and priority against the real
// cluster's catalogd v1.2.0 (`npm run cluster`), skipped with the reason where its programs are not
// built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';
import { isKubeError } from '../lib/k8s/errors';
import { rbacType } from '../lib/k8s/core-kinds';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterCatalog } from '../lib/server/olm-v1/resources';
import { waitFor } from '../lib/server/testing/cluster';
import { DESKTOP, PHONE } from './support/a11y';
import { useHarness } from './support/harness';

const DEMO = 'olm-console-demo';

describe('Cluster catalogs (OLM v1)', () => {
  const h = useHarness({
    suite: 'olm-v1-catalogs',
    seed: async (kube) => {
      await kube.create(CLUSTER_EXTENSION_TYPE, {
        metadata: { name: 'pgpilot' },
        spec: {
          namespace: 'pgpilot',
          serviceAccount: { name: 'pgpilot-installer' },
          source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot' } },
        },
      });
    },
  });
  const stored = (name: string) => h.kube.get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, name);

  test('the seeded catalog is Serving; disabling names its dependent and catalogd says it is unavailable', async () => {
    const page = await h.open('/clustercatalogs');
    await page.getByRole('link', { name: 'Cluster catalogs (OLM v1)' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: DEMO });
    await row.getByText('Serving', { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByText(/Serving True \(Available\): Serving desired content from resolved source/).waitFor();
    await row.getByText(/^resolved: sandbox\.olm-console\.dev\/catalogs\/olm-console-demo@sha256:/).waitFor();
    await h.shot(page, 'list');
    // One block per catalog on a phone, each value under its column's name.
    await page.setViewportSize(PHONE);
    await h.shot(page, 'list-phone');
    await page.setViewportSize(DESKTOP);
    await row.getByRole('button', { name: 'Disable' }).click();
    const confirm = page.getByRole('region', { name: `Disable ClusterCatalog ${DEMO}` });
    await confirm.getByText(/pgpilot \(package pgpilot\)/).waitFor();
    await h.shot(page, 'disable-confirm');
    await confirm.getByRole('button', { name: `Disable ${DEMO}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Disabled ClusterCatalog ${DEMO}` })
      .waitFor();
    // The page follows catalogd's status without a reload.
    await row.getByText('Disabled', { exact: true }).waitFor({ timeout: 15_000 });
    await row
      .getByText(/Serving False \(UserSpecifiedUnavailable\): Catalog availability mode is set to Unavailable/)
      .waitFor();
    assert.equal((await stored(DEMO)).spec.availabilityMode, 'Unavailable');
    await h.shot(page, 'disabled');
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByText('Serving', { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal((await stored(DEMO)).spec.availabilityMode, 'Available');
    await page.close();
  });

  test('priority is changed as typed, and a value catalogd’s CRD refuses is said with nothing changed', async () => {
    const page = await h.open('/clustercatalogs');
    const row = page.getByRole('row').filter({ hasText: DEMO });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: `Edit ClusterCatalog ${DEMO}` });
    await form.getByLabel('Poll interval (minutes)').fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/pollIntervalMinutes: at least 1 minute/).waitFor();
    await form.getByLabel('Poll interval (minutes)').fill('');
    await form.getByLabel('Priority').fill('7');
    await form.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved ClusterCatalog ${DEMO}` })
      .waitFor();
    const cc = await stored(DEMO);
    assert.equal(cc.spec.priority, 7);
    assert.equal(cc.spec.source.image?.pollIntervalMinutes, undefined);
    await page.close();
  });

  test('a catalog from an image that does not exist fails in catalogd’s words, and is deleted', async () => {
    const page = await h.open('/clustercatalogs');
    await page.getByRole('button', { name: 'Add ClusterCatalog' }).click();
    const form = page.getByRole('form', { name: 'Add a ClusterCatalog' });
    await form.getByLabel('Name').fill('Bad_Name');
    await form.getByLabel('Image reference').fill('quay.io/olm-console/missing:v1');
    await form.getByRole('button', { name: 'Add catalog' }).click();
    // The API server's own refusal, with its reason.
    await form.getByText(/Invalid: .*Bad_Name/).waitFor();
    await form.getByLabel('Name').fill('missing');
    await form.getByRole('button', { name: 'Add catalog' }).click();
    await page.getByRole('status').filter({ hasText: 'Added ClusterCatalog missing' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'quay.io/olm-console/missing:v1' });
    await row.getByText('Retrying', { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByText(/Progressing True \(Retrying\): source catalog content: /).waitFor();
    await h.shot(page, 'missing-image');
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('region', { name: 'Delete ClusterCatalog missing' });
    await confirm.getByText('No ClusterExtension you may read resolves from it.').waitFor();
    await confirm.getByRole('button', { name: 'Delete missing' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted ClusterCatalog missing' }).waitFor();
    await waitFor('the catalog gone', async () =>
      (await stored('missing').then(
        () => false,
        (e: unknown) => isKubeError(e, 404),
      ))
        ? true
        : undefined,
    );
    await page.close();
  });

  test('a viewer who may read catalogs sees each control disabled with the reason', async () => {
    await h.kube.create(rbacType('ClusterRole'), {
      metadata: { name: 'clustercatalog-reader' },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    await h.kube.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-clustercatalog-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'clustercatalog-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const page = await h.openAs('bob', '/clustercatalogs');
    const row = page.getByRole('row').filter({ hasText: DEMO });
    await row.getByText('Serving', { exact: true }).waitFor({ timeout: 15_000 });
    for (const name of ['Disable', 'Edit', 'Delete'])
      assert.equal(await row.getByRole('button', { name }).isDisabled(), true, name);
    await row.getByText(/You may not change it: you may not \w+ clustercatalogs/).waitFor();
    await row.getByText(/You may not delete it: you may not delete clustercatalogs/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add ClusterCatalog' }).isDisabled(), true);
    await page.getByText(/You may not add ClusterCatalogs: /).waitFor();
    await h.shot(page, 'viewer');
    await page.close();
  });
});

const DEMO_DIR = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const skip = clusterProgramsMissing();

if (skip) test('Cluster catalogs (OLM v1) on the real cluster', (t) => t.skip(skip));
else
  describe('Cluster catalogs (OLM v1) on the real cluster', () => {
    let cluster: RealCluster;
    let admin: RunningConsole;
    let browser: Browser;
    let kube: KubeClient;
    const name = catalogSourceName(DEMO_DIR);

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

    test("real catalogd's words: Serving, disabled, enabled again, priority changed", async () => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(`${admin.url}/clustercatalogs`);
      const row = page.getByRole('row').filter({ hasText: name });
      // Real catalogd pulls from the cluster's registry on its own schedule.
      await row.getByText('Serving', { exact: true }).waitFor({ timeout: 180_000 });
      await row.getByText(/Serving True \(Available\): Serving desired content from resolved source/).waitFor();
      await row.getByText(/^resolved: .*@sha256:[0-9a-f]{64}$/).waitFor();
      await row.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: `Disable ${name}` }).click();
      await row
        .getByText(/Serving False \(UserSpecifiedUnavailable\): Catalog availability mode is set to Unavailable/)
        .waitFor({ timeout: 120_000 });
      await row.getByRole('button', { name: 'Enable' }).click();
      await row.getByText('Serving', { exact: true }).waitFor({ timeout: 180_000 });
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Priority').fill('-3');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Saved ClusterCatalog ${name}` })
        .waitFor();
      assert.equal((await kube.get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, name)).spec.priority, -3);
      await page.close();
    });
  });
