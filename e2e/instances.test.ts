// Operands in Debian's Chromium, against a production build and a sandbox with the demo catalog:
// PgPilot's PostgresClusters listed on the Instances tab with their state, one opened with its spec
// and status read through the CSV's descriptors, one deleted and followed while a finalizer holds
// it, and a viewer who may not delete told why. The operator's status writes are made here through
// the status subresource, as PgPilot would make them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { subscribe, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};
type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string }; spec?: unknown };

describe("Instances of an operator's APIs", () => {
  const h = useHarness({
    suite: 'instances',
    seed: async (kube) => {
      await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
      await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
      const main = await kube.create<Obj>(
        PG,
        {
          apiVersion: 'pgpilot.example.com/v1',
          kind: 'PostgresCluster',
          metadata: { name: 'main', namespace: 'pg' },
          spec: { instances: 3, version: '16' },
        },
        { namespace: 'pg' },
      );
      await kube.replace(
        PG,
        {
          ...main,
          status: {
            phase: 'Running',
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'AllReplicasReady',
                message: '3 of 3 ready',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
            connectionSecret: 'main-app',
            dashboard: 'https://grafana.example.com/d/pg',
            pods: { ready: ['main-0', 'main-1', 'main-2'] },
          },
        },
        'status',
      );
      await kube.create(
        PG,
        {
          apiVersion: 'pgpilot.example.com/v1',
          kind: 'PostgresCluster',
          metadata: { name: 'held', namespace: 'pg', finalizers: ['pgpilot.example.com/backup'] },
          spec: { instances: 1 },
        },
        { namespace: 'pg' },
      );
    },
  });

  test("the Instances tab lists each API's instances with their state", async () => {
    const page = await h.open('/operators/pg/pgpilot.v1.4.0?tab=instances');
    const table = page.getByRole('table', { name: 'PostgresCluster instances' });
    await table.waitFor();
    assert.match((await table.getByRole('row').filter({ hasText: 'main' }).textContent()) ?? '', /main\s*pg\s*Ready/);
    assert.match((await table.getByRole('row').filter({ hasText: 'held' }).textContent()) ?? '', /held\s*pg\s*Unknown/);
    await page
      .getByRole('region', { name: 'PostgresBackup instances' })
      .getByText(/^No PostgresBackup yet\. Each PostgresBackup in the namespaces the operator watches appears here/)
      .waitFor();
    await h.shot(page, 'tab');
    await page.close();
  });

  test("an instance's page: spec and status as the descriptors label them, conditions, a safe link", async () => {
    const page = await h.open('/operators/pg/pgpilot.v1.4.0?tab=instances');
    await page.getByRole('link', { name: 'main', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'main' }).waitFor();
    const spec = page.getByRole('region', { name: 'Spec' });
    assert.match((await spec.textContent()) ?? '', /Instances\s*3\s*PostgreSQL version\s*16\s*Backups\s*not set/);
    const status = page.getByRole('region', { name: 'Status' });
    assert.match((await status.textContent()) ?? '', /Connection secret\s*Secret main-app/);
    assert.equal(
      await status.getByRole('link', { name: 'https://grafana.example.com/d/pg' }).getAttribute('rel'),
      'noopener noreferrer nofollow',
    );
    assert.match((await status.textContent()) ?? '', /ready \(3\): main-0, main-1, main-2/);
    await page.getByRole('table', { name: 'Instance conditions' }).getByText('AllReplicasReady').waitFor();
    await h.shot(page, 'instance');
    await page.close();
  });

  test('deleting shows the finalizer holding it, then that it is gone; a viewer may not delete', async () => {
    const viewer = await h.openAs(
      'bob',
      '/operators/pg/pgpilot.v1.4.0/instances/pgpilot.example.com/v1/postgresclusters/pg/held',
    );
    await viewer.getByRole('heading', { level: 1, name: 'held' }).waitFor();
    assert.equal(await viewer.getByRole('button', { name: 'Delete' }).isDisabled(), true);
    await viewer.getByText(/You may not delete it: you may not delete postgresclusters/).waitFor();
    await viewer.close();

    const page = await h.open('/operators/pg/pgpilot.v1.4.0/instances/pgpilot.example.com/v1/postgresclusters/pg/held');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete held?' });
    await dialog.getByText(/its finalizers \(pgpilot\.example\.com\/backup\) keep it/).waitFor();
    await dialog.getByRole('button', { name: 'Delete PostgresCluster' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /waiting for the finalizers pgpilot\.example\.com\/backup/ })
      .waitFor();
    await h.shot(page, 'deleting');
    // PgPilot finishes its clean-up and lets go.
    await h.kube.patch(PG, 'held', { metadata: { finalizers: null } }, { namespace: 'pg', type: 'merge' });
    await page.getByRole('status').filter({ hasText: 'held is deleted' }).waitFor({ timeout: 10_000 });
    await page.close();
  });
});
