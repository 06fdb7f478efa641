// A token per cluster on the Clusters page, in Debian's Chromium, against a production build and
// three sandbox clusters (lib/sandbox/fleet.ts) read as the contexts of one kubeconfig, the
// console in per-user-token mode where the login token goes to the home cluster only (no
// OLM_CONSOLE_FLEET_SHARED_TOKENS). Bob logs in; prod-west and staging say they are not asked;
// a token prod-west refuses is refused in its words and kept nowhere; the admin's token added for
// prod-west makes prod-west answer as the admin (its rights), while prod-east stays bob's and
// staging still unasked; removed, prod-west is unasked again. Every state passes axe at 1440 and
// 390 px with nothing scrolling sideways on the phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { SandboxFleet } from '../lib/sandbox/fleet';
import { accessibilityProblems, DESKTOP, PHONE } from './support/a11y';
import type { RunningConsole } from './support/console-server';
import { startFleetBrowser, tokenSignIn, type FleetBrowser } from './support/fleet-browser';
import { loggedInPage } from './support/login';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-tokens');

describe('a token per cluster on the Clusters page: three sandbox clusters', () => {
  let started: FleetBrowser;
  let fleet: SandboxFleet;
  let app: RunningConsole;
  let page: Page;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    started = await startFleetBrowser('fleet-tokens');
    fleet = started.fleet;
    // The login token goes to the home cluster only: no shared tokens.
    app = await started.startConsole(tokenSignIn(fleet.kubeconfigPath, false));
    page = await loggedInPage(started.browser, app.url, fleet.tokens.bob!);
    await page.setViewportSize(DESKTOP);
  });
  after(async () => {
    await started?.stop();
  });

  /** Screenshots at a desktop's width and a phone's; axe at both and no sideways scrolling on the phone. */
  const check = async (name: string) => {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(shots, `${name}-phone.png`), fullPage: true, animations: 'disabled' });
    await page.setViewportSize(DESKTOP);
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `fleet-tokens/${name}:\n${problems.join('\n')}`);
  };
  // By the cell naming the cluster: the other rows' reasons name the home cluster too.
  const row = (name: string) =>
    page
      .getByRole('table', { name: 'Clusters' })
      .getByRole('row')
      .filter({ has: page.getByText(name, { exact: true }) });
  const settled = () => page.locator('section[aria-busy="false"]').first().waitFor();

  test('the other clusters are not asked with the login token, and each offers a form for one', async () => {
    await page.goto(`${app.url}/fleet/clusters`);
    await settled();
    assert.match(await row('prod-west').innerText(), /add your token for prod-west on the Clusters page/);
    assert.match(await row('prod-east').innerText(), /Ready/);
    const tokens = page.getByRole('region', { name: 'Your tokens for other clusters' });
    assert.match(await tokens.innerText(), /goes only to prod-east/);
    await tokens.getByLabel('Your bearer token for prod-west').waitFor();
    await tokens.getByLabel('Your bearer token for staging').waitFor();
    assert.equal(await tokens.getByLabel('Your bearer token for prod-east').count(), 0);
    await check('forms');
  });

  test('a token prod-west refuses is refused in its words, and nothing is kept', async () => {
    const tokens = page.getByRole('region', { name: 'Your tokens for other clusters' });
    await tokens.getByLabel('Your bearer token for prod-west').fill('not-a-token-of-prod-west');
    await tokens.getByRole('button', { name: 'Add token for prod-west' }).click();
    const alert = tokens.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Unauthorized: prod-west did not accept this token; nothing was kept/);
    await check('refused');
  });

  test("the admin's token added for prod-west: prod-west answers as the admin, the others as before", async () => {
    const tokens = page.getByRole('region', { name: 'Your tokens for other clusters' });
    await tokens.getByLabel('Your bearer token for prod-west').fill(fleet.tokens.admin!);
    await tokens.getByRole('button', { name: 'Add token for prod-west' }).click();
    await tokens.getByText('Your token there is admin').waitFor();
    await row('prod-west').getByText('Ready', { exact: true }).waitFor();
    await settled();
    assert.match(await row('prod-west').innerText(), /✓\s*may\s*approve InstallPlans/);
    assert.match(await row('prod-east').innerText(), /✗\s*may not\s*approve InstallPlans/);
    assert.match(await row('staging').innerText(), /add your token for staging/);
    await check('added');
  });

  test('removed, the token is no longer sent: prod-west is not asked again', async () => {
    const tokens = page.getByRole('region', { name: 'Your tokens for other clusters' });
    await tokens.getByRole('button', { name: 'Remove token for prod-west' }).click();
    await tokens.getByLabel('Your bearer token for prod-west').waitFor();
    await row('prod-west')
      .getByText(/add your token for prod-west/)
      .waitFor();
    await check('removed');
  });
});
