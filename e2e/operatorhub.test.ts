// OperatorHub, operator details and the install wizard in Debian's Chromium, against a production
// build and a sandbox with the demo catalog. What the browser did is checked in the cluster with
// the Kubernetes API.
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { waitFor } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';
import { loggedInPage } from './support/login';

describe('OperatorHub, details and install', () => {
  const h = useHarness({ suite: 'operatorhub', sandbox: { deploymentDelayMs: 300 } });

  const open = async (path: string, server = h.admin): Promise<Page> => {
    const page = await h.browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(`${server.url}${path}`);
    return page;
  };
  const tiles = (page: Page) => page.getByRole('list', { name: 'Operators' }).getByRole('listitem');

  test('find an operator by keyword and by facets; the view is kept in the URL', async () => {
    const page = await open('/operatorhub');
    await page.getByRole('list', { name: 'Operators' }).waitFor();
    assert.equal(await tiles(page).count(), 12);
    await page.getByLabel('Filter by keyword').fill('postgres');
    await page.getByRole('status').filter({ hasText: '1 of 12 operators' }).waitFor();
    assert.equal(await tiles(page).first().getByRole('heading').textContent(), 'PgPilot');
    await page.getByLabel('Filter by keyword').fill('');
    await page.getByRole('checkbox', { name: /^Security \(2\)/ }).check();
    await page.getByRole('status').filter({ hasText: '2 of 12 operators' }).waitFor();
    await page.getByRole('checkbox', { name: /^SingleNamespace/ }).check();
    await page.getByRole('status').filter({ hasText: '1 of 12 operators' }).waitFor();
    assert.match(page.url(), /category=Security&installMode=SingleNamespace/);
    await page.reload();
    await page.getByRole('status').filter({ hasText: '1 of 12 operators' }).waitFor();
    assert.equal(await tiles(page).first().getByRole('heading').textContent(), 'VaultKeeper');
    assert.equal(await page.getByRole('checkbox', { name: /^Security/ }).isChecked(), true);
    // Long facets show their biggest values; the rest on demand.
    const categories = page.getByRole('group', { name: 'Category' });
    assert.equal(await categories.getByRole('checkbox').count(), 8);
    await categories.getByRole('button', { name: 'Show 1 more category values' }).click();
    assert.equal(await categories.getByRole('checkbox').count(), 9);
    await page.close();
  });

  test('infrastructure features by name, the older annotation list and the newer annotations alike', async () => {
    const page = await open('/operatorhub');
    await page.getByRole('list', { name: 'Operators' }).waitFor();
    const features = page.getByRole('group', { name: 'Infrastructure features' });
    // CertWarden and GPU Forge list "fips" in operators.openshift.io/infrastructure-features;
    // VaultKeeper says features.operators.openshift.io/fips-compliant: "true" (the demo catalog).
    await features.getByRole('checkbox', { name: /^FIPS mode \(3\)/ }).check();
    await page.getByRole('status').filter({ hasText: '3 of 12 operators' }).waitFor();
    assert.deepEqual((await tiles(page).getByRole('heading').allTextContents()).sort(), [
      'CertWarden',
      'GPU Forge',
      'VaultKeeper',
    ]);
    await features.getByRole('checkbox', { name: /^FIPS mode/ }).uncheck();
    await features.getByRole('checkbox', { name: /^Short-lived tokens \(AWS STS\) \(1\)/ }).check();
    await page.getByRole('status').filter({ hasText: '1 of 12 operators' }).waitFor();
    await page.close();
  });

  test('the first tiles come with the HTML, before any script runs', async () => {
    const html = await (await fetch(`${h.admin.url}/operatorhub`)).text();
    assert.match(html, /<ul aria-label="Operators"/);
    for (const name of ['Backstop', 'PgPilot', 'VaultKeeper'])
      assert.ok(html.includes(`>${name}</h3>`), `${name}'s tile is in the server's HTML`);
  });

  test("the HTML carries the first screen of the URL's view, not the whole list; the browser fetches that", async () => {
    const html = await (await fetch(`${h.admin.url}/operatorhub?q=gateway`)).text();
    for (const name of ['Gatewise', 'RouteKit'])
      assert.ok(html.includes(`>${name}</h3>`), `${name}'s tile is in the server's HTML`);
    assert.match(html, /2<!-- --> of <!-- -->12<!-- --> operators/);
    // Before, the page's payload held every package, whatever the view showed.
    assert.ok(!html.includes('PgPilot'), 'a package the view does not show is not in the page');
    const page = await open('/operatorhub?q=gateway');
    await page.getByRole('status').filter({ hasText: '2 of 12 operators' }).waitFor();
    await page.getByRole('searchbox').fill('');
    await page.getByRole('status').filter({ hasText: '12 of 12 operators' }).waitFor();
    await page.getByRole('link', { name: /^PgPilot/ }).waitFor();
    await page.close();
  });

  test('the list goes out in the coding the client accepts, the same bytes each time, no coding twice', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) =>
        httpGet(`${h.admin.url}/api/catalog/packages`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    const plain = await raw({});
    const br = await raw({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    const br2 = await raw({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gz = await raw({ 'accept-encoding': 'gzip' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.equal(
      br.headers['x-olm-console-content-encoding'],
      undefined,
      "the route's note to the server stays inside",
    );
    assert.deepEqual(br2.body, br.body);
    const list = JSON.parse(plain.body.toString()) as { total: number };
    assert.equal(list.total, 12);
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.body).toString()), list);
    assert.deepEqual(JSON.parse(gunzipSync(gz.body).toString()), list);
  });

  test('an operator built only for nodes the cluster does not have is marked as not runnable here', async () => {
    const page = await open('/operatorhub');
    const tile = tiles(page).filter({ hasText: 'Metricsmith' });
    await tile.getByText('Not runnable here').waitFor();
    assert.match((await tile.getByText('Not runnable here').getAttribute('title')) ?? '', /linux\/arm64.*linux\/amd64/);
    assert.equal(
      await tiles(page).filter({ hasText: 'Not runnable here' }).count(),
      1,
      'only Metricsmith is arm64-only',
    );
    await tile.getByRole('link').click();
    await page.getByRole('note').filter({ hasText: 'Not runnable on this cluster' }).waitFor();
    // States no other suite reaches, checked by axe at both widths: the note on the details page.
    await h.shot(page, 'details-not-runnable');
    await page.close();
  });

  test('details: channel and version switch, the description and graph follow', async () => {
    const page = await open('/operatorhub');
    await page.getByRole('link', { name: /^PgPilot by Harbor Lane Data/ }).click();
    await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
    assert.equal(await page.getByLabel('Channel', { exact: true }).inputValue(), 'stable');
    assert.equal(await page.getByLabel('Version', { exact: true }).inputValue(), 'pgpilot.v1.4.0');
    assert.ok(
      await page.getByRole('region', { name: 'Provided APIs' }).getByText('PostgresCluster').first().isVisible(),
    );
    await page.getByLabel('Channel', { exact: true }).selectOption('fast');
    await page.getByRole('heading', { name: 'Upgrade graph of fast' }).waitFor();
    assert.equal(await page.getByLabel('Version', { exact: true }).inputValue(), 'pgpilot.v1.5.0');
    await page.getByLabel('Version', { exact: true }).selectOption('pgpilot.v1.2.0');
    await page.getByText('1.2.0 provided by Harbor Lane Data').waitFor();
    assert.match(page.url(), /channel=fast&version=pgpilot.v1.2.0/);
    await page.close();
  });

  test('install in all-namespaces mode with Automatic approval and see it succeed', async () => {
    const page = await open('/operatorhub/olm/olm-console-demo/certwarden/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /All namespaces/ }).isChecked(), true);
    assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'operators');
    const objects = page.getByRole('list', { name: 'Objects' });
    await objects.getByText('Subscription operators/certwarden').waitFor();
    assert.ok(await objects.getByText('Use existing').first().isVisible());
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/operators\/certwarden$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: certwarden\.v/ })
      .waitFor({ timeout: 20_000 });
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators');
    assert.equal(sub.spec.installPlanApproval, 'Automatic');
    await page.close();
  });

  test('install a non-head version into a single other namespace with Manual approval, approve it in the progress view', async () => {
    const page = await open('/operatorhub/olm/olm-console-demo/pgpilot/install?channel=stable&version=pgpilot.v1.2.0');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByRole('radio', { name: /A single other namespace/ }).check();
    await page.getByLabel('Installed namespace').fill('team1-operator');
    await page.getByLabel('Watched namespace').selectOption('team1');
    assert.equal(await page.getByRole('radio', { name: /^Manual/ }).isChecked(), true, 'a non-head version is Manual');
    assert.equal(await page.getByRole('radio', { name: /^Automatic/ }).isDisabled(), true);
    await page
      .getByRole('list', { name: 'Objects' })
      .getByText('OperatorGroup team1-operator/team1-operator-operators')
      .waitFor();
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/team1-operator\/pgpilot$/);
    await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
    assert.ok(await page.getByText('pgpilot.v1.2.0').first().isVisible());
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: pgpilot\.v1\.2\.0/ })
      .waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Create the suggested PostgresCluster' }).click();
    await page.getByText(/Created PostgresCluster/).waitFor();
    const sub = await waitFor('installed', async () => {
      const s = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1-operator');
      return s.status?.installedCSV ? s : undefined;
    });
    assert.deepEqual(
      [sub.spec.installPlanApproval, sub.spec.startingCSV, sub.status?.installedCSV],
      ['Manual', 'pgpilot.v1.2.0', 'pgpilot.v1.2.0'],
    );
    await page.close();
  });

  test('a conflicting install is explained, and nothing is written', async () => {
    const page = await open('/operatorhub/olm/olm-console-demo/cachely/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByRole('radio', { name: /Own namespace/ }).check();
    await page.getByLabel('Installed namespace').fill('operators');
    const alert = page.getByRole('alert').filter({ hasText: 'The install cannot go ahead as chosen' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /already has OperatorGroup .* which targets all namespaces/);
    assert.equal(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled(), true);
    await h.shot(page, 'install-conflict');
    await page.close();
  });

  test('a person who may only view sees Install disabled, with the reason', async () => {
    const page = await loggedInPage(h.browser, h.perUser.url, h.sb.tokens.bob!);
    await page.goto(`${h.perUser.url}/operatorhub/olm/olm-console-demo/gatewise`);
    await page.getByRole('heading', { level: 1, name: 'Gatewise' }).waitFor();
    const install = page.getByRole('button', { name: 'Install' });
    await install.waitFor();
    assert.equal(await install.isDisabled(), true);
    const reason = await page.locator(`#${await install.getAttribute('aria-describedby')}`).textContent();
    assert.match(reason ?? '', /You may not install operators in .*: you may not \w+ \w+/);
    await h.shot(page, 'details-install-refused');
    await page.close();
  });
});
