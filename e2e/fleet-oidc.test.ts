// The fleet over two real clusters (`npm run cluster`: each its own etcd, kube-apiserver and OLM
// v0.38.0; OLM v1 left out, the fleet's v1 half is tested on the sandbox) that trust one identity
// provider: the first is started with `--oidc`, the second with `--oidc-trust` the first's folder.
// The console (its production HTTP server) serves both as `--cluster east=… --cluster west=…` and
// alice signs in once, over plain HTTP through the provider's login form. Both clusters answer her
// on the Clusters, Operators and Approvals answers; an approval on each cluster is made as her
// (team1, where she may update InstallPlans, on each: approved; team2, where she may only view: the
// cluster's own Forbidden naming `oidc:alice`); then west is stopped mid-run and its row says it
// does not answer while east keeps answering and an approval still lands there. Writes the start
// time and resident memory as diagnostics. Skipped when cluster/build.sh has not built the programs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type {
  FleetApprovalsResponse,
  FleetApproveResponse,
  FleetClustersResponse,
  FleetOperatorsResponse,
} from '../lib/api/fleet';
import type { KubeClient } from '../lib/k8s/client';
import { rbacType } from '../lib/k8s/core-kinds';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { signInOverHttp, type ProviderProcess } from '../lib/server/oidc/testing/provider-process';
import { clientAs, csvPhase, ensureNamespace, subscribe, waitFor } from '../lib/server/testing/cluster';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const skip = clusterProgramsMissing();
const DEMO = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const CATALOG = catalogSourceName(DEMO);
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';

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

/** A cookie jar of one cookie: the console's session. */
class Browserless {
  cookie = '';
  csrf = '';
  constructor(readonly url: string) {}

  async call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { cookie: this.cookie, origin: this.url };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.method && init.method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const res = await fetch(`${this.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
    return { status: res.status, body: (await res.json()) as T };
  }
}

const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

if (skip) test('the fleet over two real clusters trusting one identity provider', (t) => t.skip(skip));
else
  describe('the fleet over two real clusters trusting one identity provider', () => {
    let east: RealCluster;
    let west: RealCluster | undefined;
    let app: RunningConsole;
    let alice: Browserless;
    const admins: Record<string, KubeClient> = {};
    let started: number;

    const waiting = (admin: KubeClient, namespace: string, csv: string) =>
      waitFor(
        `a plan for ${csv} waiting in ${namespace}`,
        async () =>
          (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items.find(
            (p) => p.spec.clusterServiceVersionNames.includes(csv) && p.status?.phase === 'RequiresApproval',
          ),
        240_000,
      );

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
      app = await startConsole({
        OLM_CONSOLE_KUBECONFIG: east.kubeconfigPath,
        OLM_CONSOLE_CLUSTERS: JSON.stringify([
          { name: 'east', kubeconfig: east.kubeconfigPath },
          { name: 'west', kubeconfig: west.kubeconfigPath },
        ]),
        OLM_CONSOLE_OIDC_ISSUER: flag('--oidc-issuer'),
        OLM_CONSOLE_OIDC_CLIENT_ID: flag('--oidc-client-id'),
        OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE: flag('--oidc-client-secret-file'),
        OLM_CONSOLE_OIDC_CA_FILE: flag('--oidc-ca-file'),
      });
      // One sign-in, through the provider's own login form.
      const users = JSON.parse(readFileSync(join(east.dir, 'oidc-users.json'), 'utf8')) as {
        name: string;
        password: string;
      }[];
      const provider = { issuer: flag('--oidc-issuer'), caPem: readFileSync(flag('--oidc-ca-file'), 'utf8') };
      const login = await fetch(`${app.url}/api/auth/login?next=/fleet/clusters`, { redirect: 'manual' });
      assert.equal(login.status, 302);
      const callback = await signInOverHttp(
        provider as ProviderProcess,
        new URL(login.headers.get('location')!),
        'alice',
        users.find((u) => u.name === 'alice')!.password,
      );
      const back = await fetch(callback, { headers: { cookie: cookieOf(login) }, redirect: 'manual' });
      assert.equal(back.status, 302, await back.text());
      alice = new Browserless(app.url);
      alice.cookie = cookieOf(back);
      const session = await alice.call<{ loggedIn: boolean; username: string; csrfToken: string }>('/api/session');
      assert.equal(session.body.username, 'oidc:alice');
      alice.csrf = session.body.csrfToken;
      const kb = residentKb([east.dir, west.dir]);
      console.log(
        `# two clusters ready in ${startSeconds.toFixed(0)} s, all set up in ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s; clusters resident ${(kb / 1024).toFixed(0)} MB`,
      );
    });
    after(async () => {
      await app?.stop();
      await west?.stop();
      await east?.stop();
      console.log(`# whole run ${((Date.now() - started) / 1000).toFixed(0)} s`);
    });

    test('one sign-in: both clusters answer her on the Clusters and Operators answers', async () => {
      const { status, body } = await alice.call<FleetClustersResponse>('/api/fleet/clusters');
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
      const ops = await alice.call<FleetOperatorsResponse>('/api/fleet/operators');
      assert.ok(ops.body.clusters.every((c) => c.ok));
      const pgpilot = ops.body.operators.find((o) => o.package === 'pgpilot')!;
      for (const cluster of ['east', 'west'])
        assert.deepEqual(pgpilot.installs[cluster]?.map((i) => i.namespace).sort(), ['team1', 'team2'], cluster);
    });

    test("an approval on each cluster is made as her: team1's approved, team2's refused by the cluster", async () => {
      // Real OLM writes each namespace's plan some seconds after its Subscription (more under load),
      // and the fleet keeps each cluster's answer 10 s: ask until both clusters list both plans.
      const listed = (b: FleetApprovalsResponse) =>
        b.clusters.every(
          (c) =>
            c.ok &&
            c.value.approvals
              .map((a) => a.namespace)
              .sort()
              .join() === 'team1,team2',
        );
      const body = await waitFor(
        'both plans waiting on both clusters',
        async () => {
          const r = await alice.call<FleetApprovalsResponse>('/api/fleet/approvals');
          if (listed(r.body)) return r.body;
          await new Promise((done) => setTimeout(done, 1000));
          return undefined;
        },
        240_000,
      );
      const plans: { cluster: string; namespace: string; name: string; resourceVersion?: string }[] = [];
      for (const c of body.clusters) {
        assert.ok(c.ok, `${c.name}: ${c.ok ? '' : c.error.message}`);
        assert.deepEqual(c.value.approvals.map((a) => a.namespace).sort(), ['team1', 'team2'], c.name);
        for (const a of c.value.approvals)
          plans.push({ cluster: c.name, namespace: a.namespace, name: a.name, resourceVersion: a.resourceVersion });
      }
      const res = await alice.call<FleetApproveResponse>('/api/fleet/approvals/approve', {
        method: 'POST',
        body: { plans },
      });
      assert.equal(res.status, 200);
      for (const r of res.body.results) {
        if (r.namespace === 'team1') assert.ok(r.ok, `${r.cluster}: ${r.ok ? '' : r.error.message}`);
        else {
          assert.ok(!r.ok, `${r.cluster}/team2 approved`);
          assert.equal(r.error.reason, 'Forbidden');
          assert.match(
            r.error.message,
            /User "oidc:alice" cannot update resource "installplans" in API group "operators.coreos.com" in the namespace "team2"/,
          );
        }
      }
      // What each cluster shows: the plan of team1 approved, team2's not.
      for (const p of plans) {
        const plan = await admins[p.cluster]!.get<InstallPlan>(INSTALL_PLAN_TYPE, p.name, p.namespace);
        assert.equal(plan.spec.approved, p.namespace === 'team1', `${p.cluster}/${p.namespace}`);
      }
    });

    test('west stopped mid-run: its row says it does not answer, and east keeps working', async () => {
      // East's 1.2.0 installs; its upgrade to 1.4.0 then waits for approval.
      await waitFor(
        'pgpilot 1.2.0 Succeeded on east',
        async () => ((await csvPhase(admins.east!, 'team1', FROM)) === 'Succeeded' ? true : undefined),
        240_000,
      );
      const upgrade = await waiting(admins.east!, 'team1', TO);
      await west!.stop();
      west = undefined;
      let rows: FleetClustersResponse['clusters'] = [];
      // Each cluster's answer is kept for 10 s (docs/using/fleet.md): the next asking finds west gone.
      await waitFor(
        'west to be said not to answer',
        async () => {
          rows = (await alice.call<FleetClustersResponse>('/api/fleet/clusters')).body.clusters;
          return rows.find((c) => c.name === 'west')?.ok === false ? true : undefined;
        },
        60_000,
      );
      const westRow = rows.find((c) => c.name === 'west')!;
      assert.ok(!westRow.ok);
      assert.match(westRow.error.message, /ECONNREFUSED|connect|not answer/i);
      assert.ok(rows.find((c) => c.name === 'east')?.ok, 'east still answers');
      const approvals = await waitFor('the upgrade among east’s approvals', async () => {
        const { body } = await alice.call<FleetApprovalsResponse>('/api/fleet/approvals');
        const e = body.clusters.find((c) => c.name === 'east');
        return e?.ok && e.value.approvals.some((a) => a.name === upgrade.metadata!.name) ? body : undefined;
      });
      assert.equal(approvals.clusters.find((c) => c.name === 'west')?.ok, false);
      const res = await alice.call<FleetApproveResponse>('/api/fleet/approvals/approve', {
        method: 'POST',
        body: { plans: [{ cluster: 'east', namespace: 'team1', name: upgrade.metadata!.name! }] },
      });
      assert.equal(res.status, 200);
      assert.ok(res.body.results[0]!.ok, JSON.stringify(res.body.results));
      const plan = await admins.east!.get<InstallPlan>(INSTALL_PLAN_TYPE, upgrade.metadata!.name!, 'team1');
      assert.equal(plan.spec.approved, true);
    });
  });
