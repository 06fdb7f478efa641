// The Rollouts pages in Debian's Chromium, against a production build reading a real Open Cluster
// Management v1.0.0 hub (`npm run cluster -- --fleet 2`: the hub, also local-cluster, and
// cluster2 labelled canary=true, each with real OLM v0 and the shared gatekeeper catalog). A
// rollout written through lib/server/rollouts as the hub's admin shows in the list; its page
// shows the canary wave (cluster2) and the next (local-cluster), each healthy with the CSV its
// own OLM installed, from status feedback, and what is not offered; Stop asks first, then every
// ManifestWork of the rollout goes. Axe clean at 1440 and 390 px. Skipped when the cluster's
// programs or the shared catalogs are missing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { MANIFEST_WORK_TYPE } from '../lib/server/rollouts/resources';
import { eventually, gatekeeperChoices, GATEKEEPER as PKG, realFleetMissing } from '../lib/server/testing/ocm-fleet';
import { DESKTOP } from './support/a11y';
import { checkBothWidths } from './support/both-widths';
import type { RunningConsole } from './support/console-server';
import { startRolloutPages, type RolloutPages } from './support/rollout-pages';

const shots = join(import.meta.dirname, '..', 'test-results', 'fleet-rollouts');
const skip = realFleetMissing();

const choices = gatekeeperChoices();

if (skip) test('the Rollouts pages on a real OCM hub', (t) => t.skip(skip));
else
  describe('the Rollouts pages on a real OCM hub', () => {
    let pages: RolloutPages;
    let consoleServer: RunningConsole;
    let browser: Browser;
    let hub: KubeClient;

    before(async () => {
      mkdirSync(shots, { recursive: true });
      // Both waves installed and read back before the browser looks.
      pages = await startRolloutPages(choices, {
        what: 'both clusters healthy',
        each: (c) => c.state === 'healthy' && c.feedback.installedCSV === `${PKG}.v3.18.1`,
      });
      ({ console: consoleServer, browser } = pages);
      hub = pages.hub;
    });

    after(async () => {
      await pages?.stop();
    });

    const check = (page: Page, name: string) => checkBothWidths(page, shots, 'fleet-rollouts', name);

    test('the list links the rollout; its page shows the canary wave, then the next, with what each runs', async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${consoleServer.url}/fleet/rollouts`);
      await page.getByRole('link', { name: 'rollouts/gatekeeper' }).click();
      await page.waitForURL(/\/fleet\/rollouts\/rollouts\/gatekeeper$/);
      const canary = page.getByRole('region', { name: 'Canary' });
      await canary.getByText('cluster2').waitFor();
      assert.match(
        await canary.innerText(),
        new RegExp(`cluster2: healthy; runs ${PKG}\\.v3\\.18\\.1 \\(AtLatestKnown\\)`),
      );
      assert.match(
        await page.getByRole('region', { name: 'Wave 1' }).innerText(),
        new RegExp(`local-cluster: healthy; runs ${PKG}\\.v3\\.18\\.1`),
      );
      assert.match(await page.getByRole('region', { name: 'Not offered, and why' }).innerText(), /no pause/);
      await check(page, 'gatekeeper');
      await page.close();
    });

    test('Stop asks first, then every ManifestWork of the rollout goes', async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${consoleServer.url}/fleet/rollouts/rollouts/gatekeeper`);
      await page.getByRole('button', { name: 'Stop this rollout' }).click();
      await page.getByRole('button', { name: 'Stop it' }).click();
      await page.getByRole('status').filter({ hasText: 'Stopped' }).waitFor();
      await eventually(
        () => 'the ManifestWorks gone',
        async () =>
          (
            await hub.listAll(MANIFEST_WORK_TYPE, {
              labelSelector: 'work.open-cluster-management.io/manifestworkreplicaset=rollouts.gatekeeper',
            })
          ).items.length === 0
            ? true
            : undefined,
        120_000,
        1000,
      );
      await page.close();
    });
  });
