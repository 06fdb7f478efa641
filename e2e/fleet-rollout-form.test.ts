// The form that starts a rollout, in Debian's Chromium, against a production build and three
// sandbox clusters in one process (lib/sandbox/fleet.ts, as `npm start -- --clusters 3` runs them),
// the first an Open Cluster Management hub listing all three, prod-west labelled canary=true by
// its admin: the navigation offers Rollouts, the list links the form; routekit from the hub's
// catalog, canary first, waves of one, is previewed (the clusters picked now, nothing written
// yet), written as the admin and lands on its page showing the canary and the waves, each cluster
// running what its own OLM installed; a package's Roll out in Operators across clusters opens the
// form with it chosen; a bad duration, or a name too long beside the hub namespace, is refused
// beside its field and writes nothing; Export for GitOps shows the hub objects; a rollout whose
// canary OCM timed out (a channel the catalog lacks, a two-second progressDeadline) says so on the
// canary's line, and that the next wave waits for it. Each state passes axe at 1440 and 390 px with
// nothing scrolling sideways on the phone, and is kept as a screenshot at both widths.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { isKubeError } from '../lib/k8s/errors';
import { PLACEMENT_TYPE } from '../lib/server/rollouts/resources';
import { writeRollout } from '../lib/server/rollouts/write';
import { flagpoleChoices, startSandboxOcmFleet, type SandboxOcmFleet } from '../lib/server/testing/ocm-fleet';
import { accessibilityProblems, DESKTOP, PHONE } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-rollout-form');

describe('the rollout form: three sandbox clusters, the first an OCM hub', () => {
  let fleet: SandboxOcmFleet;
  let hub: KubeClient;
  let admin: RunningConsole;
  let browser: Browser;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    // prod-west labelled canary=true by the hub's admin, as `kubectl label managedcluster` would.
    fleet = await startSandboxOcmFleet({ count: 3, deploymentDelayMs: 200 });
    hub = fleet.hub;
    admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.fleet.kubeconfigPath });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await admin?.stop();
    await fleet?.stop();
  });

  /** Axe at both widths, nothing sideways on the phone, and a screenshot at each width to look at. */
  const shot = async (page: Page, name: string) => {
    for (const [size, suffix] of [
      [PHONE, '-phone'],
      [DESKTOP, ''],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(shots, `${name}${suffix}.png`), fullPage: true, animations: 'disabled' });
    }
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `fleet-rollout-form/${name}:\n${problems.join('\n')}`);
  };

  const placementExists = async (name: string) => {
    try {
      await hub.get(PLACEMENT_TYPE, name, 'rollouts');
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };

  /** The form with routekit chosen from the hub's catalog, prod-west as the canary, waves of one. */
  const filledForm = async (): Promise<Page> => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/rollouts/new`);
    await page.getByLabel('Package name').fill('routekit');
    const catalog = page.getByLabel('Catalog', { exact: true });
    // The first form of the run waits for the hub's first read of its catalogs, which took over the
    // default 30 s once on a loaded machine (a whole e2e run beside other work); later forms are quick.
    await catalog
      .locator('option', { hasText: 'CatalogSource olm/olm-console-demo' })
      .waitFor({ state: 'attached', timeout: 90_000 });
    await page.getByLabel('Channel').locator('option', { hasText: 'stable' }).waitFor({ state: 'attached' });
    await page.getByLabel('Canary: clusters with these labels go first (optional)').fill('canary=true');
    return page;
  };

  test('Rollouts in the navigation; the list links the form; preview, write, and the waves', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/operatorhub`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
    await page.waitForURL(/\/fleet\/rollouts$/);
    await page.getByRole('link', { name: 'New rollout' }).click();
    await page.waitForURL(/\/fleet\/rollouts\/new$/);
    await page.close();

    const form = await filledForm();
    assert.equal(await form.getByLabel('Rollout name').inputValue(), 'routekit');
    assert.equal(await form.getByLabel('Cluster sets').inputValue(), 'default');
    await shot(form, 'filled');
    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = form.getByRole('region', { name: 'Preview: rollouts/routekit' });
    await preview.waitFor();
    const text = await preview.innerText();
    assert.match(text, /Nothing is written yet/);
    assert.match(text, /Canary: prod-west/);
    assert.match(text, /Then 2 clusters: local-cluster, staging, in waves of at most 1; 3 waves in all/);
    assert.match(text, /You may create manifestworkreplicasets in rollouts/);
    assert.match(text, /Subscription routekit\/routekit/);
    assert.equal(await placementExists('routekit'), false, 'a preview writes nothing');
    await shot(form, 'preview');

    await preview.getByRole('button', { name: 'Write it on the hub as you' }).click();
    await form.waitForURL(/\/fleet\/rollouts\/rollouts\/routekit$/);
    // Each wave is healthy in turn: the canary first, then one cluster per wave.
    const main = form.getByRole('main');
    try {
      await form
        .getByRole('region', { name: 'Canary' })
        .getByText(/prod-west: healthy/)
        .waitFor({ timeout: 60_000 });
      for (const cluster of ['local-cluster', 'staging'])
        await form
          .getByRole('region', { name: /^Wave \d+$/ })
          .getByText(new RegExp(`${cluster}: healthy`))
          .waitFor({ timeout: 60_000 });
    } catch (err) {
      assert.fail(`${(err as Error).message}\nthe page says:\n${await main.innerText()}`);
    }
    const waves = await form.getByRole('region', { name: /^Wave \d+$/ }).all();
    const each = await Promise.all(waves.map((w) => w.innerText()));
    assert.equal(each.length, 2, `two waves after the canary:\n${each.join('\n')}`);
    for (const [i, cluster] of ['local-cluster', 'staging'].entries())
      assert.match(each[i]!, new RegExp(`${cluster}: healthy; runs routekit\\.v0\\.3\\.0 \\(AtLatestKnown\\)`));
    assert.match(
      await form.getByRole('region', { name: 'Canary' }).innerText(),
      /prod-west: healthy; runs routekit\.v0\.3\.0 \(AtLatestKnown\)/,
    );
    await shot(form, 'written');
    await form.close();
  });

  test('a package in Operators across clusters opens the form with it chosen', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/operators`);
    await page.getByRole('link', { name: 'Roll out certwarden' }).click();
    await page.waitForURL(/\/fleet\/rollouts\/new\?package=certwarden$/);
    assert.equal(await page.getByLabel('Package name').inputValue(), 'certwarden');
    await page
      .getByLabel('Catalog', { exact: true })
      .locator('option', { hasText: 'CatalogSource olm/olm-console-demo' })
      .waitFor({ state: 'attached' });
    assert.equal(await page.getByLabel('Rollout name').inputValue(), 'certwarden');
    await page.close();
  });

  test('a duration OCM cannot read is refused beside its field, and nothing is written', async () => {
    const page = await filledForm();
    await page.getByLabel('Rollout name').fill('routekit-slow');
    const deadline = page.getByLabel('How long a wave may take (optional)');
    await deadline.fill('10 minutes');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(/"10 minutes" must be a number and h, m or s/).waitFor();
    assert.equal(await deadline.getAttribute('aria-invalid'), 'true');
    const describedBy = (await deadline.getAttribute('aria-describedby')) ?? '';
    const said = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
      describedBy.split(' '),
    );
    assert.match(said, /"10 minutes" must be a number and h, m or s/);
    assert.equal(await page.getByRole('region', { name: /^Preview/ }).count(), 0);
    assert.equal(await placementExists('routekit-slow'), false);
    await shot(page, 'bad-duration');
    await page.close();
  });

  test("a name too long beside the hub namespace is refused beside the name, in the rollout's words", async () => {
    const page = await filledForm();
    const name = page.getByLabel('Rollout name');
    await name.fill(`routekit-${'x'.repeat(45)}`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(/the rollout name and hub namespace together must be at most 56 characters/).waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    const said = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
      ((await name.getAttribute('aria-describedby')) ?? '').split(' '),
    );
    assert.match(said, /the rollout name and hub namespace together must be at most 56 characters/);
    assert.equal(await page.getByRole('region', { name: /^Preview/ }).count(), 0);
    await page.close();
  });

  test('Export for GitOps shows the hub objects as files', async () => {
    const page = await filledForm();
    await page.getByLabel('Rollout name').fill('routekit-git');
    await page.getByRole('button', { name: 'Export for GitOps' }).click();
    const files = page.getByRole('list', { name: 'Exported files' });
    await files.waitFor();
    assert.match(await files.innerText(), /kind: ManifestWorkReplicaSet[\s\S]*name: routekit-git/);
    assert.equal(await placementExists('routekit-git'), false, 'an export writes nothing');
    await shot(page, 'export');
    await page.close();
  });

  test('a canary OCM timed out says so on its line, and that the next wave waits for it', async () => {
    // Written as the hub's admin: the form offers only the catalog's channels.
    await writeRollout(
      hub,
      flagpoleChoices({
        name: 'routekit-stuck',
        package: 'routekit',
        channel: 'no-such-channel',
        installNamespace: 'routekit-stuck',
        progressDeadline: '2s',
      }),
    );
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${admin.url}/fleet/rollouts/rollouts/routekit-stuck`);
    const canary = page.getByRole('region', { name: 'Canary' });
    try {
      await canary.getByText(/timed out after 2s/).waitFor({ timeout: 60_000 });
    } catch (err) {
      assert.fail(`${(err as Error).message}\nthe page says:\n${await page.getByRole('main').innerText()}`);
    }
    assert.match(
      await canary.innerText(),
      new RegExp(
        'prod-west: not healthy.*\\n+timed out after 2s \\(at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\): ' +
          'OCM counts it as failed, and with 1 failed ' +
          "where 0 are tolerated the rollout will not go on to the next group until this cluster's work is " +
          'Available or the rollout is changed or stopped\\.',
      ),
    );
    const waves = await Promise.all(
      (await page.getByRole('region', { name: /^Wave \d+$/ }).all()).map((w) => w.innerText()),
    );
    assert.deepEqual(
      waves.map((w) => /(local-cluster|staging): (\S+)/.exec(w)?.slice(1)),
      [
        ['local-cluster', 'waiting'],
        ['staging', 'waiting'],
      ],
    );
    assert.doesNotMatch(waves.join('\n'), /timed out/);
    await shot(page, 'timed-out');
    await page.close();
  });
});
