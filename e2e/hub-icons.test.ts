// OperatorHub over a real catalog whose packages do not all have icons (certified-operators:
// kurrentdb-operator and strategy-operator have none): the page asks only for icons that exist,
// so the browser logs no 404 (issue 19, item 14), and the site icon is there.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useHarness } from './support/harness';
import { needsSharedCatalogs, sharedCatalog } from '../lib/testing/shared-catalogs';

const CERTIFIED = sharedCatalog('certified-operators-v4.18');

describe('OperatorHub icons', needsSharedCatalogs, () => {
  const h = useHarness({ suite: 'hub-icons', sandbox: { catalogs: [CERTIFIED] } });

  test('tiles of packages without an icon show their letter and ask for nothing; no request fails', async () => {
    // Listened to from the first request: the first page is the one with an icon-less tile.
    const page = await h.newPage();
    const failed: string[] = [];
    const icons: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      if (r.url().includes('/icon')) icons.push(r.url());
    });
    try {
      await page.goto(`${h.admin.url}/operatorhub?q=kurrentdb`);
      await page.getByRole('heading', { name: 'KurrentDB Operator' }).waitFor();
      await page.goto(`${h.admin.url}/operatorhub?q=cloud-native-postgresql`);
      await page.getByText('EDB', { exact: false }).first().waitFor();
      await page.waitForTimeout(1500);
      assert.ok(
        icons.some((u) => u.includes('/cloud-native-postgresql/icon')),
        'an icon that exists is asked for',
      );
      assert.ok(!icons.some((u) => u.includes('/kurrentdb-operator/icon')), 'an icon known to be absent is not');
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });
});
