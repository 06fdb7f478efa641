// The fleet pages in Debian's Chromium, against a production build and three sandbox clusters in
// one process (lib/sandbox/fleet.ts, as `npm start -- --clusters 3` runs them), the console reading
// them as the contexts of one kubeconfig: the navigation lists the fleet pages; Clusters shows each
// ready with both OLMs and its catalogs; Operators across clusters shows each cluster's own
// versions and the drift from the most common; Approvals across clusters approves one upgrade on
// each of two clusters and an OLM v1 version change on a third after one combined preview (with
// what the v1 change does and its installer's rights), each made there (checked through each
// cluster's Kubernetes API); a viewer signed in once sees every cluster and is refused by each; a
// stopped cluster is said to be not answering while the others still answer. Every state passes
// axe at 1440 and 390 px with nothing scrolling sideways on the phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import type { SandboxFleet } from '../lib/sandbox/fleet';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../lib/server/olm-v1/resources';
import { clientAs } from '../lib/server/testing/cluster';
import { accessibilityProblems, DESKTOP, PHONE } from './support/a11y';
import type { RunningConsole } from './support/console-server';
import { startFleetBrowser, tokenSignIn, type FleetBrowser } from './support/fleet-browser';
import { loggedInPage } from './support/login';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet');

describe('the fleet pages: three sandbox clusters', () => {
  let started: FleetBrowser;
  let fleet: SandboxFleet;
  let admin: RunningConsole;
  let perUser: RunningConsole;
  let browser: Browser;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    started = await startFleetBrowser('fleet');
    ({ fleet, browser } = started);
    admin = await started.startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.kubeconfigPath });
    perUser = await started.startConsole(tokenSignIn(fleet.kubeconfigPath, true));
  });
  after(async () => {
    await started?.stop();
  });

  const open = async (path: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}${path}`);
    return page;
  };
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' });
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `fleet/${name}:\n${problems.join('\n')}`);
  };
  const phoneShot = async (page: Page, name: string) => {
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(shots, `${name}-phone.png`), fullPage: true, animations: 'disabled' });
    await page.setViewportSize(DESKTOP);
  };

  test('the navigation lists the fleet pages; Clusters shows every cluster ready, with OLM and catalogs', async () => {
    const page = await open('/operatorhub');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Clusters' }).click();
    await page.waitForURL(/\/fleet\/clusters$/);
    const table = page.getByRole('table', { name: 'Clusters' });
    const rows = table.getByRole('row');
    await rows.nth(3).waitFor();
    // Rows arrive cluster by cluster; the page says it is busy until every cluster has answered.
    await page.locator('section[aria-busy="false"]').first().waitFor();
    for (const [i, name] of ['prod-east', 'prod-west', 'staging'].entries()) {
      const row = rows.nth(i + 1);
      await assert.doesNotReject(row.getByText(name, { exact: true }).waitFor());
      assert.match(await row.innerText(), /Ready[\s\S]*v1\.32\.0-olm-sandbox[\s\S]*Installed[\s\S]*Installed/);
      assert.match(await row.innerText(), /CatalogSource olm\/olm-console-demo: READY/);
    }
    assert.match(await rows.nth(1).innerText(), /home/);
    // The home cluster is the OCM hub: each row has its ManagedCluster, the hub's own as local-cluster.
    assert.match(await rows.nth(1).innerText(), /On the hub as local-cluster, cluster set default/);
    for (const i of [1, 2, 3])
      assert.match(await rows.nth(i).innerText(), /Accepted: yes[\s\S]*Joined: yes[\s\S]*Available: yes/);
    assert.match(await rows.nth(2).innerText(), /region\.open-cluster-management\.io: us-west-2/);
    await shot(page, 'clusters');
    await phoneShot(page, 'clusters');
    await page.close();
  });

  test('Operators across clusters: each cluster its own version, drift from the most common', async () => {
    const page = await open('/fleet/operators');
    const table = page.getByRole('table', { name: 'Operators across clusters' });
    const row = table.getByRole('row').filter({ hasText: 'certwarden' });
    await row.waitFor();
    // Rows arrive cluster by cluster; the page says it is busy until every cluster has answered.
    await page.locator('section[aria-busy="false"]').first().waitFor();
    const cells = row.getByRole('cell');
    assert.match(await cells.nth(0).innerText(), /certwarden\s+most run 1\.0\.0/);
    assert.match(await cells.nth(1).innerText(), /^1\.0\.0 in operators/);
    assert.match(await cells.nth(1).innerText(), /requires approval[\s\S]*manual approval/i);
    assert.doesNotMatch(await cells.nth(1).innerText(), /differs/);
    assert.match(await cells.nth(3).innerText(), /^1\.1\.0 in operators\s+differs from 1\.0\.0/);
    const pg = table.getByRole('row').filter({ hasText: 'pgpilot' }).getByRole('cell');
    assert.match(await pg.nth(3).innerText(), /^1\.3\.0 OLM v1 ClusterExtension pgpilot\s+differs from 1\.4\.0/);
    await shot(page, 'operators');
    await phoneShot(page, 'operators');
    await page.close();
  });

  test('a viewer signed in once sees every cluster, and each refuses her approval', async () => {
    const page = await loggedInPage(browser, perUser.url, fleet.tokens.bob!);
    await page.goto(`${perUser.url}/fleet/approvals`);
    const east = page.getByRole('region', { name: 'prod-east' });
    await east.getByRole('checkbox').first().check();
    await page.getByRole('region', { name: 'prod-west' }).getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Review 2 approvals' }).click();
    await page.getByRole('button', { name: 'Approve 2' }).click();
    const results = page.getByRole('status').filter({ hasText: 'Results' });
    await results.waitFor();
    const text = await results.innerText();
    assert.match(text, /prod-east: InstallPlan operators\/install-\S+ refused \(Forbidden\): .*bob/);
    assert.match(text, /prod-west: InstallPlan operators\/install-\S+ refused \(Forbidden\): .*bob/);
    await shot(page, 'approvals-refused');
    await page.close();
  });

  test('Approvals across clusters: one combined preview of v0 plans and a v1 change, each made on its cluster', async () => {
    const page = await open('/fleet/approvals');
    const east = page.getByRole('region', { name: 'prod-east' });
    const west = page.getByRole('region', { name: 'prod-west' });
    const staging = page.getByRole('region', { name: 'staging' });
    await east.getByText('certwarden: 1.0.0 → 1.1.0').waitFor();
    // staging's pgpilot ClusterExtension is pinned to 1.3.0; the demo catalog's stable channel has
    // 1.4.0 replacing it. The sandbox's OLM v1 installs it in its own time: the page is read again.
    // Rows arrive cluster by cluster and the page says it is busy until every cluster has answered,
    // so each reading waits for that first: a count taken right after a reload sees a page still
    // asking (a CI run under load failed that way with the change on screen a moment later).
    for (let i = 0; ; i++) {
      await page.locator('section[aria-busy="false"]').first().waitFor();
      if (await staging.getByText('pgpilot: 1.3.0 → 1.4.0').count()) break;
      assert.ok(i < 20, `staging never listed pgpilot's version change: ${await staging.innerText()}`);
      await page.waitForTimeout(1_000);
      await page.reload();
    }
    assert.match(await west.innerText(), /certwarden: 1\.0\.0 → 1\.1\.0; pgpilot: 1\.2\.0 → 1\.4\.0/);
    assert.match(await staging.innerText(), /ClusterExtension pgpilot \(OLM v1\), pinned to 1\.3\.0, channels stable/);
    await shot(page, 'approvals');
    await phoneShot(page, 'approvals');
    await east.getByRole('checkbox').first().check();
    await west.getByRole('checkbox').first().check();
    await staging.getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Review 3 approvals' }).click();
    const preview = page.getByRole('region', {
      name: /You are about to approve 2 InstallPlans and 1 version change on 3 clusters/,
    });
    await preview.getByText('On its next pass OLM v1 upgrades to').waitFor();
    const said = await preview.innerText();
    assert.match(said, /prod-east\s+certwarden: 1\.0\.0 → 1\.1\.0/);
    assert.match(said, /prod-west\s+certwarden: 1\.0\.0 → 1\.1\.0[^\n]*\n\s*pgpilot: 1\.2\.0 → 1\.4\.0/);
    assert.match(
      said,
      /staging\s+pgpilot: 1\.3\.0 → 1\.4\.0 \(ClusterExtension pgpilot: its version set to exactly 1\.4\.0\)/,
    );
    assert.match(
      said,
      /On its next pass OLM v1 upgrades to 1\.4\.0 \(pgpilot\.v1\.4\.0, from catalog olm-console-demo\)/,
    );
    assert.match(said, /What this upgrade changes for staging pgpilot/);
    // The seed binds cluster-admin to the installer directly, not through roles the console made.
    assert.match(said, /Whether its ServiceAccount may install pgpilot\.v1\.4\.0 is not known/);
    await shot(page, 'approvals-preview');
    await page.setViewportSize(PHONE);
    await shot(page, 'approvals-preview-phone');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Approve 3' }).click();
    const results = page.getByRole('status').filter({ hasText: 'Results' });
    await results.waitFor();
    const done = await results.innerText();
    assert.match(done, /prod-east: InstallPlan operators\/\S+ approved \(certwarden\.v1\.1\.0\)/);
    assert.match(done, /prod-west: InstallPlan operators\/\S+ approved \(certwarden\.v1\.1\.0, pgpilot\.v1\.4\.0\)/);
    assert.match(done, /staging: ClusterExtension pgpilot set to version 1\.4\.0/);
    await shot(page, 'approvals-done');
    await page.setViewportSize(PHONE);
    await shot(page, 'approvals-done-phone');
    await page.setViewportSize(DESKTOP);
    for (const name of ['prod-east', 'prod-west']) {
      const kube = clientAs(fleet.clusters.find((c) => c.name === name)!.sandbox, 'admin');
      const plans = await kube.list<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'operators' });
      const upgrade = plans.items.find((p) => p.spec.clusterServiceVersionNames.includes('certwarden.v1.1.0'));
      assert.equal(upgrade?.spec.approved, true, name);
    }
    const v1 = clientAs(fleet.clusters.find((c) => c.name === 'staging')!.sandbox, 'admin');
    const ce = await v1.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
    assert.equal(ce.spec?.source?.catalog?.version, '1.4.0');
    await page.close();
  });

  test('a stopped cluster is said to be not answering; the others still answer', async () => {
    await fleet.clusters[2]!.sandbox.stop();
    // Alice has asked nothing yet: no answer of the running cluster is kept for her.
    const page = await loggedInPage(browser, perUser.url, fleet.tokens.alice!);
    await page.goto(`${perUser.url}/fleet/clusters`);
    const rows = page.getByRole('table', { name: 'Clusters' }).getByRole('row');
    await rows.nth(3).getByText('Not answering').waitFor();
    assert.match(await rows.nth(3).innerText(), /Not answering \(ServiceUnavailable\): cannot reach the cluster/);
    assert.match(await rows.nth(1).innerText(), /Ready/);
    await shot(page, 'clusters-one-down');
    await page.close();
  });
});
