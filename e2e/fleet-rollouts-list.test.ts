// The Rollouts list in Debian's Chromium, against a production build and three sandbox clusters in
// this process (lib/sandbox/fleet.ts: prod-east the OCM hub, managed as local-cluster; prod-west
// labelled canary=true). Two rollouts are written as the hub's admin: flagpole, with no
// progressDeadline, and stuck, whose channel the catalog lacks and whose deadline is two seconds,
// so OCM v1.0.0 times its canary out and holds the next wave while the hub's conditions still read
// as a rollout in progress. The list's row of stuck says so, in the words the rollout's page says
// on the canary's line, at 1440 and 390 px; flagpole's row says no timeout. Axe clean at both
// widths, nothing scrolling sideways on the phone, a screenshot of each kept.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { listRollouts } from '../lib/server/rollouts/read';
import { writeRollout } from '../lib/server/rollouts/write';
import {
  eventually,
  flagpoleChoices,
  startSandboxOcmFleet,
  stuckChoices,
  type SandboxOcmFleet,
} from '../lib/server/testing/ocm-fleet';
import { DESKTOP, PHONE } from './support/a11y';
import { checkBothWidths } from './support/both-widths';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-rollouts-list');

const stuck = stuckChoices();

// What OCM's rule, applied by the rollout's page, says of a canary timed out after 2s with no
// failure tolerated (e2e/fleet-rollout-form.test.ts reads the same sentence on that page).
const HELD =
  "OCM counts it as failed, and with 1 failed where 0 are tolerated the rollout will not go on to the next group until this cluster's work is Available or the rollout is changed or stopped.";
const STUCK_ROW = new RegExp(
  '^prod-west, in the canary, timed out after 2s \\(at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\): ' +
    HELD.replace(/[.()]/g, '\\$&') +
    '$',
  'm',
);

describe('the Rollouts list: a rollout whose canary OCM timed out, beside one without a deadline', () => {
  let fleet: SandboxOcmFleet;
  let app: RunningConsole;
  let browser: Browser;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    fleet = await startSandboxOcmFleet({ count: 3, deploymentDelayMs: 200 });
    await writeRollout(fleet.hub, flagpoleChoices());
    await writeRollout(fleet.hub, stuck);
    // The browser looks once the hub's own reading has the timeout.
    await eventually(
      () => 'the stuck canary timed out',
      async () => (await listRollouts(fleet.hub)).rollouts.find((r) => r.name === 'stuck')?.timedOut?.length,
      60_000,
    );
    app = await startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.fleet.kubeconfigPath });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await fleet?.stop();
  });

  test("the stuck rollout's row names its timed-out canary and the held wave, at both widths", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${app.url}/fleet/rollouts`);
    const row = (name: string) =>
      page.getByRole('row').filter({ has: page.getByRole('link', { name: `rollouts/${name}`, exact: true }) });
    await row('stuck').waitFor();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const text = await row('stuck').innerText();
      assert.match(text, STUCK_ROW, `at ${size.width} px the row says:\n${text}`);
      // The hub's own conditions are still there, and never name the timeout.
      const hub = /Hub: (.*)/.exec(text)?.[1] ?? '';
      assert.match(hub, /PlacementVerified/);
      assert.doesNotMatch(hub, /time/i);
      assert.doesNotMatch(await row('flagpole').innerText(), /timed out/);
    }
    await checkBothWidths(page, shots, 'fleet-rollouts-list', 'timed-out');

    // The rollout's page says the same sentence on the canary's line.
    const listed = STUCK_ROW.exec(await row('stuck').innerText())![0].replace('prod-west, in the canary, ', '');
    await row('stuck').getByRole('link').click();
    await page.waitForURL(/\/fleet\/rollouts\/rollouts\/stuck$/);
    const canary = page.getByRole('region', { name: 'Canary' });
    await canary.getByText(/timed out after 2s/).waitFor();
    assert.ok((await canary.innerText()).includes(listed), `the canary's line:\n${await canary.innerText()}`);
    await page.close();
  });
});
