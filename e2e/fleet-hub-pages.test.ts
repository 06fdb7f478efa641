// The pages of a cluster the console knows only from an Open Cluster Management hub, in Debian's
// Chromium against a production build and three sandbox clusters in one process (lib/sandbox/fleet.ts:
// the first a hub listing the others as ManagedClusters), the console's kubeconfig leaving
// prod-west out and people signing in with a token every cluster accepts. From the fleet's
// Clusters page the admin follows prod-west's row to its Installed Operators, which shows
// prod-west's operators and offers prod-west in the header's switcher, and comes back; a cluster
// the hub lists but does not report Available is a page saying so; signed out, such a page is the
// login page and its API a 401. Axe at 1440 and 390 px, nothing scrolling sideways on the phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { SandboxFleet } from '../lib/sandbox/fleet';
import { clientAs } from '../lib/server/testing/cluster';
import { kubeconfigWithout } from '../lib/server/testing/fleet-sandbox';
import { MANAGED_CLUSTER_TYPE } from '../lib/server/fleet/hub-members';
import { DESKTOP } from './support/a11y';
import { checkBothWidths } from './support/both-widths';
import type { RunningConsole } from './support/console-server';
import { startFleetBrowser, tokenSignIn, type FleetBrowser } from './support/fleet-browser';
import { loggedInPage } from './support/login';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-hub-pages');

describe('a cluster only the OCM hub lists, and its pages', () => {
  let started: FleetBrowser;
  let fleet: SandboxFleet;
  let app: RunningConsole;
  let page: Page;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    started = await startFleetBrowser('fleet-hub-pages');
    fleet = started.fleet;
    // A cluster the hub has accepted but never heard from: the console must not wait on it.
    await clientAs(fleet.clusters[0]!.sandbox, 'admin').create(MANAGED_CLUSTER_TYPE, {
      metadata: { name: 'lab' },
      spec: { hubAcceptsClient: true, managedClusterClientConfigs: [{ url: 'https://127.0.0.1:1' }] },
    });
    const kubeconfig = kubeconfigWithout(fleet, ['prod-west'], join(started.dir, 'console-kubeconfig'));
    app = await started.startConsole(tokenSignIn(kubeconfig, true));
    page = await loggedInPage(started.browser, app.url, fleet.tokens.admin!);
    await page.setViewportSize(DESKTOP);
  });
  after(async () => {
    await started?.stop();
  });

  /** Screenshots at a desktop's width and a phone's; axe at both, and no sideways scrolling on the phone. */
  const check = (name: string) => checkBothWidths(page, shots, 'fleet-hub-pages', name);
  const clustersTable = () => page.getByRole('table', { name: 'Clusters' });
  const settled = () => page.locator('section[aria-busy="false"]').first().waitFor();

  test("from the Clusters page to the hub-only cluster's Installed Operators, and back", async () => {
    await page.goto(`${app.url}/fleet/clusters`);
    await settled();
    const west = clustersTable()
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'prod-west', exact: true }) });
    assert.match(await west.innerText(), /Listed by the hub/);
    await check('clusters');
    await west.getByRole('link', { name: 'prod-west', exact: true }).click();
    await page.waitForURL(/\/clusters\/prod-west\/operators$/);
    await page.getByText('Cluster: prod-west').waitFor();
    // The fleet's seed: prod-west alone runs cachely (home runs certwarden and pgpilot, not cachely).
    await page
      .getByRole('link', { name: /cachely/i })
      .first()
      .waitFor();
    const href = await page
      .getByRole('link', { name: /cachely/i })
      .first()
      .getAttribute('href');
    assert.match(href ?? '', /^\/clusters\/prod-west\/operators\/team1\//);
    await check('prod-west-operators');
    // The switcher offers it beside the configured clusters.
    await page.getByText('Cluster: prod-west').click();
    const switcher = page.getByRole('navigation', { name: 'Clusters' });
    assert.equal(await switcher.getByRole('link', { name: 'prod-west' }).getAttribute('aria-current'), 'page');
    await switcher.getByRole('link', { name: 'prod-east (home)' }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/fleet\/clusters$/);
    await settled();
    await clustersTable().getByRole('link', { name: 'prod-west', exact: true }).waitFor();
  });

  test('a cluster the hub does not report Available is a page saying so, not a 404', async () => {
    const res = await page.goto(`${app.url}/clusters/lab/operators`);
    assert.equal(res?.status(), 200);
    await page.getByRole('heading', { name: 'The console does not ask lab' }).waitFor();
    assert.match(await page.locator('main').innerText(), /has no ManagedClusterConditionAvailable/);
    await check('lab-not-asked');
    await page.getByRole('link', { name: 'All clusters' }).click();
    await page.waitForURL(/\/fleet\/clusters$/);
  });

  test('signed out, a hub-only page is the login page and its API a 401; an unlisted name a 404', async () => {
    const api = await fetch(`${app.url}/clusters/prod-west/api/operators`);
    assert.equal(api.status, 401);
    const pageAnswer = await fetch(`${app.url}/clusters/prod-west/operators`, { redirect: 'manual' });
    assert.equal(pageAnswer.status, 303);
    assert.equal(pageAnswer.headers.get('location'), '/login?next=%2Fclusters%2Fprod-west%2Foperators');
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const unlisted = await fetch(`${app.url}/clusters/prod-north/api/operators`, { headers: { cookie } });
    assert.equal(unlisted.status, 404);
    const forged = await fetch(`${app.url}/api/operators?namespace=team1`, {
      headers: { cookie, 'x-olm-console-cluster': 'prod-west' },
    });
    const csvs = ((await forged.json()) as { operators: { csvName?: string }[] }).operators.map((o) => o.csvName);
    assert.ok(!csvs.includes('cachely.v0.9.0'), `a client's header named the cluster: ${csvs.join(', ')}`);
  });
});
