// Every person the console serves, in Debian's Chromium against a production build and the
// sandbox with per-user tokens: the administrator, alice (admin of team1 only, the tenant of OLM's
// multitenancy recipe) and bob (view everywhere). Each walks OperatorHub, a package, the wizard,
// Installed Operators, an InstallPlan and a copied CSV; the tests assert what each sees and may do.
// They run in order: the administrator's install gives team1 its copied CSV, alice's shared link
// becomes the administrator's install, and its InstallPlan waits for someone allowed to approve.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { useHarness } from './support/harness';

describe('Every person', () => {
  const h = useHarness({ suite: 'every-person' });
  let sharedLink = '';

  const wizardReady = (page: Page) => page.getByRole('heading', { name: 'What the install will do' }).waitFor();
  const pendingPlan = async (namespace: string): Promise<string> => {
    const plans = (await h.kube.list<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items;
    const waiting = plans.find((p) => p.spec?.approved === false);
    assert.ok(waiting, `an InstallPlan waiting for approval in ${namespace}`);
    return waiting.metadata!.name!;
  };

  test('the administrator sees every namespace and installs for all of them', async () => {
    const page = await h.openAs('admin', '/operators');
    await page.getByRole('heading', { level: 1, name: 'Installed Operators' }).waitFor();
    const chooser = page.getByRole('combobox', { name: 'Namespace' });
    await chooser.locator('option', { hasText: 'team1' }).waitFor({ state: 'attached' });
    assert.equal(await chooser.inputValue(), '', 'All namespaces');
    assert.equal(await chooser.locator('option').first().textContent(), 'All namespaces');
    await page.goto(`${h.perUser.url}/operatorhub`);
    await page.getByRole('link', { name: /^PgPilot by Harbor Lane Data/ }).waitFor();
    await page.goto(`${h.perUser.url}/operatorhub/olm/olm-console-demo/certwarden/install`);
    await wizardReady(page);
    const all = page.getByRole('radio', { name: /All namespaces/ });
    assert.equal(await all.isEnabled(), true);
    assert.equal(await all.isChecked(), true);
    assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'operators');
    await page.getByRole('region', { name: 'Share this install' }).waitFor();
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/operators\/certwarden$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: certwarden\.v/ })
      .waitFor({ timeout: 30_000 });
    await page.close();
  });

  test('an approval click shows at once, while the plan of it is still being computed', async () => {
    const page = await h.openAs('admin', '/operatorhub/olm/olm-console-demo/pgpilot/install');
    await wizardReady(page);
    const subscription = page
      .getByRole('list', { name: 'Objects' })
      .getByRole('listitem')
      .filter({ hasText: /Subscription .+\/pgpilot/ });
    await subscription.waitFor();
    // As on a loaded machine: the next plans are held until the test lets them through.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/install/plan', async (route) => {
      await held;
      await route.continue();
    });
    const manual = page.getByRole('radio', { name: /^Manual/ });
    const automatic = page.getByRole('radio', { name: /^Automatic/ });
    // check() fails when the click does not leave the radio checked.
    await manual.check();
    const recomputing = page.getByRole('status').filter({ hasText: 'Recomputing the plan for your latest choices' });
    await recomputing.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled(), true);
    await h.shot(page, 'approval-recomputing');
    await automatic.check();
    await manual.check();
    assert.equal(await automatic.isEnabled(), true);
    release();
    await recomputing.waitFor({ state: 'hidden' });
    assert.equal(await manual.isChecked(), true);
    await subscription.getByRole('button', { name: 'View YAML' }).click();
    await subscription.getByText('installPlanApproval: Manual').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Install', exact: true }).isEnabled(), true);
    await page.close();
  });

  test('alice names her namespace once; Installed Operators opens on it from then on', async () => {
    const page = await h.openAs('alice', '/operators');
    const help = page.getByText('The cluster does not let you list namespaces.');
    await help.waitFor();
    assert.equal(await page.getByText(/Forbidden/).count(), 0, 'no cluster-wide Forbidden');
    await h.shot(page, 'alice-first-visit');
    const typed = page.getByLabel('Namespace', { exact: true });
    await typed.fill('operators');
    await page.getByRole('button', { name: 'Use' }).click();
    const refused = page.getByRole('alert').filter({ hasText: /^Not operators:/ });
    await refused.waitFor();
    assert.match(
      (await refused.textContent()) ?? '',
      /neither read nor install operators in operators: you may not list clusterserviceversions/,
    );
    await h.shot(page, 'alice-refused-namespace');
    await typed.fill('team1');
    await page.getByRole('button', { name: 'Use' }).click();
    await page.waitForURL(/\/operators\?namespace=team1$/);
    // The administrator's operator for all namespaces is here as OLM's copy.
    const copy = page.getByRole('link', { name: 'operators', exact: true });
    await copy.waitFor();
    await page.goto(`${h.perUser.url}/operators`);
    await page.waitForURL(/\/operators\?namespace=team1$/);
    const chooser = page.getByRole('combobox', { name: 'Namespace' });
    await chooser.waitFor();
    assert.deepEqual(await chooser.locator('option').allTextContents(), ['team1', 'Another namespace…']);
    await page
      .getByText(/Copied from/)
      .first()
      .waitFor();
    await h.shot(page, 'alice-installed-operators');
    // The copied CSV says where the operator really is.
    await page.getByRole('row').filter({ hasText: 'Copied from' }).getByRole('link').first().click();
    await page.getByText(/OLM copied this CSV into team1 because the operator installed in/).waitFor();
    await page.close();
  });

  test('alice may not create an OperatorGroup: she copies a link for an administrator', async () => {
    const page = await h.openAs('alice', '/operatorhub');
    // She may not read the global catalogs cluster-wide: the hub asks where she works.
    const none = page.getByRole('note').filter({ hasText: /^No catalog is readable for you in the cluster's global/ });
    await none.getByLabel('Namespace').fill('team1');
    await none.getByRole('button', { name: 'Show its catalogs' }).click();
    await page.waitForURL(/\/operatorhub\?namespace=team1$/);
    // Named once (checked with her rights), her namespace is offered the next time the hub has
    // nothing to show her.
    await page.goto(`${h.perUser.url}/operatorhub`);
    const chooser = none.getByRole('combobox', { name: 'Namespace' });
    await chooser.locator('option', { hasText: 'team1' }).waitFor({ state: 'attached' });
    assert.deepEqual(await chooser.locator('option').allTextContents(), [
      'Choose a namespace…',
      'team1',
      'Another namespace…',
    ]);
    await h.shot(page, 'alice-hub-chooser');
    await chooser.selectOption('team1');
    await page.waitForURL(/\/operatorhub\?namespace=team1$/);
    await page.getByRole('link', { name: /^PgPilot by Harbor Lane Data/ }).click();
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    await page.getByRole('link', { name: 'Install', exact: true }).click();
    await wizardReady(page);
    const all = page.getByRole('radio', { name: /All namespaces/ });
    await page.getByText(/^Not yours to choose: it installs into operators/).waitFor();
    assert.equal(await all.isDisabled(), true);
    const why = (await page.locator(`#${await all.getAttribute('aria-describedby')}`).textContent()) ?? '';
    assert.match(
      why,
      /needs a role that may create Subscriptions there \(admin of operators, or cluster-admin\); the cluster says /,
    );
    assert.equal(await page.getByRole('radio', { name: /Own namespace/ }).isChecked(), true);
    assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'team1');
    await page.getByRole('radio', { name: /^Manual/ }).check();
    await page.getByText(/namespace team1 has no OperatorGroup and you may not create one: .*operatorgroups/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled(), true);
    const ask = page.getByRole('region', { name: 'Ask an administrator' });
    await ask.getByRole('button', { name: 'Copy link for an administrator' }).waitFor();
    sharedLink = await ask.getByLabel('Link to this install').inputValue();
    const url = new URL(sharedLink);
    assert.equal(url.pathname, '/operatorhub/olm/olm-console-demo/pgpilot/install');
    assert.equal(url.searchParams.get('into'), 'team1');
    assert.equal(url.searchParams.get('mode'), 'OwnNamespace');
    assert.equal(url.searchParams.get('approval'), 'Manual');
    await h.shot(page, 'alice-asks-an-administrator');
    await page.close();
  });

  test('the administrator opens the link, sees the same plan and installs it', async () => {
    const link = new URL(sharedLink);
    const page = await h.openAs('admin', `${link.pathname}${link.search}`);
    await wizardReady(page);
    await page.getByRole('note', { name: 'Shared install' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /Own namespace/ }).isChecked(), true);
    assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'team1');
    assert.equal(await page.getByRole('radio', { name: /^Manual/ }).isChecked(), true);
    await page.getByRole('list', { name: 'Objects' }).getByText('OperatorGroup team1/team1-operators').waitFor();
    await h.shot(page, 'admin-opens-shared-link');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/team1\/pgpilot$/);
    await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
    await page.close();
  });

  test('a link with hostile values names each one and uses none of them', async () => {
    const page = await h.openAs(
      'admin',
      '/operatorhub/olm/olm-console-demo/pgpilot/install?into=Team_1&mode=Everywhere&config=%7B%22image%22%3A1%7D',
    );
    await wizardReady(page);
    const alert = page.getByRole('alert', { name: 'Shared install' });
    const said = (await alert.textContent()) ?? '';
    assert.match(said, /3 values of the link could not be used/);
    assert.match(said, /into "Team_1" is no namespace name/);
    assert.match(said, /mode must be one of AllNamespaces, OwnNamespace, SingleNamespace, MultiNamespace/);
    assert.match(said, /config has "image", which is no field of spec.config/);
    assert.equal(await page.getByRole('radio', { name: /All namespaces/ }).isChecked(), true);
    await h.shot(page, 'hostile-link');
    await page.close();
  });

  test('bob sees everything and is told why he may change nothing', async () => {
    const page = await h.openAs('bob', '/operators');
    const chooser = page.getByRole('combobox', { name: 'Namespace' });
    await chooser.locator('option', { hasText: 'team1' }).waitFor({ state: 'attached' });
    assert.equal(await chooser.inputValue(), '', 'bob may read every namespace');
    const uninstall = page.getByRole('button', { name: 'Uninstall CertWarden from operators' });
    // Disabled while the access review is asked, then with its answer as the reason.
    await page.getByTitle(/You may not uninstall in operators: you may not \w+/).waitFor();
    assert.equal(await uninstall.isDisabled(), true);
    await h.shot(page, 'bob-installed-operators');
    const plan = await pendingPlan('team1');
    await page.goto(`${h.perUser.url}/installplans/team1/${plan}`);
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    // Disabled once the access review has answered, with its reason beside it.
    await page.getByText(/You may not approve InstallPlans in team1: .*installplans/).waitFor();
    assert.equal(await approve.isDisabled(), true);
    await page.goto(`${h.perUser.url}/operatorhub`);
    await page.getByRole('link', { name: /^QuillMQ by/ }).click();
    await page.getByRole('heading', { level: 1, name: 'QuillMQ' }).waitFor();
    await page.getByText(/You may not install operators in .*: you may not \w+/).waitFor();
    await page.getByRole('link', { name: 'Prepare the install for an administrator' }).click();
    await wizardReady(page);
    const install = page.getByRole('button', { name: 'Install', exact: true });
    await page
      .getByText(/You may not install operators in .*: you may not \w+/)
      .first()
      .waitFor();
    assert.equal(await install.isDisabled(), true);
    await page
      .getByRole('region', { name: 'Ask an administrator' })
      .getByRole('button', { name: 'Copy link for an administrator' })
      .waitFor();
    await h.shot(page, 'bob-wizard');
    await page.close();
  });

  test('alice may not approve the plan; once the administrator has, she installs into team1', async () => {
    const plan = await pendingPlan('team1');
    const page = await h.openAs('alice', `/installplans/team1/${plan}`);
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    // Disabled once the access review has answered, with its reason beside it.
    await page.getByText(/You may not approve InstallPlans in team1: .*installplans/).waitFor();
    assert.equal(await approve.isDisabled(), true);
    await h.shot(page, 'alice-install-plan');
    const admin = await h.openAs('admin', `/installplans/team1/${plan}`);
    await admin.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.getByText(/^Approved\./).waitFor();
    await admin.close();

    await page.goto(`${h.perUser.url}/operatorhub/olm/olm-console-demo/quillmq/install?namespace=team1`);
    await wizardReady(page);
    assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'team1');
    await page.getByRole('list', { name: 'Objects' }).getByText('Subscription team1/quillmq').waitFor();
    const install = page.getByRole('button', { name: 'Install', exact: true });
    // Playwright clicks once the button is enabled: when the plan has no blocker left.
    // OLM makes one InstallPlan per namespace: pgpilot's Manual approval holds this one too, as the
    // wizard warns, and alice may not approve it.
    await page.getByText(/namespace team1 has Manual subscriptions \(pgpilot\); OLM makes one InstallPlan/).waitFor();
    await install.click();
    await page.waitForURL(/\/installs\/team1\/quillmq$/);
    await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
    const second = await pendingPlan('team1');
    const again = await h.openAs('admin', `/installplans/team1/${second}`);
    await again.getByRole('button', { name: 'Approve', exact: true }).click();
    await again.getByText(/^Approved\./).waitFor();
    await again.close();
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: quillmq\.v/ })
      .waitFor({ timeout: 30_000 });
    // Each test's page is a fresh browser profile, and names are remembered per browser: she names
    // team1 once here too.
    await page.goto(`${h.perUser.url}/operators`);
    await page.getByLabel('Namespace', { exact: true }).fill('team1');
    await page.getByRole('button', { name: 'Use' }).click();
    await page.waitForURL(/\/operators\?namespace=team1$/);
    await page.getByRole('link', { name: 'QuillMQ' }).waitFor();
    await page.getByRole('link', { name: 'PgPilot' }).waitFor();
    await page.close();
  });
});
