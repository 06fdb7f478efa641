// Rolling an operator back in Debian's Chromium, against a production build and the sandbox:
// PgPilot 1.4.0 taken back to 1.3.0 from its Subscription tab — the plan's steps and notes, the
// confirmation, then the progress view where the InstallPlan for 1.3.0 is approved and installs,
// with the operator's instance still there.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { subscribe, waitForCsv } from '../lib/server/testing/cluster';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { useHarness } from './support/harness';

const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};

describe('Roll back to an earlier version', () => {
  const h = useHarness({
    suite: 'rollback',
    seed: async (kube) => {
      await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
      await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
      await kube.create(
        PG,
        {
          apiVersion: 'pgpilot.example.com/v1',
          kind: 'PostgresCluster',
          metadata: { name: 'main', namespace: 'pg' },
          spec: { instances: 3 },
        },
        { namespace: 'pg' },
      );
    },
  });

  test('a viewer sees why they may not', async () => {
    const page = await h.openAs('bob', '/operators/pg/pgpilot.v1.4.0?tab=subscription');
    await page.getByText('Roll back to an earlier version').click();
    await page.getByLabel(/Earlier version of stable/).selectOption('pgpilot.v1.3.0');
    await page
      .getByRole('list', { name: 'What it risks' })
      .getByText(/Blocks it: you may not delete the Subscription in pg/)
      .waitFor();
    assert.equal(await page.getByRole('button', { name: /^Roll back to/ }).count(), 0);
    await page.close();
  });

  test('PgPilot 1.4.0 back to 1.3.0: planned, confirmed, approved, installed; the instance stays', async () => {
    const page = await h.open('/operators/pg/pgpilot.v1.4.0?tab=subscription');
    await page.getByText('Roll back to an earlier version').click();
    await page.getByLabel(/Earlier version of stable/).selectOption('pgpilot.v1.3.0');
    const steps = page.getByRole('list', { name: 'Rollback steps' });
    await steps.getByText('Delete ClusterServiceVersion pg/pgpilot.v1.4.0').waitFor();
    await steps.getByText(/starting at pgpilot\.v1\.3\.0, Manual approval/).waitFor();
    const button = page.getByRole('button', { name: 'Roll back to 1.3.0' });
    assert.equal(await button.isDisabled(), true, 'not before the person confirms');
    await page.getByLabel(/I understand the operator stops/).check();
    await h.shot(page, 'plan');
    await button.click();
    await page.waitForURL(/\/installs\/pg\/pgpilot$/, { timeout: 90_000 });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: pgpilot\.v1\.3\.0/ })
      .waitFor({ timeout: 20_000 });
    await h.shot(page, 'installed');
    const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.3.0');
    assert.equal(sub.spec.installPlanApproval, 'Manual');
    assert.ok(await h.kube.get(PG, 'main', 'pg'));
    await page.close();
  });
});
