// One OperatorHub for OLM v0 and v1 in Debian's Chromium, against a production build and the
// sandbox: the demo catalog is both a CatalogSource and a ClusterCatalog, so its tiles say both
// OLMs install them; a ClusterCatalog of an image only catalogd serves brings a tile only OLM v1
// installs. The v0 details page links the v1 one, which shows channels, the graph, OLM v1's
// deprecations and Install towards the v1 wizard; a viewer who may list ClusterCatalogs but not
// create ClusterExtensions sees Install disabled with the cluster's reason. Then the hub and the v1
// page against the real cluster's catalogd v1.2.0 (`npm run cluster`), skipped with the reason
// where its programs are not built.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { rbacType } from '../lib/k8s/core-kinds';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { CLUSTER_CATALOG_TYPE } from '../lib/server/olm-v1/resources';
import { DESKTOP, PHONE } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { useHarness } from './support/harness';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const DEMO = 'olm-console-demo';
const SOLO = 'acme-v1';
const SOLO_IMAGE = 'quay.example.com/acme/v1-catalog:latest';

/** A catalog image only catalogd serves: one package, no CatalogSource. */
function writeSoloCatalog(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'e2e-hub-v1-')), SOLO);
  mkdirSync(dir);
  const docs = [
    { schema: 'olm.package', name: 'solo', defaultChannel: 'stable', description: 'Solo runs one thing well.' },
    { schema: 'olm.channel', name: 'stable', package: 'solo', entries: [{ name: 'solo.v1.0.0' }] },
    {
      schema: 'olm.bundle',
      name: 'solo.v1.0.0',
      package: 'solo',
      image: 'quay.example.com/acme/solo-bundle:v1.0.0',
      properties: [{ type: 'olm.package', value: { packageName: 'solo', version: '1.0.0' } }],
    },
  ];
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

describe('OperatorHub for OLM v0 and v1', () => {
  const h = useHarness({
    suite: 'olm-v1-hub',
    sandbox: { catalogImages: { [SOLO_IMAGE]: writeSoloCatalog() } },
    seed: async (kube) => {
      await kube.create(CLUSTER_CATALOG_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name: SOLO },
        spec: { source: { type: 'Image', image: { ref: SOLO_IMAGE } } },
      });
      // bob (view) may read ClusterCatalogs here, and still may not create ClusterExtensions.
      await kube.create(rbacType('ClusterRole'), {
        metadata: { name: 'e2e-catalog-reader' },
        rules: [{ apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list'] }],
      });
      await kube.create(rbacType('ClusterRoleBinding'), {
        metadata: { name: 'e2e-bob-catalog-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'e2e-catalog-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
      });
    },
  });
  const tiles = (page: Page) => page.getByRole('list', { name: 'Operators' }).getByRole('listitem');

  /** The hub once catalogd serves both ClusterCatalogs (the server render may come before). */
  const hubWithV1 = async (): Promise<Page> => {
    const page = await h.open('/operatorhub');
    await page.setViewportSize(DESKTOP);
    for (let i = 0; i < 30; i++) {
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      if ((await tiles(page).filter({ hasText: 'solo' }).count()) > 0) return page;
      await page.waitForTimeout(500);
      await page.reload();
    }
    throw new Error('the ClusterCatalogs never reached the hub');
  };

  test('a tile for both OLMs, a tile for OLM v1 alone, and the "Installs with" facet', async () => {
    const page = await hubWithV1();
    const pgpilot = tiles(page).filter({ has: page.getByRole('heading', { name: 'PgPilot', exact: true }) });
    assert.equal(await pgpilot.count(), 1, 'one tile for the package both catalogs offer');
    await pgpilot.getByText('OLM v0 · OLM v1', { exact: true }).waitFor();
    const solo = tiles(page).filter({ has: page.getByRole('heading', { name: 'solo', exact: true }) });
    await solo.getByText('OLM v1', { exact: true }).waitFor();
    assert.equal(await solo.getByRole('link').getAttribute('href'), `/clustercatalogs/${SOLO}/packages/solo`);
    const facet = page.getByRole('group', { name: 'Installs with' });
    await facet.getByRole('checkbox', { name: 'OLM v0 (12)' }).waitFor();
    await facet.getByRole('checkbox', { name: 'OLM v1 (13)' }).check();
    await page.getByRole('status').filter({ hasText: '13 of 13 operators' }).waitFor();
    await facet.getByRole('checkbox', { name: 'OLM v1 (13)' }).uncheck();
    await facet.getByRole('checkbox', { name: 'OLM v0 (12)' }).check();
    await page.getByRole('status').filter({ hasText: '12 of 13 operators' }).waitFor();
    assert.equal(await tiles(page).filter({ hasText: 'solo' }).count(), 0);
    await facet.getByRole('checkbox', { name: 'OLM v0 (12)' }).uncheck();
    await h.shot(page, 'hub');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'hub-phone');
    await page.close();
  });

  test('the v0 page links the v1 page: channels, the graph, deprecations and Install for OLM v1', async () => {
    await hubWithV1().then((p) => p.close());
    const page = await h.open(`/operatorhub/olm/${DEMO}/flagpole`);
    await page.setViewportSize(DESKTOP);
    const note = page.getByRole('note').filter({ hasText: 'Also offered to OLM v1 by' });
    await note.getByRole('link', { name: `ClusterCatalog ${DEMO}` }).click();
    await page.waitForURL(`**/clustercatalogs/${DEMO}/packages/flagpole`);
    await page.getByRole('heading', { level: 1, name: 'Flagpole' }).waitFor();
    await page.getByText(`Installs with OLM v1 from ClusterCatalog ${DEMO}`).waitFor();
    await page.getByRole('note').filter({ hasText: 'This package is deprecated' }).waitFor();
    // v1.2.0 targets all namespaces only; Flagpole's versions support it.
    await page.getByText('OLM v1 installs it for all namespaces, the only mode it offers.').waitFor();
    assert.equal(await page.getByLabel('Channel', { exact: true }).inputValue(), 'stable');
    await page.getByRole('heading', { name: 'Upgrade graph of stable' }).waitFor();
    await page.getByRole('list', { name: 'Versions of stable, newest first' }).getByText('1.0.1').waitFor();
    await page.getByText(/with no version installs 1\.0\.1/).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Install', exact: true }).getAttribute('href'),
      `/clustercatalogs/${DEMO}/packages/flagpole/install?channel=stable&version=1.0.1`,
    );
    // The v1 page links back to the CatalogSource's.
    await page
      .getByRole('note')
      .getByRole('link', { name: /CatalogSource olm-console demo operators \(olm\/olm-console-demo\)/ })
      .waitFor();
    await page.getByLabel('Version', { exact: true }).selectOption('flagpole.v1.0.0');
    await page.getByRole('note').filter({ hasText: 'This version is deprecated' }).waitFor();
    await page.getByText(/leaks flag evaluations/).waitFor();
    await h.shot(page, 'v1-details');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'v1-details-phone');
    await page.setViewportSize(DESKTOP);
    await page.close();
  });

  test('someone who may not create ClusterExtensions sees Install disabled with the reason', async () => {
    const page = await h.openAs('bob', `/clustercatalogs/${DEMO}/packages/pgpilot`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    const install = page.getByRole('button', { name: 'Install' });
    assert.equal(await install.isDisabled(), true);
    await page.getByText(/^You may not create ClusterExtensions: /).waitFor();
    await h.shot(page, 'v1-details-viewer');
    await page.close();
  });

  test('a broken or missing package is a page that says so', async () => {
    const page = await h.open(`/clustercatalogs/${DEMO}/packages/no-such-package`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Package no-such-package could not be loaded' }).waitFor();
    await page.getByText(`ClusterCatalog ${DEMO} has no package no-such-package`).first().waitFor();
    await h.shot(page, 'v1-missing');
    await page.close();
  });
});

const DEMO_DIR = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const skip = clusterProgramsMissing();

if (skip) test('OperatorHub for OLM v0 and v1 on the real cluster', (t) => t.skip(skip));
else
  describe('OperatorHub for OLM v0 and v1 on the real cluster', () => {
    let cluster: RealCluster;
    let admin: RunningConsole;
    let browser: Browser;
    const name = catalogSourceName(DEMO_DIR);

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: cluster.kubeconfigPath });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await admin?.stop();
      await cluster?.stop();
    });

    test("real catalogd's content: one tile for both OLMs, and the v1 page from the v0 one", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      // Real catalogd pulls the catalog image on its own schedule: the hub shows v1 once it serves.
      const deadline = Date.now() + 240_000;
      for (;;) {
        await page.goto(`${admin.url}/operatorhub?q=pgpilot`);
        const tile = page.getByRole('list', { name: 'Operators' }).getByRole('listitem').first();
        await tile.waitFor({ timeout: 60_000 });
        if ((await tile.getByText('OLM v0 · OLM v1', { exact: true }).count()) > 0) break;
        if (Date.now() > deadline) throw new Error('the ClusterCatalog never reached the hub');
        await page.waitForTimeout(3000);
      }
      await page.goto(`${admin.url}/operatorhub/olm/${name}/pgpilot`);
      await page
        .getByRole('note')
        .getByRole('link', { name: `ClusterCatalog ${name}` })
        .click();
      await page.waitForURL(`**/clustercatalogs/${name}/packages/pgpilot`);
      await page.getByText(`Installs with OLM v1 from ClusterCatalog ${name}`).waitFor();
      await page.getByRole('heading', { name: /^Upgrade graph of / }).waitFor();
      await page.getByText(/with no version installs 1\.4\.0/).waitFor();
      assert.ok(await page.getByRole('link', { name: 'Install', exact: true }).isVisible());
      await page.close();
    });
  });
