// Catalogs managed in Debian's Chromium, against a production build and a sandbox that can "pull"
// one index image (--catalog-image): an admin adds a catalog by image (validation as they type,
// the plan, then the CatalogSource), sees its packages in OperatorHub, changes its priority and
// polling, and deletes it after the plan names the Subscription that installs from it; a viewer
// sees the controls disabled with the cluster's reason; a catalog of the global namespace is
// disabled and enabled again where OLM has no switch. Checked with the Kubernetes API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isKubeError } from '../lib/k8s/errors';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../lib/olm/resources/catalog-source';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { subscribe, waitFor } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const IMAGE = 'quay.example.com/acme/catalog:latest';

describe('Catalog sources: add by image, edit, delete', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-console-catalogs-e2e-'));
  writeFixtureCatalog(join(root, 'acme'), [
    { name: 'anvil', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
  ]);
  const h = useHarness({ suite: 'catalog-sources', sandbox: { catalogImages: { [IMAGE]: join(root, 'acme') } } });
  after(() => rmSync(root, { recursive: true, force: true }));

  const acme = () => h.kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'acme', 'olm');

  test('an admin adds a catalog by its image: mistakes are said as they type, the plan shows the CatalogSource, its packages appear', async () => {
    const page = await h.open('/catalogsources');
    await page.getByRole('button', { name: 'Add catalog source' }).click();
    const editor = page.getByRole('region', { name: 'Add a catalog source' });
    await editor.getByLabel('Name', { exact: true }).fill('1acme');
    await editor.getByText(/starting with a letter \(OLM names its Service after it\)/).waitFor();
    await editor.getByLabel('Name', { exact: true }).fill('acme');
    await editor.getByLabel('Index image').fill('https://quay.example.com/acme');
    await editor.getByText(/is not an image reference/).waitFor();
    assert.equal(await editor.getByRole('button', { name: 'Review' }).isDisabled(), true);
    await editor.getByLabel('Index image').fill(IMAGE);
    await editor.getByLabel('Display name').fill('Acme Operators');
    await editor.getByLabel('Publisher').fill('Acme Corp');
    await editor.getByLabel('Priority').fill('5');
    await editor.getByLabel('Polling interval').fill('10 minutes');
    await editor.getByText(/OLM reads it as a Go duration/).waitFor();
    await editor.getByLabel('Polling interval').fill('2s');
    await editor.getByRole('button', { name: 'Review' }).click();
    const yaml = editor.getByLabel('CatalogSource to create', { exact: true });
    await yaml.waitFor();
    assert.match(
      (await yaml.textContent()) ?? '',
      new RegExp(`image: ${IMAGE.replaceAll('.', '\\.')}[\\s\\S]*interval: 2s`),
    );
    await editor.getByText(/Subscriptions in every namespace can install from it/).waitFor();
    await h.shot(page, 'add-plan');
    await editor.getByRole('button', { name: 'Create catalog source' }).click();
    await page.getByRole('status').filter({ hasText: 'Created catalog source olm/acme' }).waitFor();
    const row = page.getByRole('listitem', { name: 'Catalog source olm/acme' });
    await row.getByText('READY').waitFor({ timeout: 15_000 });
    await row.getByText('Show its package', { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByText('Last image poll').waitFor({ timeout: 15_000 });
    await h.shot(page, 'added');
    const cs = await acme();
    assert.deepEqual(
      [
        cs.spec.image,
        cs.spec.displayName,
        cs.spec.publisher,
        cs.spec.priority,
        cs.spec.updateStrategy?.registryPoll?.interval,
      ],
      [IMAGE, 'Acme Operators', 'Acme Corp', 5, '2s'],
    );
    await page.goto(`${h.admin.url}/operatorhub?keyword=anvil`);
    await page
      .getByRole('list', { name: 'Operators' })
      .getByRole('listitem')
      .filter({ hasText: 'anvil' })
      .first()
      .waitFor({ timeout: 15_000 });
    await page.close();
  });

  test('editing shows the fields that change, and keeps what the form does not show', async () => {
    await h.kube.patch(
      CATALOG_SOURCE_TYPE,
      'acme',
      { spec: { secrets: ['pull-secret'] } },
      { namespace: 'olm', type: 'merge' },
    );
    const page = await h.open('/catalogsources');
    const row = page.getByRole('listitem', { name: 'Catalog source olm/acme' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const editor = row.getByRole('region', { name: 'Edit catalog source olm/acme' });
    assert.equal(await editor.getByLabel('Index image').inputValue(), IMAGE);
    await editor.getByLabel('Priority').fill('50');
    await editor.getByLabel('Polling interval').fill('');
    await editor.getByRole('button', { name: 'Review' }).click();
    const changes = editor.getByRole('table', { name: 'Changes' });
    await changes.waitFor();
    assert.match((await changes.textContent()) ?? '', /spec\.priority\s*5\s*50/);
    assert.match((await changes.textContent()) ?? '', /spec\.updateStrategy.*\(removed\)/);
    await h.shot(page, 'edit-plan');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved catalog source olm/acme' }).waitFor();
    const cs = await acme();
    assert.equal(cs.spec.priority, 50);
    assert.equal(cs.spec.updateStrategy, undefined);
    assert.deepEqual(cs.spec.secrets, ['pull-secret']);
    await page.close();
  });

  test('a viewer sees Add, Edit and Delete disabled with the right they lack', async () => {
    const page = await h.openAs('bob', '/catalogsources');
    await page.getByRole('listitem', { name: 'Catalog source olm/acme' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add catalog source' }).isDisabled(), true);
    await page.getByText(/You may not add catalogs: .*create\b.*\bcatalogsources/).waitFor();
    const row = page.getByRole('listitem', { name: 'Catalog source olm/acme' });
    assert.equal(await row.getByRole('button', { name: 'Delete' }).isDisabled(), true);
    await row.getByText(/Delete is not offered: .*delete\b.*\bcatalogsources/).waitFor();
    // Upstream has no OperatorHub config: the page says so rather than offering a switch.
    await page
      .getByRole('region', { name: 'Default sources' })
      .getByText(/upstream OLM, which has no switch to disable a catalog/)
      .waitFor();
    assert.equal(await page.getByRole('switch').count(), 0);
    await h.shot(page, 'viewer');
    await page.close();
  });

  test('deleting names the Subscription that installs from it; then the catalog is gone', async () => {
    await subscribe(h.kube, {
      namespace: 'anvil-ops',
      package: 'anvil',
      channel: 'stable',
      source: 'acme',
      targets: ['anvil-ops'],
    });
    const page = await h.open('/catalogsources');
    const row = page.getByRole('listitem', { name: 'Catalog source olm/acme' });
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = row.getByRole('region', { name: 'Delete catalog source olm/acme' });
    await confirm.getByRole('list', { name: 'Subscriptions from this catalog' }).getByText('anvil-ops/anvil').waitFor();
    await confirm.getByText(/keep running, but OLM can no longer upgrade them/).waitFor();
    await h.shot(page, 'delete-plan');
    await confirm.getByRole('button', { name: 'Delete catalog source' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted catalog source olm/acme' }).waitFor();
    await waitFor('acme gone', async () => {
      try {
        await acme();
        return undefined;
      } catch (err) {
        return isKubeError(err, 404) ? true : undefined;
      }
    });
    await page.getByRole('listitem', { name: 'Catalog source olm/acme' }).waitFor({ state: 'detached' });
    await page.close();
  });

  test('upstream, a catalog of the global namespace is disabled (kept to enable again) and enabled as it was', async () => {
    const demo = 'olm-console-demo';
    const spec = (await h.kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, demo, 'olm')).spec;
    const page = await h.open('/catalogsources');
    const row = page.getByRole('listitem', { name: `Catalog source olm/${demo}` });
    await row.getByRole('button', { name: 'Disable' }).click();
    const confirm = row.getByRole('region', { name: `Disable catalog source olm/${demo}` });
    await confirm
      .getByText(
        /keeps its definition in ConfigMap olm\/olm-console-disabled-catalogs, so that Enable makes it again as it is/,
      )
      .waitFor();
    await h.shot(page, 'disable-plan');
    await confirm.getByRole('button', { name: 'Disable catalog source' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Disabled catalog source olm/${demo}` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    const disabled = page.getByRole('listitem', { name: `Disabled catalog olm/${demo}` });
    await disabled.getByText(/disabled .* by admin/).waitFor();
    await h.shot(page, 'disabled');
    await disabled.getByRole('button', { name: `Enable ${demo}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Enabled catalog source olm/${demo}.` })
      .waitFor();
    await row.waitFor();
    assert.deepEqual((await h.kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, demo, 'olm')).spec, spec);
    await page.close();
  });
});
