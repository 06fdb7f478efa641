// Every page of the console outside the shell and OperatorHub's list, in Debian's Chromium against a
// production build and a sandbox with the demo catalog, at 1440×900 and 390×844: each state the
// tests reach passes axe-core's WCAG A/AA rules and nothing of the page's content is wider than a
// phone; and the dead ends a new user met lead on (an install's next steps, the approval waiting
// first and linked, versions in order, errors in words, the focus after Approve).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { DESKTOP, PHONE } from './support/a11y';
import { useHarness } from './support/harness';
import { axeViolationsBesideHeader, pageProblems } from './support/main-fit';

const PG_API = 'pgpilot.example.com/v1/postgresclusters';

describe('Every screen of the pages, at 1440 and 390 px', () => {
  const h = useHarness({
    suite: 'every-screen-pages',
    seed: async (kube) => {
      // certwarden for all namespaces; pgpilot under Manual approval started at 1.2.0, approved once,
      // so that its upgrade to 1.4.0 waits for a person.
      await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
      const manual = { approval: 'Manual', startingCSV: 'pgpilot.v1.2.0' } as const;
      await subscribe(kube, { namespace: 'pgm', package: 'pgpilot', channel: 'stable', targets: ['pgm'], ...manual });
      const first = await waitFor('the first pgm plan', async () => {
        return (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pgm')).status?.installPlanRef?.name;
      });
      await kube.patch(INSTALL_PLAN_TYPE, first, { spec: { approved: true } }, { namespace: 'pgm', type: 'merge' });
      await waitForCsv(kube, 'pgm', 'pgpilot.v1.2.0');
    },
  });

  const waitingPlan = (ns: string) =>
    waitFor(
      `the plan waiting in ${ns}`,
      async () => {
        const plans = (await h.kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items;
        return plans.find((p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved)?.metadata?.name;
      },
      30_000,
    );

  /** No axe violation at either width, nothing of main wider than a phone; and a look at both. */
  const checkScreen = async (page: Page, name: string) => {
    assert.deepEqual(await pageProblems(page), [], name);
    const original = page.viewportSize() ?? DESKTOP;
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await h.shot(page, `${name}-${size.width}`);
    }
    await page.setViewportSize(original);
  };

  const openAt = async (path: string, ready: (page: Page) => Locator) => {
    const page = await h.open(path);
    await ready(page).first().waitFor();
    return page;
  };

  const box = async (l: Locator) => {
    const b = await l.boundingBox();
    assert.ok(b, 'the element is laid out');
    return b;
  };
  const onPhoneScreen = (b: { x: number; y: number; width: number; height: number }) =>
    b.x >= 0 && b.y >= 0 && b.x + b.width <= PHONE.width && b.y + b.height <= PHONE.height;

  const operatorRows = (page: Page) => page.getByRole('table', { name: 'Installed operators' }).getByRole('row');

  test('Installed Operators, all namespaces and one: each row fits a phone, its Upgrade column too', async () => {
    const page = await openAt('/operators', (p) => operatorRows(p).filter({ hasText: 'PgPilot' }));
    await checkScreen(page, 'operators-all');
    await page.goto(`${h.admin.url}/operators?namespace=pgm`);
    const row = operatorRows(page).filter({ hasText: 'PgPilot' });
    await row.waitFor();
    await checkScreen(page, 'operators-pgm');
    await page.setViewportSize(PHONE);
    const upgrade = await box(row.getByRole('link', { name: '1 requires approval' }));
    assert.ok(upgrade.x >= 0 && upgrade.x + upgrade.width <= PHONE.width, `Upgrade: ${JSON.stringify(upgrade)}`);
    await page.close();
  });

  test("an operator's page passes axe and fits a phone on every tab", async () => {
    const base = '/operators/pgm/pgpilot.v1.2.0';
    const tabs: [string, (p: Page) => Locator][] = [
      ['details', (p) => p.getByRole('heading', { name: 'Provided APIs' })],
      ['subscription', (p) => p.locator('[role="application"][data-ready="true"]')],
      ['conditions', (p) => p.getByRole('button', { name: 'Override a condition' })],
      ['instances', (p) => p.getByRole('region', { name: 'PostgresCluster instances' })],
      ['installplans', (p) => p.getByRole('table', { name: 'InstallPlans' })],
      ['yaml', (p) => p.getByLabel('CSV YAML', { exact: true })],
      ['events', (p) => p.getByRole('table', { name: 'Events' })],
    ];
    for (const [tab, ready] of tabs) {
      const page = await openAt(`${base}?tab=${tab}`, ready);
      await checkScreen(page, `operator-${tab}`);
      await page.close();
    }
  });

  test('the Subscription tab shows the waiting approval first; "1 requires approval" links to the plan', async () => {
    const plan = await waitingPlan('pgm');
    const waitingIn = (p: Page) => p.getByRole('region', { name: 'Waiting for approval' });
    const page = await openAt('/operators/pgm/pgpilot.v1.2.0?tab=subscription', waitingIn);
    const waiting = waitingIn(page);
    const said = new RegExp(`InstallPlan ${plan} installs pgpilot\\.v1\\.4\\.0: Preview and approve`);
    assert.match((await waiting.textContent()) ?? '', said);
    await page.setViewportSize(PHONE);
    const top = (await box(waiting)).y;
    const later = ['Subscription pgpilot', 'Update path to the channel head', 'Pod placement and configuration'];
    for (const heading of later) {
      assert.ok(top < (await box(page.getByRole('heading', { name: heading }))).y, `before ${heading}`);
    }
    assert.ok(top < PHONE.height, 'on a phone it is on the first screen');
    assert.deepEqual(
      await axeViolationsBesideHeader(page, ['heading-order']),
      [],
      'headings go down one level at a time',
    );
    const links = page.getByRole('link', { name: '1 requires approval' });
    assert.equal(await links.count(), 2, "the header's badge and the upgrade status");
    for (const href of await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))) {
      assert.equal(href, `/installplans/pgm/${plan}`);
    }
    await links.first().click();
    await page.getByRole('heading', { level: 1, name: `InstallPlan ${plan}` }).waitFor();
    await page.close();
  });

  test('an InstallPlan on a phone: names and manifests wrap; Approve leaves the focus on its outcome', async () => {
    const plan = await waitingPlan('pgm');
    const page = await openAt(`/installplans/pgm/${plan}`, (p) => p.getByRole('button', { name: 'Approve' }));
    await checkScreen(page, 'installplan');
    await page.setViewportSize(PHONE);
    // Each name has a line of its own beside its label, never a column one letter wide.
    const names = page.locator('td[data-label="Name"] > div');
    const widths = await names.evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
    assert.ok(widths.length > 5 && widths.every((w) => w >= 150), `name cells: ${widths.join(', ')}`);
    await page.getByRole('button', { name: 'View manifest of pgpilot.v1.4.0', exact: true }).click();
    const manifest = page.getByLabel('ClusterServiceVersion pgpilot.v1.4.0', { exact: true });
    await manifest.waitFor();
    assert.ok(await manifest.evaluate((pre) => pre.scrollWidth <= pre.clientWidth), 'long lines wrap');
    await checkScreen(page, 'installplan-manifest');

    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Approved\./ })
      .waitFor();
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName, text: el?.textContent };
    });
    assert.notEqual(focused.tag, 'BODY');
    assert.match(focused.text ?? '', /^Approved\. /, 'the focus is on the sentence saying what happened');
    await waitForCsv(h.kube, 'pgm', 'pgpilot.v1.4.0');
    const complete = /^Approved\. The plan is complete: pgpilot\.v1\.4\.0 installed\./;
    await page.getByText(complete).waitFor({ timeout: 20_000 });
    await checkScreen(page, 'installplan-approved');
    await page.close();
  });

  test("the uninstall dialog opens inside a phone's screen, and scrolls inside itself", async () => {
    const page = await h.browser.newPage({ viewport: PHONE });
    await page.goto(`${h.admin.url}/operators?namespace=pgm`);
    await page.getByRole('button', { name: 'Uninstall PgPilot from pgm' }).click();
    const dialog = page.getByRole('dialog', { name: /Uninstall PgPilot/ });
    await dialog.getByRole('heading', { name: 'Removed' }).waitFor();
    const b = await box(dialog);
    assert.ok(onPhoneScreen(b), `the dialog is on screen: ${JSON.stringify(b)}`);
    await checkScreen(page, 'uninstall-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.close();
  });

  test('package details: versions newest first, skipped ones marked; install modes in words', async () => {
    const graphOf = (channel: string) => (p: Page) => p.getByRole('heading', { name: `Upgrade graph of ${channel}` });
    const page = await openAt('/operatorhub/olm/olm-console-demo/cachely', graphOf('alpha'));
    // The catalog's order is 0.9.2, 0.9.0, then the skipped 0.9.1.
    const options = await page.getByLabel('Version', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(options, ['0.9.2 (latest)', '0.9.1 (skipped by cachely.v0.9.2)', '0.9.0']);
    const versions = page.getByRole('list', { name: 'Versions of alpha, newest first' });
    const line = await versions.getByRole('listitem').allTextContents();
    assert.deepEqual(
      line.map((t) => /^[\d.]+/.exec(t)?.[0]),
      ['0.9.2', '0.9.1', '0.9.0'],
    );
    assert.match(line[1]!, /skipped by cachely\.v0\.9\.2: never an upgrade target/);
    await checkScreen(page, 'package-cachely');
    await page.goto(`${h.admin.url}/operatorhub/olm/olm-console-demo/certwarden`);
    const facts = page.getByRole('complementary', { name: 'Version facts' });
    await facts.getByText('OwnNamespace (not supported)').waitFor();
    await checkScreen(page, 'package-certwarden');
    await page.goto(`${h.admin.url}/operatorhub/olm/olm-console-demo/pgpilot`);
    await graphOf('stable')(page).waitFor();
    await checkScreen(page, 'package-pgpilot');
    await page.close();
  });

  test('install and progress: after Approve the focus is on the status; once installed the page leads on', async () => {
    const wizard = '/operatorhub/olm/olm-console-demo/pgpilot/install?channel=stable&version=pgpilot.v1.2.0';
    const page = await openAt(wizard, (p) => p.getByRole('heading', { name: 'What the install will do' }));
    await page.getByRole('radio', { name: /Own namespace/ }).check();
    await page.getByLabel('Installed namespace').fill('pg-phone');
    await page.getByRole('list', { name: 'Objects' }).getByText('Subscription pg-phone/pgpilot').waitFor();
    await checkScreen(page, 'install-wizard');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/pg-phone\/pgpilot$/);
    await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
    await checkScreen(page, 'install-progress-approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    const status = page.getByRole('status').filter({ hasText: /^Installed: pgpilot\.v1\.2\.0 is ready/ });
    await status.waitFor({ timeout: 20_000 });
    assert.equal(await status.evaluate((el) => el === document.activeElement), true, 'the focus is on the status line');
    await page.getByRole('heading', { level: 1, name: 'Installed PgPilot in pg-phone' }).waitFor();

    const next = page.getByRole('region', { name: 'What next' });
    const operator = '/operators/pg-phone/pgpilot.v1.2.0';
    assert.equal(await next.getByRole('link', { name: 'View operator' }).getAttribute('href'), operator);
    const create = next.getByRole('link', { name: 'Create PostgresCluster' });
    assert.equal(await create.getAttribute('href'), `${operator}/create/${PG_API}`);
    assert.equal(await next.getByRole('link', { name: 'Create PostgresBackup' }).count(), 1);
    // Under Manual approval OLM plans 1.4.0 right away: said, rather than a bare InstallPlanPending=True.
    const plan = await waitingPlan('pg-phone');
    const upgrade = page.getByRole('region', { name: 'The next upgrade already waits for approval' });
    await upgrade.waitFor({ timeout: 20_000 });
    const why = new RegExp(
      `InstallPlan ${plan} would install pgpilot\\.v1\\.4\\.0\\. ` +
        'That is why the Subscription says InstallPlanPending=True',
    );
    assert.match((await upgrade.textContent()) ?? '', why);
    const review = upgrade.getByRole('link', { name: 'Review the upgrade' });
    assert.equal(await review.getAttribute('href'), `/installplans/pg-phone/${plan}`);
    await checkScreen(page, 'install-progress-installed');
    await next.getByRole('link', { name: 'View operator' }).click();
    await page.waitForURL(/\/operators\/pg-phone\/pgpilot\.v1\.2\.0$/);
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    await page.close();
  });

  test('the upgrade graph and the create form fit a phone and pass axe', async () => {
    const drawn = (p: Page) => p.locator('[role="application"][data-ready="true"]');
    let page = await openAt('/operatorhub/olm/olm-console-demo/pgpilot/graph?channel=stable', drawn);
    await checkScreen(page, 'graph');
    // Five versions fit a desktop; turned into a phone, the graph no longer shows them all, and
    // the overview beneath it offers the rest.
    const overview = page.getByRole('slider', { name: /Overview of every version/ });
    // checkScreen has just turned the page into a phone and back: the graph follows the width on
    // its next layout, so the overview goes once the desktop width is measured again.
    await overview.waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await overview.count(), 0, 'every version in view on a desktop');
    await page.setViewportSize(PHONE);
    await overview.waitFor();
    assert.match((await overview.getAttribute('aria-valuetext')) ?? '', / shown, \d of 5 versions$/);
    await page.close();
    page = await openAt(`/operators/pgm/pgpilot.v1.4.0/create/${PG_API}`, (p) => p.getByLabel('Name', { exact: true }));
    await checkScreen(page, 'create-form');
    await page.close();
  });

  test('catalog sources, cluster settings and cluster upgrade pass axe and fit a phone', async () => {
    const catalogs = (p: Page) => p.getByRole('list', { name: 'Catalog sources' }).getByRole('listitem');
    const copiesOn = /^Copied CSVs: OnOperators installed for all namespaces are listed in every namespace\.$/;
    let page = await openAt('/catalogsources', catalogs);
    // The count here and OperatorHub's agree, or the difference is said.
    const packages = catalogs(page).filter({ hasText: 'olm-console-demo' }).locator('dt:text-is("Packages") + dd');
    const said =
      /^(\d+); (\d+) in OperatorHub, which leaves out the one marked non-standalone \(installed only as part of another operator\)$/.exec(
        (await packages.textContent()) ?? '',
      );
    assert.ok(said && Number(said[1]) === Number(said[2]) + 1, `${await packages.textContent()}`);
    await checkScreen(page, 'catalog-sources');
    await page.goto(`${h.admin.url}/operatorhub`);
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${said[2]} of ${said[2]} operators$`) })
      .waitFor();
    await page.close();

    page = await openAt('/settings', (p) => p.getByLabel('DisabledCopiedCSVs condition'));
    // The switch is named for what it turns on, with its state beside it, not a double negative.
    assert.equal(await page.getByRole('switch', { name: 'Copied CSVs' }).getAttribute('aria-checked'), 'true');
    await page.getByText(copiesOn).waitFor();
    await checkScreen(page, 'settings');
    await page.close();

    page = await openAt('/cluster-upgrade', (p) => p.getByLabel('Target OpenShift version'));
    // A target the server would refuse is said at once, beside the field, and never sent.
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/cluster-upgrade?target=') && asked.push(r.url()));
    const target = page.getByLabel('Target OpenShift version');
    await target.fill('4.19.2');
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByText(/^“4\.19\.2” is not a minor version: give the major and minor number only, such as 4\.19/)
      .waitFor();
    assert.equal(await target.getAttribute('aria-invalid'), 'true');
    assert.equal(await target.evaluate((el) => el === document.activeElement), true, 'the focus is back in the field');
    await checkScreen(page, 'cluster-upgrade-invalid');
    assert.deepEqual(asked, [], 'nothing was asked of the server');
    await target.fill('4.19');
    // Each operator by its display name and version, linked to it; the CSV's name beneath.
    const row = page
      .getByRole('table', { name: 'Installed operators' })
      .getByRole('row')
      .filter({ hasText: 'pgpilot.v1.4.0 in pgm' });
    assert.equal(
      await row.getByRole('link', { name: 'PgPilot 1.4.0' }).getAttribute('href'),
      '/operators/pgm/pgpilot.v1.4.0',
    );
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /upgrade to 4\.19/ })
      .waitFor();
    await checkScreen(page, 'cluster-upgrade');
    await page.close();
  });

  test("what cannot be read is a titled page: what happened in words, the API's message, the way back", async () => {
    const title = 'Operator nope.v1 could not be read';
    const page = await openAt('/operators/pgm/nope.v1', (p) => p.getByRole('heading', { level: 1, name: title }));
    const error = page.getByRole('alert', { name: title });
    const words = /There is no operator \(ClusterServiceVersion\) nope\.v1 in pgm: it may have been uninstalled/;
    assert.match((await error.textContent()) ?? '', words);
    assert.match((await error.textContent()) ?? '', /The API said: NotFound: .*"nope\.v1" not found/);
    // The breadcrumb the page would have had, from its address.
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    assert.equal(await trail.textContent(), 'Installed Operators / nope.v1');
    assert.equal(await trail.getByRole('link', { name: 'Installed Operators' }).getAttribute('href'), '/operators');
    await checkScreen(page, 'error-operator');
    await error.getByRole('link', { name: 'Installed Operators in pgm' }).click();
    await page.waitForURL(/\/operators\?namespace=pgm$/);

    await page.goto(`${h.admin.url}/installplans/pgm/nope`);
    await page.getByRole('heading', { level: 1, name: 'InstallPlan nope could not be read' }).waitFor();
    await page.goto(`${h.admin.url}/operatorhub/olm/olm-console-demo/nope`);
    const missing = page.getByRole('alert', { name: 'Package nope could not be loaded' });
    await missing.getByRole('link', { name: 'Browse OperatorHub' }).waitFor();
    await checkScreen(page, 'error-package');
    await page.close();
  });

  test('an address that leads to no page: a titled page in the shell, the breadcrumb, words, ways on', async () => {
    const page = await h.open('/operators/pgm/pgpilot.v1.4.0/no-such-tab');
    const title = page.getByRole('heading', { level: 1, name: 'Page not found' });
    await title.waitFor();
    assert.equal(await page.title(), 'Page not found · OLM Console');
    assert.equal(
      await page.getByRole('navigation', { name: 'Breadcrumb' }).textContent(),
      'Installed Operators / Page not found',
    );
    await page.getByText(/^There is no page at this address in the console\. It may be mistyped/).waitFor();
    // The console's own navigation is there, this section marked as the one the address is under.
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Installed Operators' })
        .getAttribute('aria-current'),
      'true',
    );
    await checkScreen(page, 'not-found');
    await page.getByRole('link', { name: 'Browse OperatorHub' }).click();
    await page.waitForURL(/\/operatorhub$/);
    await page.close();
  });

  test('the YAML tab copies and downloads, and wraps long lines on a phone', async () => {
    const context = await h.browser.newContext({ viewport: PHONE, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(`${h.admin.url}/operators/pgm/pgpilot.v1.4.0?tab=yaml`);
    const yaml = page.getByLabel('CSV YAML', { exact: true });
    await yaml.waitFor();
    assert.ok(await yaml.evaluate((pre) => pre.scrollWidth <= pre.clientWidth), 'nothing cut off at the right');
    await page.getByRole('button', { name: 'Copy CSV YAML' }).click();
    await page.getByRole('button', { name: 'Copy CSV YAML' }).filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^apiVersion: operators\.coreos\.com\/v1alpha1\nkind: ClusterServiceVersion/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV YAML as csv.yaml' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'csv.yaml');
    const saved = readFileSync((await download.path())!, 'utf8');
    assert.match(saved, /kind: ClusterServiceVersion\n[\s\S]*name: pgpilot\.v1\.4\.0/);
    await context.close();
  });

  test('events say when in words, exact on hover; an API without instances says what would appear', async () => {
    const events = (p: Page) => p.getByRole('table', { name: 'Events' }).getByRole('row');
    const page = await openAt('/operators/pgm/pgpilot.v1.4.0?tab=events', (p) => events(p).nth(1));
    const time = events(page).nth(1).locator('time');
    assert.match((await time.textContent()) ?? '', /^(just now|\d+ minutes? ago)$/);
    assert.ok(!Number.isNaN(Date.parse((await time.getAttribute('datetime')) ?? '')), 'a machine-readable time');
    assert.ok(await time.getAttribute('title'), 'the exact time on hover');
    await page.getByRole('tab', { name: 'Instances' }).click();
    const none = page.getByRole('region', { name: 'PostgresBackup instances' });
    const said = [
      'No PostgresBackup yet. Each PostgresBackup in the namespaces the operator watches appears here with its state,',
      'once someone creates one: with Create PostgresBackup above, or with kubectl apply.',
    ].join(' ');
    await none.getByText(said).waitFor();
    const heading = (await none.getByRole('heading').textContent()) ?? '';
    assert.doesNotMatch(heading, /PostgresBackup.*PostgresBackup/, 'the kind is said once');
    await page.close();
  });
});
