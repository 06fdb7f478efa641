// "Upgrade up to a version" in Debian's Chromium, against a production build whose approver is
// the console's own identity: PgPilot at 1.0.0 on channel fast, Manual; the person picks 1.4.0 of
// 1.4.0 and 1.5.0, sees the one hop OLM takes, sets it; the console approves the plan to 1.4.0 and
// stops there, the plan to 1.5.0 waiting. A viewer is told why they may not set one, and a target
// written on the Subscription by hand is refused: the page says why and the plan keeps waiting.
// Both consoles run the approver with one session key, as replicas do.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

describe('Upgrade up to a version', () => {
  const h = useHarness({
    suite: 'upgrade-target',
    consoleEnv: { OLM_CONSOLE_UPGRADE_APPROVER: 'console', OLM_CONSOLE_SESSION_KEY: randomBytes(32).toString('hex') },
    seed: async (kube) => {
      await subscribe(kube, {
        namespace: 'pg',
        package: 'pgpilot',
        channel: 'fast',
        targets: ['pg'],
        approval: 'Manual',
        startingCSV: 'pgpilot.v1.0.0',
      });
      const first = await waitFor('the first plan', async () =>
        (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'pg' })).items.find(
          (p) => p.status?.phase === 'RequiresApproval',
        ),
      );
      await kube.patch(
        INSTALL_PLAN_TYPE,
        first.metadata!.name!,
        { spec: { approved: true } },
        { namespace: 'pg', type: 'merge' },
      );
      await waitForCsv(kube, 'pg', 'pgpilot.v1.0.0');
    },
  });

  test('a viewer sees why they may not set a target', async () => {
    const page = await h.openAs('bob', '/operators/pg/pgpilot.v1.0.0?tab=subscription');
    const section = page.getByRole('region', { name: 'Upgrade up to a version' });
    await section.getByText(/You may not approve InstallPlans in pg, so you may not set a target/).waitFor();
    assert.equal(await section.getByRole('button', { name: /^Upgrade up to/ }).isDisabled(), true);
    await page.close();
  });

  test('set to 1.4.0: the predicted hop is approved, and the walk stops there', async () => {
    const page = await h.open('/operators/pg/pgpilot.v1.0.0?tab=subscription');
    const section = page.getByRole('region', { name: 'Upgrade up to a version' });
    await section.getByLabel('Target version').selectOption({ label: '1.4.0' });
    await section.getByText('OLM takes one InstallPlan: 1.0.0 → 1.4.0, and stops.').waitFor();
    await h.shot(page, 'choose');
    await section.getByRole('button', { name: 'Upgrade up to 1.4.0' }).click();
    await section.getByText(/Upgrading up to 1\.4\.0, set by /).waitFor();
    await waitForCsv(h.kube, 'pg', 'pgpilot.v1.4.0');
    await waitFor(
      'the target reached and removed',
      async () => {
        const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
        return sub.status?.installedCSV === 'pgpilot.v1.4.0' &&
          !sub.metadata?.annotations?.['olm-console.io/upgrade-target']
          ? true
          : undefined;
      },
      30_000,
    );
    const plans = (await h.kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'pg' })).items;
    assert.ok(
      plans.some(
        (p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes('pgpilot.v1.5.0'),
      ),
      'the plan past the target waits',
    );
    const done = await h.open('/operators/pg/pgpilot.v1.4.0?tab=events');
    await done
      .getByText(/approved by olm-console on the way to pgpilot\.v1\.4\.0, the upgrade target set by/)
      .first()
      .waitFor();
    await h.shot(done, 'events');
    await done.close();
    await page.close();
  });

  test('a target written on the Subscription by hand is refused: the page says why, and the plan waits', async () => {
    const forged = JSON.stringify({ csv: 'pgpilot.v1.5.0', setBy: 'admin', setAt: new Date().toISOString() });
    const patch = { metadata: { annotations: { 'olm-console.io/upgrade-target': forged } } };
    await h.kube.patch(SUBSCRIPTION_TYPE, 'pgpilot', patch, { namespace: 'pg', type: 'merge' });
    const page = await h.open('/operators/pg/pgpilot.v1.4.0?tab=subscription');
    const section = page.getByRole('region', { name: 'Upgrade up to a version' });
    const refused = /Refused: the approver approves nothing for this target, because it carries no seal/;
    await section.getByRole('alert').getByText(refused).waitFor();
    await h.shot(page, 'refused');
    type Event = { reason?: string; type?: string };
    const EVENTS = { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' };
    await waitFor(
      'the refusal recorded',
      async () => {
        const events = await h.kube.listAll<Event>(EVENTS, { namespace: 'pg' });
        return events.items.some((e) => e.reason === 'UpgradeTargetRefused' && e.type === 'Warning') ? true : undefined;
      },
      30_000,
    );
    const plans = (await h.kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'pg' })).items;
    const next = plans.find((p) => p.spec.clusterServiceVersionNames.includes('pgpilot.v1.5.0'));
    assert.equal(next?.spec.approved, false, 'the plan to 1.5.0 is not approved');
    await page.close();
  });
});
