// Installed Operators, operator details, InstallPlans, uninstall and catalog sources in Debian's
// Chromium, against a production build and a sandbox with the demo catalog. What the browser did
// is checked in the cluster with the Kubernetes API.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isKubeError } from '../lib/k8s/errors';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';
import { loggedInPage } from './support/login';

const CSVS = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'clusterserviceversions',
  namespaced: true,
  kind: 'ClusterServiceVersion',
};
const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};
const CRDS = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const OGS = {
  group: 'operators.coreos.com',
  version: 'v1',
  plural: 'operatorgroups',
  namespaced: true,
  kind: 'OperatorGroup',
};

describe('Installed operators, InstallPlans, uninstall, catalog sources', () => {
  const h = useHarness({
    suite: 'operators',
    seed: async (kube) => {
      // certwarden for all namespaces (copied everywhere); pgpilot in its own namespace; a second
      // pgpilot under Manual approval, started two versions back.
      await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
      await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
      await subscribe(kube, {
        namespace: 'pgm',
        package: 'pgpilot',
        channel: 'fast',
        targets: ['pgm'],
        approval: 'Manual',
        startingCSV: 'pgpilot.v1.2.0',
      });
      await ensureNamespace(kube, 'team1');
      const first = await waitFor(
        'the first pgm plan',
        async () => (await sub('pgm', 'pgpilot')).status?.installPlanRef?.name,
      );
      const plan = await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, first, 'pgm');
      await kube.replace(INSTALL_PLAN_TYPE, { ...plan, spec: { ...plan.spec, approved: true } });
      await waitForCsv(kube, 'operators', await installed('operators', 'certwarden'));
      await waitForCsv(kube, 'pg', await installed('pg', 'pgpilot'));
      await waitForCsv(kube, 'pgm', await installed('pgm', 'pgpilot'));
    },
  });
  const sub = (ns: string, name: string) => h.kube.get<Subscription>(SUBSCRIPTION_TYPE, name, ns);
  const installed = (ns: string, name: string) =>
    waitFor(`${ns}/${name} installed`, async () => (await sub(ns, name)).status?.installedCSV);
  const exists = async (t: typeof CSVS, name: string, ns?: string) => {
    try {
      await h.kube.get(t, name, ns);
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };

  const open = async (path: string, server = h.admin): Promise<Page> => {
    const page = await h.browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(`${server.url}${path}`);
    return page;
  };
  const rows = (page: Page) => page.getByRole('table', { name: 'Installed operators' }).getByRole('row');

  test('all namespaces: one row per operator, copies folded into a count; filters narrow it', async () => {
    const page = await open('/operators');
    await page.getByRole('table', { name: 'Installed operators' }).waitFor();
    const cert = rows(page).filter({ hasText: 'CertWarden' });
    assert.equal(await cert.count(), 1, 'the copies are not rows');
    assert.match((await cert.textContent()) ?? '', /\d+ copies in watched namespaces/);
    assert.match((await cert.textContent()) ?? '', /All namespaces/);
    assert.equal(await rows(page).filter({ hasText: 'PgPilot' }).count(), 2);
    await page.getByLabel('Filter by name').fill('cert');
    await page
      .getByRole('status')
      .filter({ hasText: /^1 of 3 operators/ })
      .waitFor();
    await page.getByLabel('Filter by name').fill('');
    await page.getByLabel('Sort by').selectOption('namespace');
    assert.match((await rows(page).nth(1).textContent()) ?? '', /CertWarden.*operators/);
    await page.close();
  });

  test('one namespace: an operator there only as a copy says so, links to its source, and can be hidden', async () => {
    const page = await open('/operators?namespace=team1');
    const copy = rows(page).filter({ hasText: 'CertWarden' });
    await copy.waitFor();
    assert.match((await copy.textContent()) ?? '', /Copied from operators/);
    assert.equal(
      await copy.getByRole('button', { name: /Uninstall/ }).count(),
      0,
      'a copy is not uninstalled from here',
    );
    await page.getByLabel('Show copied operators').uncheck();
    await page.getByText('No operator matches these filters.').waitFor();
    await page.getByLabel('Show copied operators').check();
    await copy.getByRole('link', { name: 'operators' }).click();
    await page.waitForURL(/\/operators\/operators\/certwarden/);
    await page.getByRole('heading', { level: 1, name: 'CertWarden' }).waitFor();
    await page.close();
  });

  test('details: tabs; the subscription moves to another channel OLM allows', async () => {
    const csv = await installed('pg', 'pgpilot');
    const page = await open(`/operators/pg/${csv}`);
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    assert.ok(await page.getByRole('heading', { name: 'Provided APIs' }).isVisible());
    await page.getByRole('tab', { name: 'YAML' }).click();
    await page.getByLabel('CSV YAML', { exact: true }).waitFor();
    assert.match(
      (await page.getByLabel('CSV YAML', { exact: true }).textContent()) ?? '',
      /kind: ClusterServiceVersion/,
    );
    await page.getByRole('tab', { name: 'Subscription' }).click();
    await page.getByRole('table', { name: 'Subscription conditions' }).waitFor();
    assert.match((await page.getByText(/is the head of stable/).textContent()) ?? '', /pgpilot.v1.4.0/);
    const options = await page.getByLabel('Update channel', { exact: true }).locator('option').allTextContents();
    assert.ok(
      options.some((o) => /^fast/.test(o)),
      `fast is offered: ${options.join(' | ')}`,
    );
    await page.getByLabel('Update channel', { exact: true }).selectOption('fast');
    await page.getByRole('button', { name: 'Change channel' }).click();
    // OLM upgrades to fast's 1.5.0 and deletes 1.4.0: the page follows the operator to its new CSV.
    await page.waitForURL(/\/operators\/pg\/pgpilot\.v1\.5\.0\?tab=subscription&replaced=pgpilot\.v1\.4\.0/);
    await page.getByRole('note').filter({ hasText: 'OLM replaced pgpilot.v1.4.0 with pgpilot.v1.5.0' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    assert.equal((await sub('pg', 'pgpilot')).spec.channel, 'fast');
    assert.equal(
      await page.getByLabel('Update channel', { exact: true }).inputValue(),
      'fast',
      'the page shows the channel it is on now',
    );
    assert.equal(await page.getByRole('alert').filter({ hasText: 'not changed' }).count(), 0);
    await page.close();
  });

  test('the Subscription tab draws the channel with the installed version; the viewer says what holds the next plan back', async () => {
    const s = await sub('pgm', 'pgpilot');
    const installed = s.status!.installedCSV!;
    const pending = await waitFor('the plan waiting', async () =>
      (await h.kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'pgm' })).items.find(
        (p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved,
      ),
    );
    const target = pending.spec.clusterServiceVersionNames[0]!;
    const page = await open(`/operators/pgm/${installed}?tab=subscription`);
    const figure = page.getByRole('figure', { name: `Upgrade graph of ${s.spec.channel}` });
    await figure.locator('[role="application"][data-ready="true"]').waitFor();
    const next = page.getByRole('note', { name: 'Next upgrade' });
    assert.match(
      (await next.textContent()) ?? '',
      new RegExp(`The next InstallPlan installs ${target.replace(/\./g, '\\.')}`),
    );
    assert.match(
      (await next.textContent()) ?? '',
      new RegExp(`InstallPlan ${pending.metadata!.name} waits for approval`),
    );
    await figure.getByRole('link', { name: 'Open in the graph viewer' }).click();
    await page.getByRole('heading', { name: 'Upgrade graph of pgpilot' }).waitFor();
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    assert.match(
      (await page.getByText(/^Installed as /).textContent()) ?? '',
      new RegExp(`Installed as ${installed.replace(/\./g, '\\.')} in pgm, subscribed to ${s.spec.channel}`),
    );
    assert.match((await page.getByRole('note', { name: 'Next upgrade' }).textContent()) ?? '', /What holds it back/);
    // The path drawn starts at the installed version, and the legend names the installed mark.
    assert.match(
      (await page.getByRole('complementary', { name: 'Selected version' }).textContent()) ?? '',
      new RegExp(`CSV: ${installed.replace(/\./g, '\\.')}`),
    );
    await page.getByRole('list', { name: 'Legend' }).getByText('installed').waitFor();
    await page.close();
  });

  test('Manual approval: "1 requires approval", preview the plan, approve, the upgrade finishes; deny the next; an Approve that missed another\'s is refused and said', async () => {
    const page = await open('/operators?namespace=pgm');
    const row = rows(page).filter({ hasText: 'PgPilot' });
    await row.getByText('1 requires approval').waitFor();
    await row.getByRole('link', { name: '1 requires approval' }).click();
    await page.getByRole('heading', { level: 1, name: /^InstallPlan / }).waitFor();
    const planName = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('InstallPlan ', '');
    assert.ok(await page.getByRole('heading', { name: /ClusterServiceVersions/ }).isVisible());
    await page
      .getByRole('button', { name: /View manifest of pgpilot\.v1\./ })
      .first()
      .click();
    assert.match(
      (await page.getByLabel(/^ClusterServiceVersion pgpilot/).textContent()) ?? '',
      /kind: ClusterServiceVersion/,
    );
    const before = (await sub('pgm', 'pgpilot')).status?.installedCSV;
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Complete').first().waitFor({ timeout: 20_000 });
    assert.equal((await h.kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, 'pgm')).spec.approved, true);
    const next = await waitFor('the upgrade installed', async () => {
      const s = await sub('pgm', 'pgpilot');
      return s.status?.installedCSV && s.status.installedCSV !== before ? s.status.installedCSV : undefined;
    });
    await waitForCsv(h.kube, 'pgm', next);

    // The next upgrade waits again: deny it.
    const nextPlan = await waitFor('the next plan waiting', async () => {
      const plans = (await h.kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'pgm' })).items;
      return plans.find((p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved)?.metadata?.name;
    });
    await page.goto(`${h.admin.url}/installplans/pgm/${nextPlan}`);
    const stalePage = await h.browser.newPage({ viewport: { width: 1360, height: 900 } });
    await stalePage.route('**/api/events?**', (r) => r.abort());
    await stalePage.goto(`${h.admin.url}/installplans/pgm/${nextPlan}`);
    await stalePage.getByRole('button', { name: 'Approve' }).waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page
      .getByText(/stays unapproved/)
      .first()
      .waitFor();
    const denied = await h.kube.get<InstallPlan>(INSTALL_PLAN_TYPE, nextPlan, 'pgm');
    assert.equal(denied.spec.approved, false);
    assert.ok(denied.metadata?.annotations?.['olm-console.io/denied'], 'who denied and when is recorded');
    await page.close();

    // Someone else approves the plan while a page, its live stream cut, still shows it waiting:
    // its Approve is refused with what happened, and the page reads the plan again. (A write that
    // leaves it waiting with the same CSVs, like the denial above, is no conflict.)
    await h.kube.patch(INSTALL_PLAN_TYPE, nextPlan, { spec: { approved: true } }, { namespace: 'pgm', type: 'merge' });
    await stalePage.getByRole('button', { name: 'Approve' }).click();
    const refused = stalePage.getByRole('alert').filter({
      hasText: new RegExp(
        `^The plan changed since this page read it, so nothing was done: InstallPlan ${nextPlan} changed since you loaded it \\(it is now [a-z ]+ and approved; it installs pgpilot\\.v1\\.`,
      ),
    });
    await refused.waitFor();
    // The page has read it again itself: it does not ask the person to reload.
    assert.doesNotMatch((await refused.textContent()) ?? '', /reload it/);
    await h.shot(stalePage, 'stale-approve');
    await stalePage.close();
    // The other's approval goes through: the operator settles on that version before what follows.
    await waitForCsv(h.kube, 'pgm', denied.spec.clusterServiceVersionNames[0]!);
  });

  test('a new version published in the catalog waits for approval under Manual; approving it upgrades', async () => {
    const CATSRC = {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      plural: 'catalogsources',
      namespaced: true,
      kind: 'CatalogSource',
    };
    const annotation = 'sandbox.olm-console.dev/catalog-dir';
    const v1 = writeFixtureCatalog(mkdtempSync(join(h.sb.dir, 'rel-1-')), [
      { name: 'widget', bundles: [{ version: '1.0.0' }] },
    ]);
    const v2 = writeFixtureCatalog(mkdtempSync(join(h.sb.dir, 'rel-2-')), [
      { name: 'widget', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
    ]);
    await h.kube.create(CATSRC, {
      metadata: { name: 'releases', namespace: 'olm', annotations: { [annotation]: v1 } },
      spec: { sourceType: 'grpc', displayName: 'Releases' },
    });
    await ensureNamespace(h.kube, 'widgets');
    await h.kube.create(OGS, {
      metadata: { name: 'widgets-og', namespace: 'widgets' },
      spec: { targetNamespaces: ['widgets'] },
    });
    await h.kube.create(SUBSCRIPTION_TYPE, {
      metadata: { name: 'widget', namespace: 'widgets' },
      spec: {
        name: 'widget',
        source: 'releases',
        sourceNamespace: 'olm',
        channel: 'stable',
        installPlanApproval: 'Manual',
      },
    });
    const first = await waitFor(
      'the first widget plan',
      async () => (await sub('widgets', 'widget')).status?.installPlanRef?.name,
    );
    const plan = await h.kube.get<InstallPlan>(INSTALL_PLAN_TYPE, first, 'widgets');
    await h.kube.replace(INSTALL_PLAN_TYPE, { ...plan, spec: { ...plan.spec, approved: true } });
    await waitForCsv(h.kube, 'widgets', 'widget.v1.0.0');

    const page = await open('/operators?namespace=widgets');
    const row = rows(page).filter({ hasText: 'widget' });
    await row.getByText('Up to date').waitFor();
    // Publish 1.1.0: the catalog's content changes, as when a new index image is polled.
    await new Promise((r) => setTimeout(r, 1100));
    const cs = await h.kube.get<{ metadata: { annotations?: Record<string, string> } }>(CATSRC, 'releases', 'olm');
    await h.kube.replace(CATSRC, {
      ...cs,
      metadata: { ...cs.metadata, annotations: { ...cs.metadata.annotations, [annotation]: v2 } },
    });
    await row.getByRole('link', { name: '1 requires approval' }).click({ timeout: 20_000 });
    await page.getByText('Installs widget.v1.1.0.').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await waitForCsv(h.kube, 'widgets', 'widget.v1.1.0');
    assert.equal((await sub('widgets', 'widget')).status?.installedCSV, 'widget.v1.1.0');
    await page.goto(`${h.admin.url}/operators?namespace=widgets`);
    await rows(page).filter({ hasText: 'widget' }).getByText('Up to date').waitFor();
    await page.close();
  });

  test('uninstall with operands: they go first, then the Subscription and CSV; CRDs and the OperatorGroup stay', async () => {
    await h.kube.create(PG, {
      apiVersion: 'pgpilot.example.com/v1',
      kind: 'PostgresCluster',
      metadata: { name: 'main', namespace: 'pg' },
      spec: { instances: 1 },
    });
    const csv = await installed('pg', 'pgpilot');
    const page = await open(`/operators/pg/${csv}`);
    await page.getByRole('button', { name: 'Uninstall' }).click();
    const dialog = page.getByRole('dialog', { name: /Uninstall PgPilot/ });
    await dialog.getByText('PostgresCluster main').waitFor();
    await dialog.getByLabel(/Also delete these 1 operands/).check();
    await dialog.getByRole('button', { name: 'Uninstall' }).click();
    await dialog.getByText('PgPilot is uninstalled.').waitFor({ timeout: 20_000 });
    assert.equal(await exists(PG, 'main', 'pg'), false, 'the operand is gone');
    assert.equal(await exists(SUBSCRIPTION_TYPE as typeof CSVS, 'pgpilot', 'pg'), false);
    assert.equal(await exists(CSVS, csv, 'pg'), false);
    assert.equal(await exists(CRDS, 'postgresclusters.pgpilot.example.com'), true, 'CRDs stay');
    assert.equal(await exists(OGS, 'pg-og', 'pg'), true, 'the OperatorGroup stays (not made by the console)');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(/\/operators\?namespace=pg$/);
    await rows(page).filter({ hasText: 'CertWarden' }).waitFor();
    assert.equal(
      await rows(page).filter({ hasText: 'PgPilot' }).count(),
      0,
      'the operator left the list; only the copy of CertWarden is in pg',
    );
    await page.close();
  });

  test('uninstall without operands leaves them, from the list', async () => {
    await h.kube.create(PG, {
      apiVersion: 'pgpilot.example.com/v1',
      kind: 'PostgresCluster',
      metadata: { name: 'kept', namespace: 'pgm' },
      spec: { instances: 1 },
    });
    const csv = await installed('pgm', 'pgpilot');
    const page = await open('/operators?namespace=pgm');
    await rows(page).filter({ hasText: 'PgPilot' }).getByRole('button', { name: 'Uninstall PgPilot from pgm' }).click();
    const dialog = page.getByRole('dialog', { name: /Uninstall PgPilot/ });
    await dialog.getByText('PostgresCluster kept').waitFor();
    await dialog.getByRole('button', { name: 'Uninstall' }).click();
    await dialog.getByText('PgPilot is uninstalled.').waitFor({ timeout: 20_000 });
    assert.equal(await exists(CSVS, csv, 'pgm'), false);
    assert.equal(await exists(PG, 'kept', 'pgm'), true, 'operands stay unless asked');
    await page.close();
  });

  test('catalog sources: health, priority and packages', async () => {
    const page = await open('/catalogsources');
    const demo = page
      .getByRole('list', { name: 'Catalog sources' })
      .getByRole('listitem')
      .filter({ hasText: 'olm/olm-console-demo' })
      .first();
    await demo.waitFor();
    assert.match((await demo.textContent()) ?? '', /READY/);
    await demo.getByText(/Show its \d+ packages/).click();
    assert.ok(await demo.getByRole('link', { name: 'pgpilot' }).isVisible());
    await page.close();
  });

  test('a person who may only view sees Uninstall disabled, with the reason', async () => {
    const page = await loggedInPage(h.browser, h.perUser.url, h.sb.tokens.bob!);
    const csv = await installed('operators', 'certwarden');
    await page.goto(`${h.perUser.url}/operators/operators/${csv}`);
    await page.getByRole('heading', { level: 1, name: 'CertWarden' }).waitFor();
    const button = page.getByRole('button', { name: 'Uninstall' });
    await page.waitForFunction(() => document.querySelector('#uninstall-blocked') !== null);
    assert.equal(await button.isDisabled(), true);
    assert.match(
      (await page.locator('#uninstall-blocked').textContent()) ?? '',
      /You may not uninstall in operators: you may not \w+/,
    );
    await page.close();
  });
});
