// A rollout through an OperatorPolicy on its page, in Debian's Chromium, against a production build
// reading a real Open Cluster Management v1.0.0 hub (`npm run cluster -- --fleet 2`: the hub, also
// local-cluster, and cluster2 labelled canary=true, each with real OLM v0, the shared gatekeeper
// catalog and config-policy-controller v0.16.0). Written through lib/server/rollouts as the hub's
// admin with upgradeApproval None, its page shows each cluster Compliant with the policy's own
// message (the next CSV available for approval), and the policy's terms and what the controller
// does with them. Axe clean at 1440 and 390 px. Skipped when the cluster's programs or the shared
// catalogs are missing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { gatekeeperChoices, GATEKEEPER as PKG, realFleetMissing } from '../lib/server/testing/ocm-fleet';
import { DESKTOP } from './support/a11y';
import { checkBothWidths } from './support/both-widths';
import type { RunningConsole } from './support/console-server';
import { startRolloutPages, type RolloutPages } from './support/rollout-pages';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-rollouts-policy');
const skip = realFleetMissing();

const choices = gatekeeperChoices({
  name: 'gatekeeper-policy',
  approval: undefined,
  operatorPolicy: { namespace: 'open-cluster-management-policies', allowedVersions: [], upgradeApproval: 'None' },
});

if (skip) test('a rollout through an OperatorPolicy on its page', (t) => t.skip(skip));
else
  describe('a rollout through an OperatorPolicy on its page', () => {
    let pages: RolloutPages;
    let consoleServer: RunningConsole;
    let browser: Browser;

    before(async () => {
      mkdirSync(shots, { recursive: true });
      // Both waves installed, each policy Compliant, before the browser looks.
      pages = await startRolloutPages(choices, {
        what: 'both clusters healthy and Compliant',
        each: (c) => c.state === 'healthy' && c.compliance?.state === 'Compliant',
      });
      ({ console: consoleServer, browser } = pages);
    });

    after(async () => {
      await pages?.stop();
    });

    const check = (page: Page, name: string) => checkBothWidths(page, shots, 'fleet-rollouts', name);

    test("each cluster's compliance in the policy's words, and what the policy does", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${consoleServer.url}/fleet/rollouts/rollouts/${choices.name}`);
      const canary = page.getByRole('region', { name: 'Canary' });
      await canary.getByText('cluster2').waitFor();
      const available = `an InstallPlan to update to \\[${PKG}\\.v3\\.18\\.1\\] is available for approval`;
      assert.match(
        await canary.innerText(),
        new RegExp(`cluster2: healthy[\\s\\S]*OperatorPolicy: Compliant; .*${available}`),
      );
      assert.match(
        await page.getByRole('region', { name: 'Wave 1' }).innerText(),
        new RegExp(`local-cluster: healthy[\\s\\S]*OperatorPolicy: Compliant; `),
      );
      const terms = await page
        .getByRole('region', { name: /^OperatorPolicy open-cluster-management-policies\/gatekeeper-policy/ })
        .innerText();
      assert.match(
        terms,
        /upgradeApproval None; versions none \(any\); startingCSV gatekeeper-operator-product\.v3\.18\.0/,
      );
      assert.match(terms, /it approves no upgrade/);
      assert.match(terms, /keeps enforcing it/);
      await check(page, 'gatekeeper-policy');
      await page.close();
    });
  });
