// A package's rollout in Debian's Chromium, against a production build and three sandbox clusters
// in one process (lib/sandbox/fleet.ts): from Operators across clusters, a package's link opens
// its rollout, where each cluster says which version it runs, the InstallPlan waiting there, the
// newest version its own catalog offers and the steps to it (edges from the demo catalog,
// lib/sandbox/demo-catalog/catalog/*/catalog.yaml), an OLM v1 extension pinned at its version
// included; a stopped cluster is its own section with the reason. Axe clean at 1440 and 390 px,
// nothing scrolling sideways on the phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FLEET_CACHE_MS } from '../lib/server/fleet/across';
import type { SandboxFleet } from '../lib/sandbox/fleet';
import { DESKTOP } from './support/a11y';
import { checkBothWidths } from './support/both-widths';
import type { RunningConsole } from './support/console-server';
import { startFleetBrowser, type FleetBrowser } from './support/fleet-browser';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-rollout');

describe("a package's rollout across three sandbox clusters", () => {
  let started: FleetBrowser;
  let fleet: SandboxFleet;
  let admin: RunningConsole;
  let browser: Browser;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    started = await startFleetBrowser('fleet-rollout');
    ({ fleet, browser } = started);
    admin = await started.startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.kubeconfigPath });
  });
  after(async () => {
    await started?.stop();
  });

  /** Axe at desktop and phone widths, nothing wider than the phone, a screenshot of each. */
  const check = (page: Page, name: string) => checkBothWidths(page, shots, 'fleet-rollout', name);

  test('from Operators across clusters, certwarden opens its rollout: each cluster its version and path', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/operators`);
    await page
      .getByRole('table', { name: 'Operators across clusters' })
      .getByRole('link', { name: 'certwarden', exact: true })
      .click();
    await page.waitForURL(/\/fleet\/operators\/certwarden$/);
    await page.getByRole('heading', { level: 1, name: 'certwarden: rollout across clusters' }).waitFor();
    const east = page.getByRole('region', { name: /^prod-east/ });
    await east.getByText('Upgrade waiting for approval').waitFor();
    const eastText = await east.innerText();
    assert.match(eastText, /1\.0\.0\s+OLM v0 Subscription operators\/certwarden/);
    assert.match(eastText, /InstallPlan install-\S+: certwarden\.v1\.0\.0 → certwarden\.v1\.1\.0/);
    assert.match(eastText, /Newest here\s+1\.1\.0 \(certwarden\.v1\.1\.0\)/);
    assert.match(eastText, /1 step to the head 1\.1\.0:\s+certwarden\.v1\.1\.0 \(1\.1\.0\) by replaces/);
    const staging = await page.getByRole('region', { name: 'staging' }).innerText();
    assert.match(staging, /1\.1\.0\s+OLM v0 Subscription/);
    assert.match(staging, /Up to date: it runs the newest version its channel offers here/);
    assert.match(await page.locator('main').innerText(), /Runs 1\.0\.0 on prod-east, prod-west; 1\.1\.0 on staging\./);
    await check(page, 'certwarden');
    await page.close();
  });

  test('pgpilot: a skipRange step on prod-west, the OLM v1 extension on staging pinned where it is', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/operators/pgpilot`);
    const west = page.getByRole('region', { name: 'prod-west' });
    await west.getByText(/step to the head/).waitFor();
    assert.match(await west.innerText(), /1 step to the head 1\.4\.0:\s+pgpilot\.v1\.4\.0 \(1\.4\.0\) by skipRange/);
    const staging = await page.getByRole('region', { name: 'staging' }).innerText();
    assert.match(staging, /1\.3\.0\s+OLM v1 ClusterExtension pgpilot/);
    assert.match(staging, /Version\s+1\.3\.0[\s\S]*Catalog\s+olm-console-demo/);
    assert.match(staging, /Newest allowed\s+1\.3\.0 \(pgpilot\.v1\.3\.0\)/);
    assert.match(
      staging,
      /Up to date: it runs the newest version its channel offers here within its version constraint 1\.3\.0/,
    );
    await check(page, 'pgpilot');
    await page.close();
  });

  test('a stopped cluster is its own section with the reason; the others still answer', async () => {
    await fleet.clusters[2]!.sandbox.stop();
    // What staging said a moment ago is kept for FLEET_CACHE_MS per person: wait it out.
    await new Promise((r) => setTimeout(r, FLEET_CACHE_MS + 500));
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/operators/certwarden`);
    const staging = page.getByRole('region', { name: 'staging' });
    await staging.getByText('Not answering').waitFor({ timeout: 30_000 });
    assert.match(await staging.innerText(), /ServiceUnavailable/);
    assert.match(await page.getByRole('region', { name: /^prod-east/ }).innerText(), /1\.0\.0/);
    await check(page, 'certwarden-staging-stopped');
    await page.close();
  });
});
