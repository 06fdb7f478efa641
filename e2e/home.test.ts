import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let server: RunningConsole;
let browser: Browser;

before(async () => {
  // The console refuses to start without a cluster to serve.
  sb = await withSandbox({ demo: false });
  server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await sb?.close();
});

test('the home page renders its heading and the main navigation', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  const heading = page.getByRole('heading', { level: 1 });
  assert.equal(await heading.textContent(), 'Operator Lifecycle Manager');
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), true);
  assert.equal(await page.title(), 'OLM Console');
  await page.close();
});
