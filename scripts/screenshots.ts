// `npm run screenshots`: the README's screenshots, made from a production build against a fresh
// sandbox with the demo catalog, in Debian's Chromium: each page at 1360×900 as
// docs/screenshots/<name>.png, then the same state at a phone's 390×844 as <name>.phone.png.
// `-- hub` makes only the shots whose name contains "hub".
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startConsole } from '../e2e/support/console-server';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { NAMESPACE_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '../lib/k8s/core-kinds';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../lib/server/olm-v1/resources';
import { clientAs, subscribe, waitFor, waitForCsv } from '../lib/server/testing/cluster';

const out = join(import.meta.dirname, '..', 'docs', 'screenshots');
const filters = process.argv.slice(2);

/** Waits until every image on the page has loaded (or failed) and layout has settled. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.waitForTimeout(300);
}

type Sb = Awaited<ReturnType<typeof withSandbox>>;
let dayTwo: Promise<{ csv: string; pending: string }> | undefined;

/**
 * The day-two shots' cluster: CertWarden for all namespaces, and PgPilot in "ops-db" under
 * Manual approval, installed two versions back with its next upgrade waiting for approval.
 */
function prepareDayTwo(sb: Sb): Promise<{ csv: string; pending: string }> {
  dayTwo ??= (async () => {
    const kube = clientAs(sb, 'admin');
    const sub = (ns: string, name: string) => kube.get<Subscription>(SUBSCRIPTION_TYPE, name, ns);
    await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    await subscribe(kube, {
      namespace: 'ops-db',
      package: 'pgpilot',
      channel: 'fast',
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.2.0',
      targets: ['ops-db'],
    });
    const first = await waitFor(
      'the first plan',
      async () => (await sub('ops-db', 'pgpilot')).status?.installPlanRef?.name,
    );
    const plan = await kube.get<InstallPlan>(INSTALL_PLAN_TYPE, first, 'ops-db');
    await kube.replace(INSTALL_PLAN_TYPE, { ...plan, spec: { ...plan.spec, approved: true } });
    const csv = await waitFor('pgpilot installed', async () => (await sub('ops-db', 'pgpilot')).status?.installedCSV);
    await waitForCsv(kube, 'ops-db', csv);
    await waitForCsv(
      kube,
      'operators',
      await waitFor('certwarden installed', async () => (await sub('operators', 'certwarden')).status?.installedCSV),
    );
    const pending = await waitFor(
      'the next plan',
      async () =>
        (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'ops-db' })).items.find(
          (p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved,
        )?.metadata?.name,
    );
    return { csv, pending };
  })();
  return dayTwo;
}

let olmV1: Promise<void> | undefined;

/**
 * The OLM v1 shots' cluster: TenantCore installed as a ClusterExtension by an account allowed
 * everything (the install wizard's own rights are shown in its shot), and the day-two cluster's
 * v0 operators beside it.
 */
function prepareOlmV1(sb: Sb): Promise<void> {
  olmV1 ??= (async () => {
    await prepareDayTwo(sb);
    const kube = clientAs(sb, 'admin');
    await kube.create(NAMESPACE_TYPE, { metadata: { name: 'tenant-core-v1' } });
    await kube.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: 'tenant-core-v1' } });
    await kube.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'tenant-core-v1-installer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'tenant-core-v1' }],
    });
    await kube.create(CLUSTER_EXTENSION_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'tenant-core-v1' },
      spec: {
        namespace: 'tenant-core-v1',
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'tenant-core' } },
      },
    });
    await waitFor('tenant-core-v1 Installed', async () => {
      const ce = await kube.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'tenant-core-v1');
      return ce.status?.conditions?.some((c) => c.type === 'Installed' && c.status === 'True') ? true : undefined;
    });
  })();
  return olmV1;
}

interface Shot {
  name: string;
  take: (page: Page, url: string, sb: Awaited<ReturnType<typeof withSandbox>>) => Promise<void>;
  /** What to bring into view again once the page is phone-sized (the top of the page otherwise). */
  phone?: (page: Page) => Promise<void>;
}

const DESKTOP = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The page as it is, then the same state on a phone: the layout follows the new width. */
async function both(page: Page, name: string, phone?: (page: Page) => Promise<void>): Promise<void> {
  const desktop = join(out, `${name}.png`);
  await page.screenshot({ path: desktop, fullPage: false });
  console.log(`wrote ${desktop}`);
  await page.setViewportSize(PHONE);
  await page.evaluate('window.scrollTo(0, 0)');
  await phone?.(page);
  await settle(page);
  const small = join(out, `${name}.phone.png`);
  await page.screenshot({ path: small, fullPage: false });
  console.log(`wrote ${small}`);
}

const shots: Shot[] = [
  {
    name: 'operatorhub',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub`);
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'operatorhub-filtered',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub?q=data&installMode=OwnNamespace`);
      await page.getByRole('list', { name: 'Operators' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'operator-details',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub/olm/olm-console-demo/pgpilot`);
      await page.getByRole('heading', { level: 1, name: 'PgPilot' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'install-wizard',
    take: async (page, url) => {
      await page.goto(`${url}/operatorhub/olm/olm-console-demo/vaultkeeper/install`);
      await page.getByRole('heading', { level: 2, name: 'What the install will do' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'install-progress',
    take: async (page, url, sb) => {
      await subscribe(clientAs(sb, 'admin'), {
        namespace: 'pg',
        package: 'pgpilot',
        channel: 'stable',
        approval: 'Manual',
        startingCSV: 'pgpilot.v1.2.0',
        targets: ['pg'],
      });
      await page.goto(`${url}/installs/pg/pgpilot`);
      await page.getByRole('heading', { name: /Approve InstallPlan/ }).waitFor({ timeout: 20_000 });
      await settle(page);
    },
  },
  {
    name: 'operators-list',
    take: async (page, url, sb) => {
      await prepareOlmV1(sb);
      await page.goto(`${url}/operators`);
      // The install-progress shot left pgpilot waiting in "pg" too: two rows say it.
      await page.getByRole('table', { name: 'Installed operators' }).getByText('1 requires approval').first().waitFor();
      await page.getByRole('row').filter({ hasText: 'OLM v1' }).first().waitFor();
      await settle(page);
    },
  },
  {
    name: 'operators-copied',
    take: async (page, url, sb) => {
      await prepareDayTwo(sb);
      await page.goto(`${url}/operators?namespace=team1`);
      await page.getByText('Copied from').first().waitFor();
      await settle(page);
    },
  },
  {
    name: 'operator-subscription',
    take: async (page, url, sb) => {
      const { csv } = await prepareDayTwo(sb);
      await page.goto(`${url}/operators/ops-db/${csv}?tab=subscription`);
      await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'operator-subscription-graph',
    take: async (page, url, sb) => {
      const { csv } = await prepareDayTwo(sb);
      await page.goto(`${url}/operators/ops-db/${csv}?tab=subscription`);
      const graph = page.getByRole('figure', { name: /^Upgrade graph of / });
      await graph.locator('[role="application"][data-ready="true"]').waitFor();
      await page.evaluate(`document.querySelector('figure').scrollIntoView({ block: 'end' }); window.scrollBy(0, 24)`);
      await settle(page);
    },
    phone: (page) => page.evaluate(`document.querySelector('figure').scrollIntoView({ block: 'start' })`),
  },
  {
    name: 'installplan',
    take: async (page, url, sb) => {
      const { pending } = await prepareDayTwo(sb);
      await page.goto(`${url}/installplans/ops-db/${pending}`);
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      await page
        .getByRole('button', { name: /View manifest of pgpilot/ })
        .first()
        .click();
      await settle(page);
    },
  },
  {
    name: 'uninstall-dialog',
    take: async (page, url, sb) => {
      const { csv } = await prepareDayTwo(sb);
      await clientAs(sb, 'admin')
        .create(
          {
            group: 'pgpilot.example.com',
            version: 'v1',
            plural: 'postgresclusters',
            namespaced: true,
            kind: 'PostgresCluster',
          },
          {
            apiVersion: 'pgpilot.example.com/v1',
            kind: 'PostgresCluster',
            metadata: { name: 'orders', namespace: 'ops-db' },
            spec: { instances: 3 },
          },
        )
        .catch(() => undefined);
      await page.goto(`${url}/operators/ops-db/${csv}`);
      await page.getByRole('button', { name: 'Uninstall' }).click();
      await page.getByRole('dialog').getByText('PostgresCluster orders').waitFor();
      await settle(page);
    },
  },
  {
    name: 'catalog-sources',
    take: async (page, url) => {
      await page.goto(`${url}/catalogsources`);
      await page.getByRole('list', { name: 'Catalog sources' }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'olm-v1-package',
    take: async (page, url) => {
      await page.goto(`${url}/clustercatalogs/olm-console-demo/packages/pgpilot`);
      await page.getByText('Installs with OLM v1 from ClusterCatalog olm-console-demo').waitFor({ timeout: 60_000 });
      await page.getByRole('heading', { name: /^Upgrade graph of / }).waitFor();
      await settle(page);
    },
  },
  {
    name: 'olm-v1-install',
    take: async (page, url) => {
      await page.goto(`${url}/clustercatalogs/olm-console-demo/packages/pgpilot/install?channel=stable&version=1.2.0`);
      await page.getByRole('heading', { name: /^Install .* with OLM v1$/ }).waitFor({ timeout: 60_000 });
      await page.getByRole('radio', { name: 'This minor' }).check();
      await page
        .getByRole('status', { name: 'Resolved version' })
        .getByText(/v1 installs 1\.\d+\.\d+/)
        .waitFor({ timeout: 30_000 });
      await settle(page);
    },
  },
  {
    name: 'olm-v1-extension',
    take: async (page, url, sb) => {
      await prepareOlmV1(sb);
      await page.goto(`${url}/clusterextensions/tenant-core-v1`);
      await page.getByRole('table', { name: 'Objects installed by tenant-core-v1' }).waitFor({ timeout: 30_000 });
      await page.getByText(/rolled out: 1 of 1 replicas available/).waitFor({ timeout: 30_000 });
      await settle(page);
    },
  },
  {
    name: 'olm-v1-migrate',
    take: async (page, url, sb) => {
      await prepareOlmV1(sb);
      const kube = clientAs(sb, 'admin');
      const csv = await waitFor(
        'certwarden installed by OLM v0',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status?.installedCSV,
      );
      await page.goto(`${url}/operators/operators/${csv}`);
      await page.getByText('Move to OLM v1', { exact: true }).click();
      const steps = page.getByRole('list', { name: 'Move steps' });
      const reasons = page.getByRole('region', { name: 'Why it cannot move' });
      await steps.or(reasons).first().waitFor({ timeout: 60_000 });
      await ((await steps.count()) ? steps : reasons).scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
];

/**
 * The graph viewer on real catalogs, in a sandbox of its own: gatekeeper (every edge kind) and
 * scaleops-operator's stable-v1 (82 versions, 417 skip edges), copied alone into a folder.
 */
async function graphShot(browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<void> {
  const shared = join(import.meta.dirname, '..', '..', 'shared', 'catalogs');
  const dir = join(shared, 'gatekeeper-operator-product-v4.20');
  const tmp = mkdtempSync(join(tmpdir(), 'olm-screenshots-'));
  const long = join(tmp, 'long-channel');
  cpSync(join(shared, 'certified-operators-v4.18', 'scaleops-operator'), join(long, 'scaleops-operator'), {
    recursive: true,
  });
  const sb = await withSandbox({ catalogs: [dir, long], demo: false });
  const server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  try {
    const kube = clientAs(sb, 'admin');
    const CATSRC = {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      plural: 'catalogsources',
      namespaced: true,
      kind: 'CatalogSource',
    };
    const ready = await waitFor('the catalogs ready', async () => {
      const names = (
        await kube.listAll<{
          metadata?: { name?: string };
          status?: { connectionState?: { lastObservedState?: string } };
        }>(CATSRC, { namespace: 'olm' })
      ).items
        .filter((cs) => cs.status?.connectionState?.lastObservedState === 'READY')
        .map((cs) => cs.metadata?.name ?? '');
      return names.length === 2 ? names : undefined;
    });
    const catalog = ready.find((n) => n !== 'long-channel')!;
    const gatekeeper = `olm/${catalog}/gatekeeper-operator-product/graph`;
    const views = [
      {
        name: 'upgrade-graph',
        path: `${gatekeeper}?channel=stable&from=gatekeeper-operator-product.v3.15.1-0.1727189912.p`,
      },
      { name: 'upgrade-graph-overlay', path: `${gatekeeper}?channel=stable&overlay=3.15,3.17` },
      { name: 'upgrade-graph-long', path: 'olm/long-channel/scaleops-operator/graph?channel=stable-v1' },
    ].filter((v) => filters.length === 0 || filters.some((f) => v.name.includes(f)));
    for (const v of views) {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${server.url}/operatorhub/${v.path}`);
      await page.locator('[role="application"][data-ready="true"]').waitFor();
      await settle(page);
      await both(page, v.name, (p) =>
        p.evaluate(`document.querySelector('[role="application"]').scrollIntoView({ block: 'center' })`),
      );
      await page.close();
    }
  } finally {
    await server.stop();
    await sb.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sb = await withSandbox({ deploymentDelayMs: 500 });
  const server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  const browser = await launchBrowser();
  try {
    for (const shot of shots.filter((s) => filters.length === 0 || filters.some((f) => s.name.includes(f)))) {
      const page = await browser.newPage({ viewport: DESKTOP });
      await shot.take(page, server.url, sb);
      await both(page, shot.name, shot.phone);
      await page.close();
    }
    if (filters.length === 0 || filters.some((f) => 'upgrade-graph-overlay-long'.includes(f) || f.includes('graph')))
      await graphShot(browser);
  } finally {
    await browser.close();
    await server.stop();
    await sb.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
