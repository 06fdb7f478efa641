// The console's main journeys in Debian's Chromium against the real cluster (`npm run cluster`:
// kube-apiserver, etcd, kwok and OLM v0.38.0 itself) serving the demo catalog, as the sandbox's
// browser tests do them: install at an older version under Manual approval, approve, approve the
// upgrade, uninstall; an AllNamespaces operator's Copied CSVs in another namespace, turned off and
// on in the cluster settings; an upgrade up to a chosen version, approved by the console's
// approver; pod configuration on the Subscription tab; an install with a service account whose
// rights the wizard grants. Every step the browser takes is checked in the cluster with the
// Kubernetes API. Skipped when cluster/build.sh has not built the programs.
// Real OLM works on its own schedule (resync, backoff), so every wait polls for a long time and
// nothing asserts how long anything took. E2E_SCREENSHOTS=DIR keeps a screenshot of each step.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { isKubeError } from '../lib/k8s/errors';
import type { ResourceType } from '../lib/olm/resources/common';
import { CSV_TYPE, isCopiedCsv, type ClusterServiceVersion } from '../lib/olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs, subscribe } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { reportRealClusterFailure } from './support/real-cluster-report';
import { startConsole, type RunningConsole } from './support/console-server';
import { loggedInPage } from './support/login';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const DEMO = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const CATALOG = catalogSourceName(DEMO);
const NS = 'pgpilot-system';
// Long enough for OLM's resolution, a plan's steps, a Deployment on the kwok node and the CSV's
// phases, even on a busy two-core machine.
const OLM_WAIT = 180_000;
const DEPLOYMENTS: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  namespaced: true,
  kind: 'Deployment',
};
const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};

const skip = clusterProgramsMissing();

/** Polls `probe` every half second until it gives a value. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = OLM_WAIT): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

if (skip) test('the console against the real cluster', (t) => t.skip(skip));
else
  describe('the console against the real cluster', () => {
    let cluster: RealCluster;
    let admin: RunningConsole;
    let perUser: RunningConsole;
    let browser: Browser;
    let kube: KubeClient;

    before(async () => {
      cluster = await startRealCluster([DEMO]);
      kube = clientAs(cluster, 'admin');
      // The upgrade approver acts as the console's own identity (only on Subscriptions given a target).
      admin = await startConsole({
        OLM_CONSOLE_KUBECONFIG: cluster.kubeconfigPath,
        OLM_CONSOLE_UPGRADE_APPROVER: 'console',
      });
      perUser = await startConsole({ OLM_CONSOLE_KUBECONFIG: cluster.kubeconfigPath, OLM_CONSOLE_AUTH: 'token' });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await admin?.stop();
      await perUser?.stop();
      await cluster?.stop();
    });

    const open = async (path: string, server = admin): Promise<Page> => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(`${server.url}${path}`);
      return page;
    };
    // A failed step reports what OLM was doing (report module), since a timeout alone does not say.
    const journey = (name: string, fn: () => Promise<void>) =>
      test(name, async () => {
        try {
          await fn();
        } catch (err) {
          const state = await reportRealClusterFailure(name, cluster, kube, browser);
          throw new Error(`${(err as Error).message}\n${state}`, { cause: err });
        }
      });
    const shot = async (page: Page, name: string) => {
      const dir = process.env.E2E_SCREENSHOTS;
      if (!dir) return;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
    };
    const rows = (page: Page) => page.getByRole('table', { name: 'Installed operators' }).getByRole('row');
    const get = async <T extends object>(t: ResourceType, name: string, ns?: string): Promise<T | undefined> => {
      try {
        return await kube.get<T>(t, name, ns);
      } catch (err) {
        if (isKubeError(err, 404)) return undefined;
        throw err;
      }
    };
    const gone = (t: ResourceType, name: string, ns?: string) =>
      eventually(`${t.kind} ${ns ? `${ns}/` : ''}${name} to be gone`, async () =>
        (await get(t, name, ns)) ? undefined : true,
      );
    const csvSucceeded = (ns: string, name: string) =>
      eventually(`${ns}/${name} Succeeded`, async () => {
        const csv = await get<ClusterServiceVersion>(CSV_TYPE, name, ns);
        return csv?.status?.phase === 'Succeeded' ? csv : undefined;
      });
    const sub = (ns: string, name: string) => kube.get<Subscription>(SUBSCRIPTION_TYPE, name, ns);

    journey('OperatorHub: install PgPilot 1.2.0 with Manual approval, approve its InstallPlan, it runs', async () => {
      const page = await open('/operatorhub');
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      await page.getByLabel('Filter by keyword').fill('postgres');
      await page.getByRole('link', { name: /^PgPilot by Harbor Lane Data/ }).click();
      await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
      assert.equal(await page.getByLabel('Channel', { exact: true }).inputValue(), 'stable');
      await page.getByLabel('Version', { exact: true }).selectOption('pgpilot.v1.2.0');
      await page.getByText('1.2.0 provided by Harbor Lane Data').waitFor();
      await page.getByRole('link', { name: 'Install', exact: true }).click();
      await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
      await page.getByRole('radio', { name: /Own namespace/ }).check();
      assert.equal(
        await page.getByLabel('Installed namespace').inputValue(),
        NS,
        'the namespace the operator suggests',
      );
      assert.equal(
        await page.getByRole('radio', { name: /^Manual/ }).isChecked(),
        true,
        'a non-head version is Manual',
      );
      assert.equal(await page.getByRole('radio', { name: /^Automatic/ }).isDisabled(), true);
      await page.getByRole('list', { name: 'Objects' }).getByText(`Subscription ${NS}/pgpilot`).waitFor();
      await shot(page, '1-install-wizard');
      await page.getByRole('button', { name: 'Install', exact: true }).click();
      await page.waitForURL(new RegExp(`/installs/${NS}/pgpilot$`));

      // Real OLM resolves the Subscription and stops at the plan, waiting for a person.
      await page.getByRole('heading', { name: /^Approve InstallPlan / }).waitFor({ timeout: OLM_WAIT });
      const s = await sub(NS, 'pgpilot');
      assert.deepEqual(
        [
          s.spec.name,
          s.spec.source,
          s.spec.sourceNamespace,
          s.spec.channel,
          s.spec.installPlanApproval,
          s.spec.startingCSV,
        ],
        ['pgpilot', CATALOG, 'olm', 'stable', 'Manual', 'pgpilot.v1.2.0'],
      );
      const groups = (await kube.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: NS })).items;
      assert.deepEqual(
        groups.map((g) => g.spec?.targetNamespaces),
        [[NS]],
        'one OperatorGroup, watching its own namespace',
      );
      const planName = s.status!.installPlanRef!.name!;
      const plan = await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, NS);
      assert.deepEqual(
        [plan.status?.phase, plan.spec.approved, plan.spec.clusterServiceVersionNames],
        ['RequiresApproval', false, ['pgpilot.v1.2.0']],
      );
      assert.ok(await page.getByRole('heading', { name: `Approve InstallPlan ${planName}` }).isVisible());
      assert.match(
        (await page.getByText(/^It installs /).textContent()) ?? '',
        /It installs pgpilot\.v1\.2\.0 with these resources/,
      );
      await shot(page, '2-approve-first-plan');

      await page.getByRole('button', { name: 'Approve' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Installed: pgpilot\.v1\.2\.0 is ready/ })
        .waitFor({ timeout: OLM_WAIT });
      assert.equal(
        (await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, NS)).spec.approved,
        true,
        'the browser approved the plan in the cluster',
      );
      await csvSucceeded(NS, 'pgpilot.v1.2.0');
      // Real OLM may report the CSV Succeeded while the plan is still Installing, and the
      // Subscription's installedCSV comes later still: both settle on their own.
      await eventually('the plan Complete', async () =>
        (await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, NS)).status?.phase === 'Complete' ? true : undefined,
      );
      await eventually('1.2.0 installed', async () =>
        (await sub(NS, 'pgpilot')).status?.installedCSV === 'pgpilot.v1.2.0' ? true : undefined,
      );
      // The page keeps following until the Subscription's conditions catch up, so they do not stay at "Installing".
      await page
        .getByRole('row')
        .filter({ hasText: 'InstallPlanPending' })
        .filter({ hasText: 'Installing' })
        .waitFor({ state: 'hidden', timeout: OLM_WAIT });
      await shot(page, '3-installed');
      // kwok runs the operator's pod, so its Deployment is really available.
      await eventually('the operator Deployment to be available', async () => {
        const d = await get<{ status?: { availableReplicas?: number } }>(DEPLOYMENTS, 'pgpilot-controller-manager', NS);
        return (d?.status?.availableReplicas ?? 0) >= 1 ? true : undefined;
      });
      await page.close();
    });

    journey('the upgrade waits for approval; approved in the browser, the new version replaces the old', async () => {
      const page = await open(`/operators?namespace=${NS}`);
      const row = rows(page).filter({ hasText: 'PgPilot' });
      await row.getByRole('link', { name: '1 requires approval' }).click({ timeout: OLM_WAIT });
      await page.getByRole('heading', { level: 1, name: /^InstallPlan / }).waitFor();
      const planName = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('InstallPlan ', '');
      const plan = await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, NS);
      // 1.4.0's skipRange covers 1.2.0, so OLM goes straight to the head, past 1.3.0.
      assert.deepEqual(
        [plan.status?.phase, plan.spec.approved, plan.spec.clusterServiceVersionNames],
        ['RequiresApproval', false, ['pgpilot.v1.4.0']],
      );
      // Real OLM creates the plan (owned by the Subscription, so the list offers it at once) and
      // points the Subscription's installPlanRef at it in a later write.
      await eventually('the Subscription to reference the plan the page opened', async () =>
        (await sub(NS, 'pgpilot')).status?.installPlanRef?.name === planName ? true : undefined,
      );
      await page.getByText('Installs pgpilot.v1.4.0.').waitFor();
      await page.getByRole('heading', { name: /ClusterServiceVersions/ }).waitFor();
      await shot(page, '4-upgrade-plan');

      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Complete', { exact: true }).first().waitFor({ timeout: OLM_WAIT });
      assert.equal((await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, NS)).spec.approved, true);
      await csvSucceeded(NS, 'pgpilot.v1.4.0');
      await eventually('1.4.0 installed', async () =>
        (await sub(NS, 'pgpilot')).status?.installedCSV === 'pgpilot.v1.4.0' ? true : undefined,
      );
      // OLM deletes the CSV it replaced once the new one has succeeded.
      await gone(CSV_TYPE, 'pgpilot.v1.2.0', NS);

      await page.goto(`${admin.url}/operators?namespace=${NS}`);
      const upgraded = rows(page).filter({ hasText: 'PgPilot' });
      await upgraded.getByText('Up to date').waitFor({ timeout: OLM_WAIT });
      assert.match((await upgraded.textContent()) ?? '', /1\.4\.0/);
      assert.doesNotMatch((await upgraded.textContent()) ?? '', /1\.2\.0/);
      assert.equal(await rows(page).filter({ hasText: 'PgPilot' }).count(), 1);
      await shot(page, '5-upgraded');
      await page.close();
    });

    journey(
      "uninstall in the browser: Subscription, CSV, its Deployment and the console's OperatorGroup go; CRDs stay",
      async () => {
        const page = await open(`/operators/${NS}/pgpilot.v1.4.0`);
        await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
        await page.getByRole('button', { name: 'Uninstall' }).click();
        const dialog = page.getByRole('dialog', { name: /Uninstall PgPilot/ });
        await dialog.getByText('This operator has no operands').waitFor();
        await dialog.getByLabel(/Also remove OperatorGroup/).check();
        await shot(page, '6-uninstall-dialog');
        await dialog.getByRole('button', { name: 'Uninstall' }).click();
        await dialog.getByText('PgPilot is uninstalled.').waitFor({ timeout: OLM_WAIT });
        await shot(page, '7-uninstalled');

        assert.equal(await get(SUBSCRIPTION_TYPE, 'pgpilot', NS), undefined);
        await gone(CSV_TYPE, 'pgpilot.v1.4.0', NS);
        assert.deepEqual((await kube.listAll(OPERATOR_GROUP_TYPE, { namespace: NS })).items, []);
        // The Deployment is the CSV's: kube-controller-manager's garbage collector removes it.
        await gone(DEPLOYMENTS, 'pgpilot-controller-manager', NS);
        assert.ok(await get(CRDS, 'postgresclusters.pgpilot.example.com'), 'CRDs stay');

        await dialog.getByRole('button', { name: 'Done' }).click();
        await page.waitForURL(new RegExp(`/operators\\?namespace=${NS}$`));
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await eventually(
          'PgPilot to leave the list',
          async () => ((await rows(page).filter({ hasText: 'PgPilot' }).count()) === 0 ? true : undefined),
          30_000,
        );
        await page.close();
      },
    );

    journey(
      'AllNamespaces: CertWarden installed into operators from the browser, its Copied CSV shown in team1',
      async () => {
        const page = await open(`/operatorhub/olm/${CATALOG}/certwarden/install`);
        await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
        assert.equal(await page.getByRole('radio', { name: /All namespaces/ }).isChecked(), true);
        assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'operators');
        await page.getByRole('list', { name: 'Objects' }).getByText('Subscription operators/certwarden').waitFor();
        await page.getByRole('button', { name: 'Install', exact: true }).click();
        await page.waitForURL(/\/installs\/operators\/certwarden$/);
        const status = page.getByRole('status').filter({ hasText: /^Installed: certwarden\.v/ });
        await status.waitFor({ timeout: OLM_WAIT });
        const s = await sub('operators', 'certwarden');
        assert.equal(s.spec.installPlanApproval, 'Automatic');
        const csvName = await eventually(
          'certwarden installed',
          async () => (await sub('operators', 'certwarden')).status?.installedCSV,
        );
        assert.match(
          (await status.textContent()) ?? '',
          new RegExp(`^Installed: ${csvName.replace(/\./g, '\\.')} is ready`),
        );
        await csvSucceeded('operators', csvName);
        assert.equal(
          (await kube.listAll(OPERATOR_GROUP_TYPE, { namespace: 'operators' })).items.length,
          1,
          'the global OperatorGroup is reused',
        );

        const copy = await eventually('the Copied CSV in team1', async () => {
          const c = await get<ClusterServiceVersion>(CSV_TYPE, csvName, 'team1');
          return c && c.status?.reason === 'Copied' ? c : undefined;
        });
        assert.equal(isCopiedCsv(copy), true);
        assert.equal(copy.metadata?.labels?.['olm.copiedFrom'], 'operators');

        await page.goto(`${admin.url}/operators?namespace=team1`);
        const row = rows(page).filter({ hasText: 'CertWarden' });
        await row.waitFor({ timeout: OLM_WAIT });
        assert.match((await row.textContent()) ?? '', /Copied from operators/);
        assert.equal(
          await row.getByRole('button', { name: /Uninstall/ }).count(),
          0,
          'a copy is not uninstalled from here',
        );
        await shot(page, '8-copy-in-team1');
        await row.getByRole('link', { name: 'operators' }).click();
        await page.waitForURL(new RegExp(`/operators/operators/${csvName.replace(/\./g, '\\.')}`));
        await page.getByRole('heading', { level: 1, name: 'CertWarden' }).waitFor();

        // All namespaces: one row, the copies counted rather than listed.
        await page.goto(`${admin.url}/operators`);
        const all = rows(page).filter({ hasText: 'CertWarden' });
        await all.getByText(/\d+ copies in watched namespaces/).waitFor({ timeout: OLM_WAIT });
        assert.equal(await all.count(), 1);
        assert.match((await all.textContent()) ?? '', /All namespaces/);
        const counted = Number(/(\d+) copies in watched namespaces/.exec((await all.textContent()) ?? '')![1]);
        await eventually(`OLM's copies to number ${counted}`, async () => {
          const copies = (
            await kube.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: 'olm.copiedFrom=operators' })
          ).items.filter((c) => c.metadata?.name === csvName);
          return copies.length === counted ? true : undefined;
        });
        await shot(page, '9-all-namespaces');
        await page.close();
      },
    );

    journey('alice, admin of team1 only, sees the copy in team1 with her own token', async () => {
      const aliceKube = clientAs(cluster, 'alice');
      const copies = (await aliceKube.listAll<ClusterServiceVersion>(CSV_TYPE, { namespace: 'team1' })).items.filter(
        isCopiedCsv,
      );
      assert.equal(copies.length, 1, 'the cluster lets alice read the copy');
      const page = await loggedInPage(browser, perUser.url, cluster.tokens.alice!);
      await page.goto(`${perUser.url}/operators?namespace=team1`);
      const row = rows(page).filter({ hasText: 'CertWarden' });
      await row.waitFor({ timeout: 60_000 });
      assert.match((await row.textContent()) ?? '', /Copied from operators/);
      await shot(page, '10-alice-team1');
      await page.close();
    });

    journey(
      'cluster settings: copied CSVs turned off and on again in the browser, and real OLM removes and restores the copies',
      async () => {
        const copies = async () =>
          (await kube.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: 'olm.copiedFrom=operators' })).items
            .length;
        const before = await eventually('copies to exist', async () => ((await copies()) > 0 ? copies() : undefined));
        const page = await open('/settings');
        const toggle = page.getByRole('switch', { name: 'Copied CSVs' });
        await toggle.waitFor();
        await toggle.click();
        const review = page.getByRole('region', { name: 'Review: turn copied CSVs off' });
        await review.getByRole('button', { name: 'Turn copied CSVs off' }).click();
        await page
          .getByLabel('DisabledCopiedCSVs condition')
          .filter({ hasText: 'DisabledCopiedCSVs=True (CopiedCSVsDisabled)' })
          .waitFor({ timeout: OLM_WAIT });
        await eventually('real OLM to delete the copies', async () => ((await copies()) === 0 ? true : undefined));
        await shot(page, '11-copies-off');
        await toggle.click();
        await page
          .getByRole('region', { name: 'Review: turn copied CSVs on' })
          .getByRole('button', { name: 'Turn copied CSVs on' })
          .click();
        await page
          .getByLabel('DisabledCopiedCSVs condition')
          .filter({ hasText: 'CopiedCSVsEnabled' })
          .waitFor({ timeout: OLM_WAIT });
        await eventually('real OLM to copy again', async () => ((await copies()) >= before ? true : undefined));
        await page.close();
      },
    );

    journey('upgrade up to a version: the console approves the predicted hop on real OLM and stops there', async () => {
      const ns = 'target-real';
      await subscribe(kube, {
        namespace: ns,
        package: 'pgpilot',
        channel: 'fast',
        targets: [ns],
        approval: 'Manual',
        startingCSV: 'pgpilot.v1.0.0',
        source: CATALOG,
      });
      const first = await eventually('the first plan', async () =>
        (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items.find(
          (p) => p.status?.phase === 'RequiresApproval',
        ),
      );
      await kube.patch(
        INSTALL_PLAN_TYPE,
        first.metadata!.name!,
        { spec: { approved: true } },
        { namespace: ns, type: 'merge' },
      );
      await csvSucceeded(ns, 'pgpilot.v1.0.0');
      const page = await open(`/operators/${ns}/pgpilot.v1.0.0?tab=subscription`);
      const section = page.getByRole('region', { name: 'Upgrade up to a version' });
      await section.getByLabel('Target version').selectOption({ label: '1.4.0' }, { timeout: OLM_WAIT });
      await section.getByText('OLM takes one InstallPlan: 1.0.0 → 1.4.0, and stops.').waitFor();
      await section.getByRole('button', { name: 'Upgrade up to 1.4.0' }).click();
      await section.getByText(/Upgrading up to 1\.4\.0, set by /).waitFor();
      await shot(page, '13-upgrade-target');
      await csvSucceeded(ns, 'pgpilot.v1.4.0');
      await eventually('the target reached and removed', async () => {
        const s = await sub(ns, 'pgpilot');
        return s.status?.installedCSV === 'pgpilot.v1.4.0' &&
          !s.metadata?.annotations?.['olm-console.io/upgrade-target']
          ? true
          : undefined;
      });
      // Real OLM then offers 1.5.0: that plan waits for a person.
      await eventually('the plan past the target to wait', async () =>
        (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items.some(
          (p) =>
            p.status?.phase === 'RequiresApproval' &&
            !p.spec.approved &&
            p.spec.clusterServiceVersionNames.includes('pgpilot.v1.5.0'),
        )
          ? true
          : undefined,
      );
      await page.close();
    });

    journey(
      "pod configuration saved on the Subscription tab: real OLM writes it into the operator's Deployment, and the page shows it",
      async () => {
        const ns = 'target-real';
        const csv = (await sub(ns, 'pgpilot')).status!.installedCSV!;
        const page = await open(`/operators/${ns}/${csv}?tab=subscription`);
        await page.getByRole('form', { name: 'Operator configuration' }).waitFor();
        await page.getByRole('button', { name: 'Add a variable' }).click();
        await page.getByLabel('Variable 1 name').fill('LOG_LEVEL');
        await page.getByLabel('Variable 1 value').fill('debug');
        await page.getByRole('button', { name: 'Save configuration' }).click();
        await page.getByRole('status').filter({ hasText: 'Saved. OLM is writing the Deployment again.' }).waitFor();
        const deployment = page.getByRole('region', { name: /^Deployment / });
        await deployment.getByText(/LOG_LEVEL=debug/).waitFor({ timeout: OLM_WAIT });
        const written = await eventually('the Deployment to carry it', async () => {
          const items = (
            await kube.listAll<{
              spec: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
            }>(DEPLOYMENTS, { namespace: ns })
          ).items;
          return items.length &&
            items.every((d) =>
              d.spec.template.spec.containers.every((c) =>
                c.env?.some((e) => e.name === 'LOG_LEVEL' && e.value === 'debug'),
              ),
            )
            ? true
            : undefined;
        });
        assert.equal(written, true);
        await shot(page, '14-pod-config');
        await page.close();
      },
    );

    journey(
      'install with a service account: the wizard grants what QuillMQ and its dependency need, and real OLM installs as the account',
      async () => {
        const ns = 'scoped-real';
        const page = await open(`/operatorhub/olm/${CATALOG}/quillmq/install`);
        await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
        await page.getByLabel('Installed namespace').fill(ns);
        await page.getByLabel('Install with a service account').check();
        const rights = page.getByRole('region', { name: 'Service account rights' });
        await rights.getByText(/so their rules are in this Role too/).waitFor();
        await shot(page, '11-scoped-wizard');
        await page.getByRole('button', { name: 'Install', exact: true }).click();
        await page.waitForURL(new RegExp(`/installs/${ns}/quillmq$`));
        // Longer than the other waits. Fresh-clone CI runs failed here; a local run showed why: real
        // OLM had installed both within seconds, but the page had read a ResolutionFailed that OLM
        // wrote for a moment while it made the dependency's Subscription, and stopped following the
        // cluster (fixed; e2e/refresh.test.ts checks the page follows past a failed resolution). The
        // failure's message carries each CSV's phase history. A wait, not a timing assertion.
        await page
          .getByRole('status')
          .filter({ hasText: /^Installed: quillmq\.v/ })
          .waitFor({ timeout: 3 * OLM_WAIT });
        // Real OLM wrote the plan as the account, and was refused nothing: every step done.
        const plan = await eventually('the plan to complete', async () => {
          const plans = (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items;
          return plans.length === 1 && plans[0]!.status?.phase === 'Complete' ? plans[0]! : undefined;
        });
        assert.equal(
          (plan.status as { attenuatedServiceAccountRef?: { name?: string } }).attenuatedServiceAccountRef?.name,
          'olm-installer',
        );
        for (const name of plan.spec.clusterServiceVersionNames) await csvSucceeded(ns, name);
        assert.ok(
          plan.spec.clusterServiceVersionNames.some((n) => n.startsWith('tenant-core.')),
          'the dependency came in the same plan',
        );
        await shot(page, '12-scoped-installed');
        await page.close();
      },
    );
  });
