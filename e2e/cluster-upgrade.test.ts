// Cluster-upgrade readiness in Debian's Chromium, against a production build and a sandbox with
// the demo catalog: PgPilot kept at 1.2.0 (olm.maxOpenShiftVersion 4.18) is named as blocking 4.19,
// with OLM's message and the one InstallPlan that clears it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INSTALL_PLAN_TYPE } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

describe('Cluster upgrade readiness', () => {
  const h = useHarness({
    suite: 'cluster-upgrade',
    seed: async (kube) => {
      await subscribe(kube, {
        namespace: 'pg',
        package: 'pgpilot',
        channel: 'stable',
        targets: ['pg'],
        approval: 'Manual',
        startingCSV: 'pgpilot.v1.2.0',
      });
      const plan = await waitFor(
        'the first plan',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg')).status?.installPlanRef?.name,
      );
      await kube.patch(INSTALL_PLAN_TYPE, plan, { spec: { approved: true } }, { namespace: 'pg', type: 'merge' });
      await waitForCsv(kube, 'pg', 'pgpilot.v1.2.0');
    },
  });

  test("the blocker of 4.19 named, with OLM's words and the way out", async () => {
    const page = await h.open('/operatorhub');
    await page.getByRole('link', { name: 'Cluster upgrade' }).click();
    await page.getByRole('heading', { name: 'Cluster upgrade readiness' }).waitFor();
    await page.getByText('Give the OpenShift version to check against').waitFor();
    await page.getByLabel('Target OpenShift version').fill('4.19');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('status').filter({ hasText: '1 operator blocks an upgrade to 4.19.' }).waitFor();
    assert.match(
      (await page.getByRole('note', { name: "OLM's message" }).textContent()) ?? '',
      /maximum supported OCP version for pg\/pgpilot\.v1\.2\.0 is 4\.18/,
    );
    const row = page
      .getByRole('table', { name: 'Installed operators' })
      .getByRole('row')
      .filter({ hasText: 'pgpilot.v1.2.0' });
    assert.match(
      (await row.textContent()) ?? '',
      /4\.18.*Blocks the cluster upgrade.*runs on OpenShift up to 4\.18, not 4\.19.*Upgrade to 1\.4\.0 on stable: 1 InstallPlan \(pgpilot\.v1\.4\.0\)/,
    );
    await h.shot(page, 'blocked');
    await page.close();
  });
});
