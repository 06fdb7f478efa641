// OperatorHub over a real catalog whose packages do not all have icons (certified-operators:
// kurrentdb-operator and strategy-operator have none): the page asks only for icons that exist,
// so the browser logs no 404 (issue 19, item 14), and the site icon is there.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let server: RunningConsole;
let browser: Browser;

before(async () => {
  sb = await withSandbox({ catalogs: [join(import.meta.dirname, '..', '..', 'shared', 'catalogs', 'certified-operators-v4.18')] });
  server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await sb?.close();
});

test('tiles of packages without an icon show their letter and ask for nothing; no request fails', async () => {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const failed: string[] = [];
  const icons: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    if (r.url().includes('/icon')) icons.push(r.url());
  });
  try {
    await page.goto(`${server.url}/operatorhub?q=kurrentdb`);
    await page.getByRole('heading', { name: 'KurrentDB Operator' }).waitFor();
    await page.goto(`${server.url}/operatorhub?q=cloud-native-postgresql`);
    await page.getByText('EDB', { exact: false }).first().waitFor();
    await page.waitForTimeout(1500);
    assert.ok(icons.some((u) => u.includes('/cloud-native-postgresql/icon')), 'an icon that exists is asked for');
    assert.ok(!icons.some((u) => u.includes('/kurrentdb-operator/icon')), 'an icon known to be absent is not');
    assert.deepEqual(failed, []);
  } finally {
    await page.close();
  }
});
