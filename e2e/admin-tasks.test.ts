// Administrator tasks in Debian's Chromium, against a production build and a sandbox with the demo
// catalog: overriding an operator's Upgradeable condition (and removing the override), a viewer
// who sees the controls disabled with the cluster's reason, and switching OLMConfig
// disableCopiedCSVs with its effect counted first and its condition followed live. What the
// browser did is checked in the cluster with the Kubernetes API. Screenshots of each page go to
// test-results/admin-tasks/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CSV_TYPE, type ClusterServiceVersion } from '../lib/olm/resources/cluster-service-version';
import { OLM_CONFIG_TYPE, type OLMConfig } from '../lib/olm/resources/olm-config';
import { OPERATOR_CONDITION_TYPE, type OperatorCondition } from '../lib/olm/resources/operator-condition';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { NAMESPACE_TYPE } from '../lib/server/install';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

describe('Administrator tasks: operator condition overrides, cluster settings', () => {
  let cert: string;
  let namespaces: number;

  const h = useHarness({
    suite: 'admin-tasks',
    seed: async (kube) => {
      await ensureNamespace(kube, 'team1');
      await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
      await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
      await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
      cert = await waitFor(
        'certwarden installed',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status?.installedCSV,
      );
      await waitForCsv(kube, 'operators', cert);
      namespaces = (await kube.listAll(NAMESPACE_TYPE)).items.length;
      await waitFor('certwarden copied everywhere', async () =>
        (await copies(cert)) === namespaces - 1 ? true : undefined,
      );
      // PgPilot says, as operators do through operator-lib, that an upgrade is not safe now.
      await kube.patch(
        OPERATOR_CONDITION_TYPE,
        'pgpilot.v1.4.0',
        {
          spec: {
            conditions: [
              {
                type: 'Upgradeable',
                status: 'False',
                reason: 'Migrating',
                message: 'schema migration running',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
          },
        },
        { namespace: 'pg', type: 'merge' },
      );
      await waitFor('OLM mirrors the condition', async () =>
        (await kube.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg')).status?.conditions?.some(
          (c) => c.type === 'Upgradeable' && c.status === 'False',
        )
          ? true
          : undefined,
      );
    },
  });

  const copies = async (name: string) =>
    (await h.kube.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: 'olm.copiedFrom' })).items.filter(
      (c) => c.metadata?.name === name,
    ).length;
  const upgradeableRow = (page: Page) =>
    page.getByRole('table', { name: 'Operator conditions' }).getByRole('row').filter({ hasText: 'Upgradeable' });

  test('an admin overrides Upgradeable=False with True, sees the override as the source, and removes it', async () => {
    const page = await h.open('/operators/pg/pgpilot.v1.4.0?tab=conditions');
    await page.getByRole('tab', { name: 'Conditions', selected: true }).waitFor();
    const row = upgradeableRow(page);
    await row.waitFor();
    assert.match(
      (await row.textContent()) ?? '',
      /Upgradeable\s*False\s*Operator\s*Migrating\s*schema migration running/,
    );
    assert.match(
      (await page.getByLabel('Upgrade verdict').textContent()) ?? '',
      /Upgrades held back.*the operator's own Upgradeable condition/,
    );
    await h.shot(page, 'conditions-operator-false');

    await page.getByRole('button', { name: 'Override a condition' }).click();
    const form = page.getByRole('form', { name: 'Override a condition' });
    assert.equal(await form.getByLabel('Condition type').inputValue(), 'Upgradeable');
    await form.getByRole('radio', { name: 'True' }).check();
    await form.getByRole('note').filter({ hasText: "This bypasses the operator's own safety check" }).waitFor();
    assert.match(
      (await form.getByRole('note').textContent()) ?? '',
      /as it does now \(Migrating: schema migration running\)/,
    );
    await form.getByLabel('Reason').fill('KnownIssue');
    await form.getByLabel('Message').fill('this version reports a migration forever; upgrading fixes it');
    await form.getByRole('button', { name: 'Preview override' }).click();

    const review = page.getByRole('region', { name: 'Review: override Upgradeable to True' });
    await review.getByLabel('Override patch', { exact: true }).waitFor();
    assert.match((await review.getByRole('note').textContent()) ?? '', /bypasses the operator's own safety check/);
    assert.match(
      (await review.getByLabel('Override patch', { exact: true }).textContent()) ?? '',
      /overrides:[\s\S]*type: Upgradeable[\s\S]*status: 'True'[\s\S]*reason: KnownIssue/,
    );
    await h.shot(page, 'conditions-override-review');
    await review.getByRole('button', { name: 'Apply override' }).click();
    await page.getByRole('status').filter({ hasText: 'Override set as you' }).waitFor();
    await row.filter({ hasText: 'Override' }).waitFor();
    assert.match(
      (await row.textContent()) ?? '',
      /Upgradeable\s*True\s*Override\s*KnownIssue.*Overridden: the operator says False \(Migrating: schema migration running\)/,
    );
    assert.match(
      (await page.getByLabel('Upgrade verdict').textContent()) ?? '',
      /Upgrades allowed.*an administrator's override/,
    );
    const oc = await h.kube.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    assert.deepEqual(
      oc.spec?.overrides?.map((o) => [o.type, o.status, o.reason]),
      [['Upgradeable', 'True', 'KnownIssue']],
    );
    await h.shot(page, 'conditions-override-set');

    await row.getByRole('button', { name: 'Remove override' }).click();
    const removal = page.getByRole('region', { name: 'Review: remove the Upgradeable override' });
    await removal.getByText(/wait again until the operator says it is safe/).waitFor();
    await removal.getByRole('button', { name: 'Remove override' }).click();
    await page.getByRole('status').filter({ hasText: 'Override removed as you' }).waitFor();
    await row.filter({ hasText: 'Operator' }).waitFor();
    assert.equal(
      (await h.kube.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg')).spec?.overrides,
      undefined,
    );
    await page.close();
  });

  test("bob (view) sees Override and the copied-CSVs switch disabled, with the cluster's reason", async () => {
    const page = await h.openAs('bob', '/operators/pg/pgpilot.v1.4.0?tab=conditions');
    const button = page.getByRole('button', { name: 'Override a condition' });
    await page.locator('#override-denied').waitFor();
    assert.equal(await button.isDisabled(), true);
    assert.match(
      (await page.locator('#override-denied').textContent()) ?? '',
      /You may not override conditions in pg: .*operatorconditions/,
    );
    assert.match(
      (await page.getByRole('note').filter({ hasText: 'You may not read this OperatorCondition' }).textContent()) ?? '',
      /bob/,
    );
    await h.shot(page, 'conditions-viewer');

    await page.goto(`${h.perUser.url}/settings`);
    await page.locator('#copied-denied').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Copied CSVs' }).isDisabled(), true);
    assert.match(
      (await page.locator('#copied-denied').textContent()) ?? '',
      /You may not change OLM's cluster settings: .*olmconfigs/,
    );
    await h.shot(page, 'settings-viewer');
    await page.close();
  });

  test('an admin turns copied CSVs off, seeing first how many go; the condition changes live; then on again', async () => {
    const page = await h.open('/settings');
    const toggle = page.getByRole('switch', { name: 'Copied CSVs' });
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-checked'), 'true', 'copies are on');
    const removes = namespaces - 1;
    assert.match(
      (await page.getByLabel('Effect of switching').textContent()) ?? '',
      new RegExp(`Turning copied CSVs off removes ${removes} copied CSVs`),
    );
    assert.match(
      (await page.getByLabel('DisabledCopiedCSVs condition').textContent()) ?? '',
      /DisabledCopiedCSVs=False \(CopiedCSVsEnabled\)/,
    );
    await h.shot(page, 'settings-copies-on');

    await toggle.click();
    const review = page.getByRole('region', { name: 'Review: turn copied CSVs off' });
    await review.getByLabel('Effect of the change').waitFor();
    assert.match(
      (await review.getByLabel('Effect of the change').textContent()) ?? '',
      new RegExp(`removes ${removes} copied CSVs.*OLM deletes ${removes} copied CSVs of 1 operator`),
    );
    assert.match(
      (await review.getByLabel('OLMConfig change', { exact: true }).textContent()) ?? '',
      /disableCopiedCSVs: true/,
    );
    await h.shot(page, 'settings-review-off');
    await review.getByRole('button', { name: 'Turn copied CSVs off' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied as you' }).waitFor();
    await page
      .getByLabel('DisabledCopiedCSVs condition')
      .filter({ hasText: 'DisabledCopiedCSVs=True (CopiedCSVsDisabled)' })
      .waitFor({ timeout: 20_000 });
    assert.equal(await toggle.getAttribute('aria-checked'), 'false', 'copies are off');
    assert.equal((await h.kube.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster')).spec?.features?.disableCopiedCSVs, true);
    assert.equal(await copies(cert), 0);
    await page
      .getByLabel('Effect of switching')
      .filter({ hasText: `Turning copied CSVs on brings back ${removes} copied CSVs` })
      .waitFor();
    await h.shot(page, 'settings-copies-off');

    await toggle.click();
    const back = page.getByRole('region', { name: 'Review: turn copied CSVs on' });
    await back.getByRole('button', { name: 'Turn copied CSVs on' }).click();
    await page
      .getByLabel('DisabledCopiedCSVs condition')
      .filter({ hasText: 'CopiedCSVsEnabled' })
      .waitFor({ timeout: 20_000 });
    await waitFor('the copies come back', async () => ((await copies(cert)) === removes ? true : undefined));
    await page.close();
  });
});
