// The fleet over two real clusters (`npm run cluster`: each its own etcd, kube-apiserver and OLM
// v0.38.0; OLM v1 left out, the fleet's v1 half is tested on the sandbox) that trust one identity
// provider: the first is started with `--oidc`, the second with `--oidc-trust` the first's folder.
// The console (its production HTTP server) serves both as `--cluster east=… --cluster west=…`, and
// alice signs in once in Debian's Chromium, through the provider's own login form. Both clusters
// answer her on the Clusters and Operators pages' answers. On Approvals across clusters, live (the
// plans real OLM writes appear without a reload), she selects the waiting plan of team1 on each
// cluster, sees one combined preview and approves: each result is reported on the page, and each
// cluster's InstallPlan, read as its admin, is approved; team2's plans, where she may only view,
// are refused by each cluster with its own Forbidden naming `oidc:alice` (the approvals were made
// as her, not as the console). Then west is stopped mid-run: the page says it does not answer
// while east keeps working, and her approval of east's next upgrade still lands there. Writes the
// start time and resident memory as diagnostics. Skipped when cluster/build.sh has not built the
// programs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { FleetClustersResponse, FleetOperatorsResponse } from '../lib/api/fleet';
import type { KubeClient } from '../lib/k8s/client';
import { rbacType } from '../lib/k8s/core-kinds';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs, csvPhase, ensureNamespace, subscribe, waitFor } from '../lib/server/testing/cluster';
import { accessibilityProblems } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const skip = clusterProgramsMissing();
const DEMO = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const CATALOG = catalogSourceName(DEMO);
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';
// What a plan's row says it does: real OLM's plans carry each bundle as a reference, so the page
// may name the CSV rather than its version.
const INSTALL = /pgpilot: install (pgpilot\.v)?1\.2\.0/;
const UPGRADE = /pgpilot: (pgpilot\.v)?1\.2\.0 → (pgpilot\.v)?1\.4\.0/;
/** Real OLM writes a namespace's plan some seconds after its Subscription, more under load. */
const OLM_MS = 240_000;

/** Resident memory (kB) of the processes whose command line names one of the folders. */
function residentKb(dirs: string[]): number {
  let kb = 0;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (!dirs.some((d) => cmd.includes(d))) continue;
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${e}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb;
}

if (skip) test('the fleet over two real clusters trusting one identity provider', (t) => t.skip(skip));
else
  describe('the fleet over two real clusters trusting one identity provider', () => {
    let east: RealCluster;
    let west: RealCluster | undefined;
    let app: RunningConsole;
    let browser: Browser;
    let page: Page;
    const admins: Record<string, KubeClient> = {};
    let started: number;

    /** A GET as the page makes it: her session's cookie, from the page itself. */
    const api = <T>(path: string) =>
      page.evaluate(async (p) => {
        const r = await fetch(p);
        return { status: r.status, body: (await r.json()) as unknown };
      }, path) as Promise<{ status: number; body: T }>;
    // A cluster's section, named by its heading (the home cluster's says "home" too).
    const region = (name: string) => page.getByRole('region', { name: new RegExp(`^${name}( home)?$`) });
    /** The waiting plan of `namespace` listed under a cluster, as its checkbox's list item. */
    const planItem = (cluster: string, namespace: string, text?: RegExp) =>
      region(cluster)
        .getByRole('listitem')
        .filter({ hasText: `InstallPlan ${namespace}/` })
        .filter(text ? { hasText: text } : {});
    const results = () => page.getByRole('status').filter({ hasText: 'Results' });
    const plansOf = async (admin: KubeClient, namespace: string) =>
      (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items;
    const accessible = async (what: string) => assert.deepEqual(await accessibilityProblems(page), [], what);
    const approveChosen = async (items: Locator[], preview: RegExp) => {
      for (const item of items) await item.getByRole('checkbox').check();
      await page
        .getByRole('button', { name: `Review ${items.length} approval${items.length === 1 ? '' : 's'}` })
        .click();
      await page.getByRole('region', { name: preview }).waitFor();
      await accessible('the combined preview');
      await page.getByRole('button', { name: `Approve ${items.length}`, exact: true }).click();
      await results().waitFor();
      return results().innerText();
    };

    before(async () => {
      started = Date.now();
      east = await startRealCluster([DEMO], 300_000, ['--oidc', '--no-olm-v1']);
      west = await startRealCluster([DEMO], 300_000, ['--oidc-trust', east.dir, '--no-olm-v1']);
      const startSeconds = (Date.now() - started) / 1000;
      for (const [name, c] of [
        ['east', east],
        ['west', west],
      ] as const) {
        const admin = (admins[name] = clientAs(c, 'admin'));
        // Alice may see everything and approve in team1 only. (OLM's aggregated roles give a
        // namespace's admin no update on InstallPlans: approving is a right of its own.)
        const alice = [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'oidc:alice' }];
        await admin.create(rbacType('ClusterRoleBinding'), {
          metadata: { name: 'alice-views' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
          subjects: alice,
        });
        await ensureNamespace(admin, 'team1');
        await admin.create(rbacType('Role'), {
          metadata: { name: 'installplan-approver', namespace: 'team1' },
          rules: [{ apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['update', 'patch'] }],
        });
        await admin.create(rbacType('RoleBinding'), {
          metadata: { name: 'alice-approves', namespace: 'team1' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'installplan-approver' },
          subjects: alice,
        });
        for (const namespace of ['team1', 'team2'])
          await subscribe(admin, {
            namespace,
            package: 'pgpilot',
            channel: 'stable',
            approval: 'Manual',
            startingCSV: FROM,
            targets: [namespace],
            source: CATALOG,
          });
      }
      const flags = /^oidc console flags: (.+)$/m.exec(east.output())![1]!.split(' ');
      const flag = (name: string) => flags[flags.indexOf(name) + 1]!;
      const issuer = flag('--oidc-issuer');
      app = await startConsole({
        OLM_CONSOLE_KUBECONFIG: east.kubeconfigPath,
        OLM_CONSOLE_CLUSTERS: JSON.stringify([
          { name: 'east', kubeconfig: east.kubeconfigPath },
          { name: 'west', kubeconfig: west.kubeconfigPath },
        ]),
        OLM_CONSOLE_OIDC_ISSUER: issuer,
        OLM_CONSOLE_OIDC_CLIENT_ID: flag('--oidc-client-id'),
        OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE: flag('--oidc-client-secret-file'),
        OLM_CONSOLE_OIDC_CA_FILE: flag('--oidc-ca-file'),
      });
      const users = JSON.parse(readFileSync(join(east.dir, 'oidc-users.json'), 'utf8')) as {
        name: string;
        password: string;
      }[];
      browser = await launchBrowser();
      // The provider's certificate is from the first cluster's own CA, which this browser does not know.
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      // One sign-in, in the browser, through the provider's own login form.
      await page.goto(`${app.url}/login?next=${encodeURIComponent('/fleet/clusters')}`);
      await page.getByRole('link', { name: 'Sign in with the identity provider' }).click();
      await page.waitForURL((u) => u.origin === issuer);
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(users.find((u) => u.name === 'alice')!.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/fleet/clusters`);
      const session = await api<{ loggedIn: boolean; username: string }>('/api/session');
      assert.equal(session.body.username, 'oidc:alice');
      const kb = residentKb([east.dir, west.dir]);
      console.log(
        `# two clusters ready in ${startSeconds.toFixed(0)} s, all set up in ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s; clusters resident ${(kb / 1024).toFixed(0)} MB`,
      );
    });
    after(async () => {
      await browser?.close();
      await app?.stop();
      await west?.stop();
      await east?.stop();
      console.log(`# whole run ${((Date.now() - started) / 1000).toFixed(0)} s`);
    });

    test('one sign-in: both clusters answer her on the Clusters page and the Operators answer', async () => {
      const table = page.getByRole('table', { name: 'Clusters' });
      for (const name of ['east', 'west'])
        await table.getByRole('row').filter({ hasText: name }).filter({ hasText: 'v1.34.4' }).waitFor();
      const { status, body } = await api<FleetClustersResponse>('/api/fleet/clusters');
      assert.equal(status, 200);
      assert.deepEqual(
        body.clusters.map((c) => [c.name, c.home, c.server]),
        [
          ['east', true, east.url],
          ['west', false, west!.url],
        ],
      );
      for (const c of body.clusters) {
        assert.ok(c.ok, `${c.name}: ${c.ok ? '' : c.error.message}`);
        assert.equal(c.value.kubernetesVersion, 'v1.34.4');
        assert.equal(c.value.olmV0.present, true);
        assert.ok(
          c.value.catalogs.some((k) => k.name === CATALOG && k.healthy),
          JSON.stringify(c.value.catalogs),
        );
        const rights = new Map(c.value.rights.map((r) => [r.label, r.allowed]));
        // Her own rights there: she views everywhere and approves only where her group is admin.
        assert.equal(rights.get('see operators in every namespace'), true);
        assert.equal(rights.get('approve InstallPlans'), false);
      }
      const ops = await api<FleetOperatorsResponse>('/api/fleet/operators');
      assert.ok(ops.body.clusters.every((c) => c.ok));
      const pgpilot = ops.body.operators.find((o) => o.package === 'pgpilot')!;
      for (const cluster of ['east', 'west'])
        assert.deepEqual(pgpilot.installs[cluster]?.map((i) => i.namespace).sort(), ['team1', 'team2'], cluster);
    });

    test('Approvals across clusters: one upgrade on each cluster in one combined preview, each made as her', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet approvals' }).click();
      await page.waitForURL(/\/fleet\/approvals$/);
      // Live: the plans real OLM writes appear on the page as they are made, with no reload.
      await page.getByText('Live: a change on any cluster shows here as it happens.').waitFor({ timeout: 60_000 });
      for (const cluster of ['east', 'west'])
        for (const namespace of ['team1', 'team2'])
          await planItem(cluster, namespace, INSTALL)
            .waitFor({ timeout: OLM_MS })
            .catch(async (err: Error) => {
              throw new Error(`${err.message}\nthe page said:\n${await page.locator('main').innerText()}`);
            });
      await accessible('approvals across two real clusters');
      const done = await approveChosen(
        [planItem('east', 'team1'), planItem('west', 'team1')],
        /You are about to approve 2 InstallPlans on 2 clusters/,
      );
      for (const cluster of ['east', 'west'])
        assert.match(
          done,
          new RegExp(`${cluster}: InstallPlan team1/\\S+ approved \\(${FROM.replaceAll('.', '\\.')}\\)`),
        );
      // What each cluster shows, read as its admin: the plan of team1 approved, team2's still waiting.
      for (const cluster of ['east', 'west']) {
        const admin = admins[cluster]!;
        const first = (await plansOf(admin, 'team1')).find((p) => p.spec.clusterServiceVersionNames.includes(FROM));
        assert.equal(first?.spec.approved, true, `${cluster}/team1`);
        const other = (await plansOf(admin, 'team2')).find((p) => p.spec.clusterServiceVersionNames.includes(FROM));
        assert.equal(other?.spec.approved, false, `${cluster}/team2`);
      }
      // The page follows: team1's approved plans leave it, team2's stay.
      for (const cluster of ['east', 'west']) {
        await waitFor(`${cluster}/team1 gone from the page`, async () =>
          (await planItem(cluster, 'team1', INSTALL).count()) === 0 ? true : undefined,
        );
        assert.equal(await planItem(cluster, 'team2').count(), 1, cluster);
      }
      // In team2 she may only view: each cluster refuses her, in its own words and by her name.
      const refused = await approveChosen(
        [planItem('east', 'team2'), planItem('west', 'team2')],
        /You are about to approve 2 InstallPlans on 2 clusters/,
      );
      for (const cluster of ['east', 'west'])
        assert.match(
          refused,
          new RegExp(
            `${cluster}: InstallPlan team2/\\S+ refused \\(Forbidden\\): .*User "oidc:alice" cannot update resource ` +
              `"installplans" in API group "operators.coreos.com" in the namespace "team2"`,
          ),
        );
      for (const cluster of ['east', 'west']) {
        const other = (await plansOf(admins[cluster]!, 'team2')).find((p) =>
          p.spec.clusterServiceVersionNames.includes(FROM),
        );
        assert.equal(other?.spec.approved, false, `${cluster}/team2 unchanged`);
      }
    });

    test('west stopped mid-run: its row says it does not answer, and east keeps working', async () => {
      // East's 1.2.0 installs; its upgrade to 1.4.0 then waits for approval.
      await waitFor(
        'pgpilot 1.2.0 Succeeded on east',
        async () => ((await csvPhase(admins.east!, 'team1', FROM)) === 'Succeeded' ? true : undefined),
        OLM_MS,
      );
      await west!.stop();
      west = undefined;
      // West's watch cannot reconnect, so the page reads west on its 30 s timer, past the 10 s an
      // answer is kept (docs/using/fleet.md), and says it does not answer.
      await region('west').getByText('Not answering').waitFor({ timeout: 90_000 });
      assert.match(await region('west').innerText(), /ECONNREFUSED|connect|not answer/i);
      await accessible('approvals with west not answering');
      const { body } = await api<FleetClustersResponse>('/api/fleet/clusters');
      assert.equal(body.clusters.find((c) => c.name === 'west')?.ok, false);
      assert.ok(body.clusters.find((c) => c.name === 'east')?.ok, 'east still answers');
      // East's upgrade appears on the page by itself, and her approval lands there.
      const upgrade = planItem('east', 'team1', UPGRADE);
      await upgrade.waitFor({ timeout: OLM_MS }).catch(async (err: Error) => {
        const plans = (await plansOf(admins.east!, 'team1')).map((p) => [
          p.spec.clusterServiceVersionNames,
          p.spec.approved,
        ]);
        throw new Error(
          `${err.message}\neast's team1 plans: ${JSON.stringify(plans)}\nthe page said:\n${await page.locator('main').innerText()}`,
        );
      });
      const done = await approveChosen([upgrade], /You are about to approve 1 InstallPlan on 1 cluster/);
      const name = new RegExp(`east: InstallPlan team1/(\\S+) approved \\(${TO.replaceAll('.', '\\.')}\\)`).exec(
        done,
      )?.[1];
      assert.ok(name, done);
      const plan = await admins.east!.get<InstallPlan>(INSTALL_PLAN_TYPE, name, 'team1');
      assert.equal(plan.spec.approved, true);
    });
  });
