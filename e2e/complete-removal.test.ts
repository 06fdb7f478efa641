// Complete removal in Debian's Chromium, against a production build and a sandbox with the demo
// catalog: Flagpole with flags in its namespace and in another one is uninstalled with its CRD
// after the person typed the count of instances; PgPilot, whose CRDs a second PgPilot also owns,
// is refused with that operator named. Checked with the Kubernetes API.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isKubeError } from '../lib/k8s/errors';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const FLAGS = { group: 'flagpole.example.com', version: 'v1', plural: 'flags', namespaced: true, kind: 'Flag' };
const CRD = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};

describe('Uninstall with the CRDs (complete removal)', () => {
  let flagpole = '';
  const h = useHarness({
    suite: 'complete-removal',
    seed: async (kube) => {
      await ensureNamespace(kube, 'elsewhere');
      await subscribe(kube, { namespace: 'flags', package: 'flagpole', channel: 'stable', targets: ['flags'] });
      flagpole = await waitFor(
        'flagpole installed',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', 'flags')).status?.installedCSV,
      );
      await waitForCsv(kube, 'flags', flagpole);
      for (const [ns, name] of [
        ['flags', 'dark-mode'],
        ['elsewhere', 'stray'],
      ] as const)
        await kube.create(
          FLAGS,
          { apiVersion: 'flagpole.example.com/v1', kind: 'Flag', metadata: { name, namespace: ns } },
          { namespace: ns },
        );
      await subscribe(kube, { namespace: 'pg-a', package: 'pgpilot', channel: 'stable', targets: ['pg-a'] });
      await subscribe(kube, { namespace: 'pg-b', package: 'pgpilot', channel: 'stable', targets: ['pg-b'] });
      await waitForCsv(kube, 'pg-a', 'pgpilot.v1.4.0');
      await waitForCsv(kube, 'pg-b', 'pgpilot.v1.4.0');
    },
  });

  test('refused while another operator owns the same CRD, naming it', async () => {
    const page = await h.open('/operators/pg-a/pgpilot.v1.4.0');
    await page.getByRole('button', { name: 'Uninstall' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: /Remove completely/ }).check();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'The CRDs cannot go: other operators use them' })
      .getByText('pg-b/pgpilot.v1.4.0 owns postgresclusters.pgpilot.example.com')
      .waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Uninstall and remove the CRDs' }).isDisabled(), true);
    await h.shot(page, 'refused');
    await page.close();
  });

  test('every instance counted, the count typed, then the instances, the operator and its CRD go', async () => {
    const page = await h.open(`/operators/flags/${flagpole}`);
    await page.getByRole('button', { name: 'Uninstall' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: /Remove completely/ }).check();
    const table = dialog.getByRole('table', { name: 'CRDs to remove' });
    await table.waitFor();
    await dialog.getByText("the operator's CustomResourceDefinitions and every instance of them").waitFor();
    assert.equal(
      await dialog.getByText(/^the CustomResourceDefinitions flags/).count(),
      0,
      'no longer listed as staying',
    );
    assert.match((await table.textContent()) ?? '', /flags\.flagpole\.example\.com.*2: 1 in elsewhere, 1 in flags/);
    const go = dialog.getByRole('button', { name: 'Uninstall and remove the CRDs' });
    assert.equal(await go.isDisabled(), true, 'not before the count is typed');
    await dialog.getByLabel('Confirmation').fill('delete 2 instances');
    await h.shot(page, 'confirmed');
    await go.click();
    await dialog.getByRole('status').filter({ hasText: 'is uninstalled' }).waitFor({ timeout: 30_000 });
    const steps = (await dialog.getByRole('list', { name: 'Uninstall steps' }).textContent()) ?? '';
    assert.match(
      steps,
      /Flag elsewhere\/stray: deleted.*Subscription flags\/flagpole: deleted.*CustomResourceDefinition flags\.flagpole\.example\.com: deleted/,
    );
    await waitFor('the CRD gone', async () => {
      try {
        await h.kube.get(CRD, 'flags.flagpole.example.com');
        return undefined;
      } catch (err) {
        return isKubeError(err, 404) ? true : undefined;
      }
    });
    await page.close();
  });
});
