// Refreshing a failing Subscription in Debian's Chromium, against a production build and the
// sandbox: Cachely's InstallPlan made to fail (the sandbox's fault, as an image that cannot be
// pulled would), the install's progress view says so in OLM's words and offers the documented
// repair with each step; applied, OLM installs Cachely. A failed resolution put right elsewhere is
// followed to the end.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from '../lib/k8s/http';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE } from '../lib/olm/resources/subscription';
import { subscribe, waitFor } from '../lib/server/testing/cluster';
import { checkBothWidths } from './support/both-widths';
import { useHarness } from './support/harness';

describe('Refresh a failing Subscription', () => {
  const h = useHarness({
    suite: 'refresh',
    seed: async (kube, sb) => {
      const kc = new KubeConfig();
      kc.loadFromFile(sb.kubeconfigPath);
      await kubeRequest(kc, {
        method: 'POST',
        path: '/sandbox/faults',
        body: { failNextInstallPlan: 'image quay.example.com/demo/cachely-bundle:v0.9.2 could not be pulled' },
        retry: 'none',
      });
      await subscribe(kube, { namespace: 'team1', package: 'cachely', channel: 'alpha', targets: ['team1'] });
      await waitFor('the plan failed', async () =>
        (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items.some(
          (p) => p.status?.phase === 'Failed',
        )
          ? true
          : undefined,
      );
    },
  });

  test("the failure in OLM's words, the repair planned, applied, and the operator installed", async () => {
    const page = await h.open('/installs/team1/cachely');
    const section = page.getByRole('region', { name: 'Refresh the Subscription' });
    await section
      .getByText(/could not be pulled/)
      .first()
      .waitFor();
    const steps = section.getByRole('list', { name: 'Repair steps' });
    assert.match(
      (await steps.textContent()) ?? '',
      /Delete Subscription team1\/cachely.*Delete InstallPlan team1\/install-.*Create Subscription team1\/cachely/s,
    );
    await h.shot(page, 'planned');
    await section.getByRole('button', { name: 'Refresh the Subscription' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: cachely\.v0\.9\.2/ })
      .waitFor({ timeout: 20_000 });
    await h.shot(page, 'installed');
    await page.close();
  });

  test('a failed resolution is followed on: fixed elsewhere, the page shows the operator installed', async () => {
    // OLM resolves the namespace again on every change, so "Could not install" may not last: here
    // a Subscription to a channel the package does not have, then its channel put right (as with
    // kubectl) while the page is open.
    await subscribe(h.kube, { namespace: 'team2', package: 'cachely', channel: 'nope', targets: ['team2'] });
    const page = await h.open('/installs/team2/cachely');
    // Failed: the status line in red and the repair offered.
    await page.getByRole('region', { name: 'Refresh the Subscription' }).waitFor();
    // Kept at both widths (the phone's with -phone), axe clean at each.
    await checkBothWidths(
      page,
      join(import.meta.dirname, '..', 'test-results', 'refresh'),
      'refresh',
      'resolution-failed',
    );
    await h.kube.patch(
      SUBSCRIPTION_TYPE,
      'cachely',
      { spec: { channel: 'alpha' } },
      { namespace: 'team2', type: 'merge' },
    );
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: cachely\.v/ })
      .waitFor({ timeout: 20_000 });
    await page.close();
  });
});
