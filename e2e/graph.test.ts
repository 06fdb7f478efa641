// The upgrade-graph viewer in Debian's Chromium, on a real catalog from ../shared/catalogs whose
// stable channel has replaces, skips and skipRange edges (gatekeeper-operator-product, v4.20).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs, waitFor } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

const CATALOG_DIR = join(import.meta.dirname, '..', '..', 'shared', 'catalogs', 'gatekeeper-operator-product-v4.20');
const CATSRC = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'catalogsources', namespaced: true, kind: 'CatalogSource' };
const PKG = 'gatekeeper-operator-product';

describe('upgrade graph viewer', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let server: RunningConsole;
  let browser: Browser;
  let base: string;

  before(async () => {
    sb = await withSandbox({ catalogs: [CATALOG_DIR], demo: false });
    const kube = clientAs(sb, 'admin');
    const catalog = await waitFor('the catalog ready', async () => {
      const cs = (await kube.listAll<{ metadata?: { name?: string }; status?: { connectionState?: { lastObservedState?: string } } }>(CATSRC, { namespace: 'olm' })).items[0];
      return cs?.status?.connectionState?.lastObservedState === 'READY' ? cs.metadata?.name : undefined;
    });
    base = `/operatorhub/olm/${catalog}/${PKG}/graph`;
    server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sb?.close();
  });

  const open = async (query: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(`${server.url}${base}${query}`);
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    return page;
  };

  test('every edge kind is drawn and counted, the head is marked, skipped bundles are never targets', async () => {
    const page = await open('?channel=stable');
    const legend = page.getByRole('list', { name: 'Legend' });
    for (const kind of ['replaces', 'skips', 'skipRange']) assert.match((await legend.getByText(new RegExp(`^${kind} \\(`)).textContent()) ?? '', new RegExp(`^${kind} \\([1-9]\\d*\\)$`), `${kind} edges exist`);
    assert.match((await legend.getByText(/^skips \(/).textContent()) ?? '', /^skips \(3\)$/, 'the three skips of v3.15.1-0.1727189912.p');
    await page.getByText('The same graph as a list').click();
    const rows = page.getByRole('table', { name: 'Versions of stable' }).getByRole('row');
    assert.match((await rows.nth(1).textContent()) ?? '', /^3\.21\.0.*head/, 'the newest first, and it is the head');
    assert.match((await rows.filter({ has: page.getByRole('button', { name: '3.15.1', exact: true }) }).textContent()) ?? '', /never an upgrade target/);
    await page.close();
  });

  test('a chosen starting version shows the path OLM walks; a node\'s facts by keyboard and by the list', async () => {
    const page = await open(`?channel=stable&from=${PKG}.v3.17.0`);
    // The head's skipRange (<3.21.0) covers 3.17.0, so OLM goes there in one InstallPlan.
    const status = page.getByRole('status').filter({ hasText: 'From ' });
    await status.waitFor();
    assert.match((await status.textContent()) ?? '', new RegExp(`makes 1 InstallPlan: ${PKG}\\.v3\\.21\\.0`));
    const aside = page.getByRole('complementary', { name: 'Selected version' });
    assert.match((await aside.textContent()) ?? '', /3\.17\.0/, 'the starting version is selected');
    await page.getByRole('application').focus();
    await page.keyboard.press('End');
    await aside.getByText('Head of stable.').waitFor();
    assert.match((await aside.getByRole('link', { name: 'Install this version' }).getAttribute('href')) ?? '', new RegExp(`version=${PKG}.v3.21.0`));
    await page.keyboard.press('ArrowLeft');
    await aside.getByRole('heading', { name: '3.20.0' }).waitFor();
    await page.getByText('The same graph as a list').click();
    await page.getByRole('table', { name: 'Versions of stable' }).getByRole('button', { name: '3.15.1', exact: true }).click();
    await aside.getByText(/Never an upgrade target/).waitFor();
    await page.getByLabel('Channel').selectOption('3.17');
    await page.getByRole('table', { name: 'Versions of 3.17' }).waitFor();
    await page.close();
  });

  test('channels overlaid: each in its colour with its edges, a bundle only the other channel has is found and is its head', async () => {
    const page = await open('?channel=stable');
    await page.getByRole('group', { name: 'Overlay channels' }).getByLabel('3.17', { exact: true }).check();
    const legend = page.getByRole('list', { name: 'Legend' });
    await legend.getByText('channel 3.17 (9 edges)').waitFor();
    await legend.getByText('channel stable (71 edges)').waitFor();
    assert.match(page.url(), /overlay=3\.17/, 'the overlay is kept in the URL');
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    await page.getByLabel('Find a version').fill('3.17.3');
    await page.getByLabel('Find a version').press('Enter');
    const aside = page.getByRole('complementary', { name: 'Selected version' });
    await aside.getByText('Head of 3.17.').waitFor();
    assert.equal(await aside.getByText('Head of stable.').count(), 0);
    await page.getByRole('group', { name: 'Overlay channels' }).getByLabel('3.17', { exact: true }).uncheck();
    await legend.getByText(/^skips \(3\)$/).waitFor();
    assert.equal(await legend.getByText(/^channel .* edges\)$/).count(), 0, 'one channel again: no channel colours');
    await page.close();
  });
});
