// `npm run screenshots`: the README's screenshots, made from a production build against a fresh
// sandbox with the demo catalog, in Debian's Chromium. `-- hub` makes only the shots whose
// name contains "hub".
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startConsole } from '../e2e/support/console-server';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs, subscribe } from '../lib/server/testing/cluster';

const out = join(import.meta.dirname, '..', 'docs', 'screenshots');
const filters = process.argv.slice(2);

/** Waits until every image on the page has loaded (or failed) and layout has settled. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.waitForTimeout(300);
}

interface Shot {
  name: string;
  take: (page: Page, url: string, sb: Awaited<ReturnType<typeof withSandbox>>) => Promise<void>;
}

const shots: Shot[] = [
  {
    name: 'operatorhub',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub`);
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'operatorhub-filtered',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub?q=data&installMode=OwnNamespace`);
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'operator-details',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub/olm/olm-console-demo/pgpilot`);
      await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'install-wizard',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub/olm/olm-console-demo/vaultkeeper/install`);
      await page.getByRole('heading', { level: 2, name: 'What the install will do' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'install-progress',
    take: async (page, url, sb) => {
      await subscribe(clientAs(sb, 'admin'), { namespace: 'pg', package: 'pgpilot', channel: 'stable', approval: 'Manual', startingCSV: 'pgpilot.v1.2.0', targets: ['pg'] });
      await page.goto(`${url}/installs/pg/pgpilot`);
      await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
      await settle(page);
    },
  },
];

async function main(): Promise<void> {
  const sb = await withSandbox({ deploymentDelayMs: 500 });
  const server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  const browser = await launchBrowser();
  try {
    for (const shot of shots.filter((s) => filters.length === 0 || filters.some((f) => s.name.includes(f)))) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await shot.take(page, server.url, sb);
      const file = join(out, `${shot.name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(`wrote ${file}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await sb.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
