// An operator whose API is cluster-scoped, in Debian's Chromium against a production build and a
// sandbox serving a fixture catalog: the create form asks for no namespace and says so, the
// instance made lands on its page at `_cluster`, the Instances tab lists it without a Namespace
// column although the operator watches only its own namespace, and it is deleted from its page.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../lib/olm/resources/subscription';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const FLEET = { group: 'fleetwarden.example.com', version: 'v1', plural: 'fleets', namespaced: false, kind: 'Fleet' };

describe('instances of a cluster-scoped API', () => {
  const h = useHarness({
    suite: 'cluster-scoped-instances',
    sandbox: { demo: false },
    writeCatalogs: (tmp) => [
      writeFixtureCatalog(join(tmp, 'fleets'), [
        { name: 'fleetwarden', kind: 'Fleet', scope: 'Cluster', bundles: [{ version: '1.0.0' }] },
      ]),
    ],
    seed: async (kube) => {
      await ensureNamespace(kube, 'fw');
      await kube.create(OPERATOR_GROUP_TYPE, {
        metadata: { name: 'fw', namespace: 'fw' },
        spec: { targetNamespaces: ['fw'] },
      });
      await kube.create(SUBSCRIPTION_TYPE, {
        metadata: { name: 'fleetwarden', namespace: 'fw' },
        spec: {
          name: 'fleetwarden',
          source: 'fleets',
          sourceNamespace: 'olm',
          channel: 'stable',
          installPlanApproval: 'Automatic',
        },
      });
      await waitFor(
        'fleetwarden installed',
        async () =>
          (await kube.get<{ status?: { installedCSV?: string } }>(SUBSCRIPTION_TYPE, 'fleetwarden', 'fw')).status
            ?.installedCSV
            ? true
            : undefined,
        30_000,
      );
      await waitForCsv(kube, 'fw', 'fleetwarden.v1.0.0');
    },
  });

  test('created from the form without a namespace, listed, opened and deleted', async () => {
    const page = await h.open('/operators/fw/fleetwarden.v1.0.0/create/fleetwarden.example.com/v1/fleets');
    await page.getByRole('heading', { level: 1, name: 'Create Fleet' }).waitFor();
    await page.getByText('cluster-scoped', { exact: false }).first().waitFor();
    assert.equal(await page.getByLabel('Namespace').count(), 0, 'no namespace to choose');
    await page.getByLabel('Name').fill('east');
    await h.shot(page, 'form');
    await page.getByRole('button', { name: 'Create Fleet' }).click();
    await page.getByRole('heading', { level: 1, name: 'east' }).waitFor();
    assert.match(page.url(), /\/instances\/fleetwarden\.example\.com\/v1\/fleets\/_cluster\/east$/);
    await page.getByText('Fleet, fleetwarden.example.com/v1, cluster-scoped').waitFor();
    const stored = await h.kube.get<{ metadata: { namespace?: string } }>(FLEET, 'east');
    assert.equal(stored.metadata.namespace, undefined);
    await h.shot(page, 'instance');

    await page.getByRole('link', { name: 'Instances' }).click();
    const table = page.getByRole('table', { name: 'Fleet instances' });
    await table.waitFor();
    assert.deepEqual(await table.getByRole('columnheader').allTextContents(), ['Name', 'Status', 'Age']);
    await page
      .getByRole('region', { name: 'Fleet instances' })
      .getByText(/cluster-scoped/)
      .first()
      .waitFor();
    await h.shot(page, 'tab');

    await table.getByRole('link', { name: 'east' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete east?' }).getByRole('button', { name: 'Delete Fleet' }).click();
    await page.getByRole('status').filter({ hasText: 'east is deleted' }).waitFor({ timeout: 10_000 });
    assert.deepEqual((await h.kube.list(FLEET)).items, []);
    await page.close();
  });
});
