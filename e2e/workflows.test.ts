// Installs and changes the first wave's browser tests left out, in Debian's Chromium against a
// production build and a sandbox with the demo catalog: an AllNamespaces operator in a global
// namespace of the person's own, a MultiNamespace install, the approval strategy changed on the
// Subscription tab, the Events tab, a deprecated bundle marked on the graph, and an install exported
// for GitOps. What the browser did is checked in the cluster with the Kubernetes API.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CSV_TYPE, type ClusterServiceVersion } from '../lib/olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../lib/olm/resources/operator-group';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { ensureNamespace, subscribe, waitFor } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

describe('Install modes, approval, events and deprecated bundles in the browser', () => {
  const h = useHarness({
    suite: 'workflows',
    seed: async (kube) => {
      for (const ns of ['team1', 'team2', 'team3']) await ensureNamespace(kube, ns);
    },
  });

  const installed = (ns: string, name: string) =>
    waitFor(
      `${ns}/${name} installed`,
      async () => (await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, name, ns)).status?.installedCSV,
      30_000,
    );

  test("AllNamespaces into a global namespace of one's own: the wizard makes its OperatorGroup, and the operator is copied everywhere", async () => {
    const page = await h.open('/operatorhub/olm/olm-console-demo/gatewise/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /All namespaces/ }).isChecked(), true);
    await page.getByLabel('Installed namespace').fill('platform-operators');
    await page.getByText('platform-operators does not exist yet: the install creates it').waitFor();
    const objects = page.getByRole('list', { name: 'Objects' });
    await objects.getByText('Subscription platform-operators/gatewise').waitFor();
    await objects.getByText(/^OperatorGroup platform-operators\//).waitFor();
    await h.shot(page, 'custom-global-namespace-plan');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/platform-operators\/gatewise$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: gatewise\.v/ })
      .waitFor({ timeout: 30_000 });
    const groups = (await h.kube.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'platform-operators' })).items;
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.spec?.targetNamespaces, undefined, 'no target namespaces: all of them');
    assert.equal(groups[0]!.spec?.selector, undefined);
    const csv = await installed('platform-operators', 'gatewise');
    await waitFor('a copy in team3', async () =>
      (await h.kube.get<ClusterServiceVersion>(CSV_TYPE, csv, 'team3')).metadata?.labels?.['olm.copiedFrom'] ===
      'platform-operators'
        ? true
        : undefined,
    );
    await page.close();
  });

  test('MultiNamespace: the operator runs in one namespace and watches the two picked', async () => {
    const page = await h.open('/operatorhub/olm/olm-console-demo/backstop/install?channel=v2');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByRole('radio', { name: /Several namespaces/ }).check();
    await page.getByLabel('Installed namespace').fill('backup-ops');
    const watched = page.getByRole('group', { name: 'Watched namespaces' });
    await watched.getByText('Pick at least two.').waitFor();
    await watched.getByLabel('team1', { exact: true }).check();
    await watched.getByLabel('team2', { exact: true }).check();
    await watched.getByText('Chosen: team1, team2').waitFor();
    await h.shot(page, 'multinamespace-plan');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/backup-ops\/backstop$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: backstop\.v2/ })
      .waitFor({ timeout: 30_000 });
    const groups = (await h.kube.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'backup-ops' })).items;
    assert.deepEqual([...(groups[0]!.spec?.targetNamespaces ?? [])].sort(), ['team1', 'team2']);
    const csv = await installed('backup-ops', 'backstop');
    // OLM copies the CSV into each target namespace, and only there.
    await waitFor('copies in team1 and team2', async () => {
      const copies = (
        await h.kube.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: 'olm.copiedFrom=backup-ops' })
      ).items.filter((c) => c.metadata?.name === csv);
      return copies
        .map((c) => c.metadata?.namespace)
        .sort()
        .join() === 'team1,team2'
        ? true
        : undefined;
    });
    await page.close();
  });

  test('the Subscription tab changes the approval strategy to Manual, and the cluster has it', async () => {
    const csv = await installed('backup-ops', 'backstop');
    const page = await h.open(`/operators/backup-ops/${csv}?tab=subscription`);
    const form = page.getByRole('form', { name: 'Change the update approval' });
    await form.waitFor();
    assert.equal(await form.getByRole('radio', { name: 'Automatic' }).isChecked(), true);
    assert.equal(
      await form.getByRole('button', { name: 'Change approval' }).isDisabled(),
      true,
      'nothing to change yet',
    );
    await form.getByRole('radio', { name: 'Manual' }).check();
    await form.getByRole('button', { name: 'Change approval' }).click();
    await waitFor('Manual in the cluster', async () =>
      (await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'backstop', 'backup-ops')).spec.installPlanApproval ===
      'Manual'
        ? true
        : undefined,
    );
    await page.reload();
    await page.getByRole('form', { name: 'Change the update approval' }).waitFor();
    assert.equal(
      await page
        .getByRole('form', { name: 'Change the update approval' })
        .getByRole('radio', { name: 'Manual' })
        .isChecked(),
      true,
      'the page reads it back',
    );
    await h.shot(page, 'approval-manual');
    await page.close();
  });

  test("the Events tab lists OLM's events about the operator", async () => {
    const csv = await installed('platform-operators', 'gatewise');
    const page = await h.open(`/operators/platform-operators/${csv}?tab=events`);
    const table = page.getByRole('table', { name: 'Events' });
    await table.waitFor();
    const succeeded = table.getByRole('row').filter({ hasText: 'InstallSucceeded' });
    await succeeded.first().waitFor();
    assert.match(
      (await succeeded.first().textContent()) ?? '',
      new RegExp(`Normal\\s*InstallSucceeded.*${csv.replaceAll('.', '\\.')}`),
    );
    // OLM records the CSV's earlier phases too; newest first, even within one second.
    for (const reason of ['RequirementsUnknown', 'InstallWaiting'])
      assert.ok(await table.getByRole('cell', { name: reason, exact: true }).count(), `${reason} is listed`);
    const rows = table.getByRole('row');
    assert.match(
      (await rows.nth(1).textContent()) ?? '',
      /InstallSucceeded.*install strategy completed with no errors/,
      'the last event first',
    );
    assert.match(
      (await rows.last().textContent()) ?? '',
      /RequirementsUnknown.*requirements not yet checked/,
      'the first event last',
    );
    await h.shot(page, 'events');
    await page.close();
  });

  test("a deprecated bundle is marked on the graph, with the catalog's words", async () => {
    const page = await h.open('/operatorhub/olm/olm-console-demo/flagpole/graph?channel=stable');
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    await page.getByRole('list', { name: 'Legend' }).getByText('deprecated').waitFor();
    await page.getByText('The same graph as a list').click();
    const row = page
      .getByRole('table', { name: 'Versions of stable' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: '1.0.0', exact: true }) });
    assert.match((await row.textContent()) ?? '', /deprecated: Flagpole 1\.0\.0 leaks flag evaluations in its logs/);
    const head = page
      .getByRole('table', { name: 'Versions of stable' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: '1.0.1', exact: true }) });
    assert.doesNotMatch((await head.textContent()) ?? '', /deprecated/, 'the fixed version is not');
    await row.getByRole('button', { name: '1.0.0', exact: true }).click();
    const aside = page.getByRole('complementary', { name: 'Selected version' });
    await aside.getByText(/^Deprecated: Flagpole 1\.0\.0 leaks/).waitFor();
    await h.shot(page, 'deprecated-bundle-graph');
    await page.close();
  });

  test("Export for GitOps: the MultiNamespace install as a kustomize tree, the Subscription in the application's folder", async () => {
    const csv = await installed('backup-ops', 'backstop');
    const page = await h.open(`/operators/backup-ops/${csv}?tab=yaml`);
    const section = page.getByRole('region', { name: 'Export for GitOps' });
    await section.getByLabel('Application folder').fill('backups');
    await section.getByRole('button', { name: 'Show the files' }).click();
    const files = section.getByRole('list', { name: 'Exported files' });
    await files.waitFor();
    const paths = await files
      .getByRole('listitem')
      .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
    assert.deepEqual(paths, [
      'kustomization.yaml',
      'cluster-scope/kustomization.yaml',
      'cluster-scope/namespaces/backup-ops.yaml',
      `cluster-scope/operatorgroups/backup-ops/${(await h.kube.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'backup-ops' })).items[0]!.metadata!.name}.yaml`,
      'backups/kustomization.yaml',
      'backups/subscriptions/backstop.yaml',
    ]);
    const sub =
      (await files
        .getByRole('listitem', { name: 'backups/subscriptions/backstop.yaml' })
        .locator('pre')
        .textContent()) ?? '';
    assert.match(sub, /installPlanApproval: Manual/, 'the approval changed in the test before');
    assert.doesNotMatch(sub, /resourceVersion|uid:|status:/);
    assert.match(
      (await section.getByRole('link', { name: 'Download the tree (.tar)' }).getAttribute('href')) ?? '',
      /application=backups&format=tar$/,
    );
    await h.shot(page, 'gitops-export');
    await page.close();
  });

  test('Export for GitOps from the install wizard: the plan as a tree, downloaded as a tar, nothing installed', async () => {
    const page = await h.open('/operatorhub/olm/olm-console-demo/quillmq/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByLabel('Installed namespace').fill('queues');
    await page.getByRole('list', { name: 'Objects' }).getByText('Subscription queues/quillmq').waitFor();
    await page.getByText('Export for GitOps instead').click();
    await page.getByLabel('Application folder').fill('messaging');
    const files = page.getByRole('list', { name: 'Exported files' });
    await files.getByRole('listitem', { name: 'messaging/subscriptions/quillmq.yaml' }).waitFor();
    assert.ok(await files.getByRole('listitem', { name: 'cluster-scope/namespaces/queues.yaml' }).isVisible());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the tree (.tar)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'messaging-quillmq-gitops.tar');
    const path = join(mkdtempSync(join(tmpdir(), 'wizard-export-')), 'tree.tar');
    await download.saveAs(path);
    const listed = spawnSync('tar', ['-tf', path], { encoding: 'utf8' }).stdout.trim().split('\n');
    assert.ok(
      listed.includes('messaging/subscriptions/quillmq.yaml') && listed.includes('kustomization.yaml'),
      listed.join(', '),
    );
    await h.shot(page, 'wizard-gitops-export');
    await page.close();
    await assert.rejects(h.kube.get(SUBSCRIPTION_TYPE, 'quillmq', 'queues'), /not found/, 'exporting installs nothing');
  });

  test("a Manual plan shared by two operators names each one's part before anyone approves it", async () => {
    await subscribe(h.kube, { namespace: 'shared', package: 'pgpilot', channel: 'stable', approval: 'Manual' });
    await subscribe(h.kube, { namespace: 'shared', package: 'cachely', channel: 'alpha', approval: 'Manual' });
    await h.kube.create(
      OPERATOR_GROUP_TYPE,
      { metadata: { name: 'shared-og', namespace: 'shared' }, spec: { targetNamespaces: ['shared'] } },
      { namespace: 'shared' },
    );
    const plan = await waitFor('one plan for both', async () => {
      const [a, b] = await Promise.all([
        h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'shared'),
        h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'shared'),
      ]);
      const n = a.status?.installPlanRef?.name;
      return n && n === b.status?.installPlanRef?.name ? n : undefined;
    });
    const page = await h.open(`/installplans/shared/${plan}`);
    const parts = page.getByRole('region', { name: 'Operators in this plan' });
    await parts.getByText("2 operators' changes in one plan").waitFor();
    assert.match((await parts.textContent()) ?? '', /approving this plan approves all of these/);
    assert.match((await parts.textContent()) ?? '', /pgpilot\.v[\d.]+ installs for Subscription pgpilot/);
    assert.match((await parts.textContent()) ?? '', /cachely\.v[\d.]+ installs for Subscription cachely/);
    await h.shot(page, 'shared-plan');

    // The way out the page offers: move one of them to a namespace of its own, planned first.
    await parts.getByRole('button', { name: 'Move cachely to its own namespace…' }).click();
    const move = page.getByRole('region', { name: 'Move cachely to its own namespace' });
    await move.getByLabel('New namespace').fill('cachely-own');
    const steps = move.getByRole('list', { name: 'Move steps' });
    await steps.getByText('Create Namespace cachely-own').waitFor();
    await steps.getByText('Delete Subscription shared/cachely').waitFor();
    await steps.getByText(/Create Subscription cachely-own\/cachely \(channel alpha, Manual approval/).waitFor();
    await move.getByText(/shared's InstallPlans then carry only pgpilot/).waitFor();
    await h.shot(page, 'move-plan');
    await move.getByRole('button', { name: 'Move to cachely-own' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved: cachely is now subscribed in cachely-own.' }).waitFor();
    await assert.rejects(h.kube.get(SUBSCRIPTION_TYPE, 'cachely', 'shared'), /not found/);
    const moved = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'cachely-own');
    assert.deepEqual([moved.spec.channel, moved.spec.installPlanApproval], ['alpha', 'Manual']);
    // OLM plans each namespace on its own now: pgpilot's plan carries pgpilot alone.
    await waitFor('a plan for pgpilot alone', async () => {
      const sub = await h.kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'shared');
      const name = sub.status?.installPlanRef?.name;
      if (!name) return undefined;
      const p = await h.kube.get<InstallPlan>(INSTALL_PLAN_TYPE, name, 'shared');
      return p.spec.clusterServiceVersionNames.every((n) => n.startsWith('pgpilot.')) ? true : undefined;
    });
    // The move deleted the plan this page shows; its outcome stays, and the plan's absence is explained.
    await page.getByText(/InstallPlan install-\S+ is gone: the move deleted it/).waitFor();
    assert.ok(await page.getByText('Moved: cachely is now subscribed in cachely-own.').isVisible());
    await h.shot(page, 'moved');
    await page.close();
  });
});
