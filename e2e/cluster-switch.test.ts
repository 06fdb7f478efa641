// Every page on the cluster in its URL, in Debian's Chromium against a production build and three
// sandbox clusters in one process (lib/sandbox/fleet.ts): the header's switcher takes the person
// to the same page on another cluster (`/clusters/<name>/…`), which shows that cluster's installed
// operators and keeps its links and API calls there; the fleet's Clusters page links each row to
// its cluster's pages; the HTTP server ignores a client's own cluster header and answers an
// unknown cluster with a 404 naming the configured ones. Axe at 1440 and 390 px.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startSandboxFleet, type SandboxFleet } from '../lib/sandbox/fleet';
import { accessibilityProblems, DESKTOP, PHONE } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

const shots = join(import.meta.dirname, '..', 'test-results', 'cluster-switch');

describe('the cluster in the URL, and the switcher in the header', () => {
  let dir: string;
  let fleet: SandboxFleet;
  let console_: RunningConsole;
  let browser: Browser;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'olm-e2e-cluster-switch-'));
    fleet = await startSandboxFleet({ count: 3, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 200 });
    console_ = await startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.kubeconfigPath });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await console_?.stop();
    await fleet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const check = async (page: Page, name: string) => {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' });
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `cluster-switch/${name}:\n${problems.join('\n')}`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(sideways, false, `${name} scrolls sideways`);
  };
  /** The Installed Operators table, once it has rows, as the page shows it. */
  const operators = async (page: Page): Promise<string> => {
    await page
      .getByRole('link', { name: /certwarden/i })
      .first()
      .waitFor();
    return page.locator('main table').first().innerText();
  };

  test('desktop: the switcher moves to the same page on another cluster, which shows that cluster', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${console_.url}/operators?namespace=operators`);
    // The fleet's seed: home (prod-east) runs pgpilot beside certwarden; staging runs certwarden only.
    assert.match(await operators(page), /pgpilot/i);
    await page.getByText('Cluster: prod-east').click();
    const clusters = page.getByRole('navigation', { name: 'Clusters' });
    assert.equal(await clusters.getByRole('link', { name: 'prod-east (home)' }).getAttribute('aria-current'), 'page');
    await check(page, 'switcher-open');
    await clusters.getByRole('link', { name: 'staging' }).click();
    await page.waitForURL(/\/clusters\/staging\/operators\?namespace=operators$/);
    await page.getByText('Cluster: staging').waitFor();
    await page.waitForFunction(() => !/pgpilot/i.test(document.querySelector('main table')?.textContent ?? ''));
    const text = await operators(page);
    assert.doesNotMatch(text, /pgpilot/i);
    // Links on the page stay on staging.
    const href = await page
      .getByRole('link', { name: /certwarden/i })
      .first()
      .getAttribute('href');
    assert.match(href ?? '', /^\/clusters\/staging\/operators\/operators\//);
    await check(page, 'staging-operators');
    // A fresh load of staging's address is staging's too (the server render).
    await page.reload();
    assert.doesNotMatch(await operators(page), /pgpilot/i);
    await page.close();
  });

  test('phone: the switcher is in the menu, and moves to the same page on another cluster', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${console_.url}/clusters/staging/operators?namespace=operators`);
    await operators(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByText('Cluster: staging').click();
    await check(page, 'switcher-open-phone');
    await page.getByRole('navigation', { name: 'Clusters' }).getByRole('link', { name: 'prod-east (home)' }).click();
    await page.waitForURL(/\/operators\?namespace=operators$/);
    assert.ok(!page.url().includes('/clusters/'), page.url());
    assert.match(await operators(page), /pgpilot/i);
    await check(page, 'home-operators-phone');
    await page.close();
  });

  test("the fleet's Clusters page links each cluster's row to that cluster's pages", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${console_.url}/fleet/clusters`);
    await page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'staging' }).click();
    await page.waitForURL(/\/clusters\/staging\/operators$/);
    await page.getByText('Cluster: staging').waitFor();
    await page.close();
  });

  test("a client's own cluster header is ignored; an unknown cluster is a 404 naming the configured ones", async () => {
    const forged = await fetch(`${console_.url}/api/operators?namespace=operators`, {
      headers: { 'x-olm-console-cluster': 'staging' },
    });
    assert.equal(forged.status, 200);
    const rows = ((await forged.json()) as { operators: { csvName?: string }[] }).operators.map((o) => o.csvName);
    assert.ok(
      rows.some((c) => c?.startsWith('pgpilot.')),
      `the answer was not home's: ${rows.join(', ')}`,
    );
    const unknown = await fetch(`${console_.url}/clusters/prod-north/api/operators`);
    assert.equal(unknown.status, 404);
    const body = (await unknown.json()) as { error: { message: string } };
    assert.match(body.error.message, /no cluster named "prod-north"; its clusters are prod-east, prod-west, staging/);
    const page = await fetch(`${console_.url}/clusters/prod-north/operators`);
    assert.equal(page.status, 404);
  });
});
