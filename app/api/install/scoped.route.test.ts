// Installs with a service account's rights (OLM's scoped install) through the plan and apply
// routes against the sandbox, whose OLM writes as the account and whose API server judges it as
// real ones do (conformance: olm/scoped…). What OLM did is read back from the cluster.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { CSV_TYPE, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import type { ResourceType } from '@/lib/olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;

const demo = { namespace: 'olm', name: 'olm-console-demo' };
const SA: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
  namespaced: true,
  kind: 'ServiceAccount',
};
const rbac = (kind: string, namespaced: boolean): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: `${kind.toLowerCase()}s`,
  namespaced,
  kind,
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('installing with a service account', () => {
  const sb = routeSandbox();
  let plan: Handler;
  let apply: Handler;
  let admin: KubeClient;
  before(async () => {
    plan = (await import('./plan/route')).POST;
    apply = (await import('./route')).POST;
    admin = sb.admin;
  });

  const send = <T>(h: Handler, body: unknown, user = 'admin') =>
    sb.call<T & ErrorBody>(h, '/api/install', { method: 'POST', user, body });
  const install = (namespace: string, over: Record<string, unknown> = {}) => ({
    catalog: demo,
    approval: 'Automatic',
    package: 'quillmq',
    channel: 'stable',
    namespace,
    installMode: 'OwnNamespace',
    ...over,
  });
  const succeeded = (namespace: string) =>
    until(`the operator in ${namespace} to succeed`, async () => {
      const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'quillmq', namespace);
      const name = sub.status?.installedCSV;
      if (!name) return undefined;
      const csv = await admin.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
      return csv.status?.phase === 'Succeeded' ? csv : undefined;
    });

  test('an administrator creates the group with an account and grants it the bundle’s rights: OLM installs as the account', async () => {
    const body = install('scoped-one', { serviceAccount: { name: 'installer', grant: true } });
    const p = await send<InstallPlanResult>(plan, body);
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.blockers, []);
    // The account and its rights exist before the group that names them (OLM's docs' order).
    assert.deepEqual(
      p.body.objects.map((o) => `${o.action} ${o.kind}`),
      [
        'create Namespace',
        'create ServiceAccount',
        'create ClusterRole',
        'create ClusterRoleBinding',
        'create Role',
        'create RoleBinding',
        'create OperatorGroup',
        'create Subscription',
      ],
    );
    const a = await send<{ created: { kind: string }[] }>(apply, body);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const group = (await admin.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'scoped-one' })).items[0];
    assert.equal(group?.spec?.serviceAccountName, 'installer');
    // quillmq depends on tenant-core: the grant covers what OLM installs for it too, so the one
    // plan completes and both operators run.
    assert.match(p.body.scoped?.dependencies?.message ?? '', /OLM installs tenant-core\.v[\d.]+ with it/);
    assert.equal(p.body.scoped?.dependencies?.included, true);
    await succeeded('scoped-one');
    const plans = await until('the plan to complete', async () => {
      const items = (await admin.list<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'scoped-one' })).items;
      return items.every((x) => x.status?.phase === 'Complete') ? items : undefined;
    });
    assert.deepEqual(
      plans.map(
        (x) =>
          (x.status as { attenuatedServiceAccountRef?: { name?: string } } | undefined)?.attenuatedServiceAccountRef
            ?.name,
      ),
      ['installer'],
    );
    const csvs = (await admin.list<ClusterServiceVersion>(CSV_TYPE, { namespace: 'scoped-one' })).items;
    assert.deepEqual(csvs.map((c) => [c.metadata?.name?.split('.v')[0], c.status?.phase]).sort(), [
      ['quillmq', 'Succeeded'],
      ['tenant-core', 'Succeeded'],
    ]);
    // Exported for GitOps, the install carries its account, and says its rights must be added.
    const quill = csvs.find((c) => c.metadata?.name?.startsWith('quillmq.'))!.metadata!.name!;
    const { GET: exportRoute } = await import('../operators/[namespace]/[name]/export/route');
    const { body: exported } = await sb.call<{ files: { path: string; content: string }[]; notes: string[] }>(
      exportRoute,
      `/api/operators/scoped-one/${quill}/export`,
      { params: { namespace: 'scoped-one', name: quill } },
    );
    assert.ok(
      exported.files.some((f) => f.path === 'cluster-scope/serviceaccounts/scoped-one/installer.yaml'),
      JSON.stringify(exported.files.map((f) => f.path)),
    );
    assert.match(exported.notes.join('\n'), /names service account installer: .* add them/);
  });

  test('a namespace admin installs where the group names an account; OLM waits for the rights, which an administrator applies from the plan', async () => {
    await admin.create(SA, { metadata: { name: 'deployer', namespace: 'team1' } });
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'team1', namespace: 'team1' },
      spec: { targetNamespaces: ['team1'], serviceAccountName: 'deployer' },
    });
    // Alice may create Roles in team1 but not ClusterRoles, and quillmq asks for cluster permissions.
    const granting = await send<InstallPlanResult>(
      plan,
      install('team1', { serviceAccount: { name: 'deployer', grant: true } }),
      'alice',
    );
    assert.match(
      granting.body.blockers.map((b) => b.message).join('\n'),
      /you may not grant service account deployer its rights/,
    );
    const p = await send<InstallPlanResult>(plan, install('team1'), 'alice');
    assert.deepEqual(p.body.blockers, []);
    assert.deepEqual(
      [p.body.scoped?.serviceAccount, p.body.scoped?.groupIsNew, p.body.scoped?.accountExists, p.body.scoped?.granted],
      ['deployer', false, true, false],
    );
    const a = await send(apply, install('team1'), 'alice');
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const refused = await until('OLM to be refused', async () => {
      const plans = (await admin.list<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items;
      return plans.map((x) => x.status?.message ?? '').find((m) => /forbidden/.test(m));
    });
    assert.match(
      refused,
      /User "system:serviceaccount:team1:deployer" cannot create resource "clusterserviceversions"/,
    );
    // What the plan handed over, applied by an administrator.
    for (const o of p.body.scoped!.rbac.objects) {
      const meta = o.metadata as { namespace?: string };
      await admin.create(
        rbac(o.kind as string, !!meta.namespace),
        o,
        meta.namespace ? { namespace: meta.namespace } : {},
      );
    }
    await succeeded('team1');
  });

  test('asking for another account than the group names is refused with the reason', async () => {
    const p = await send<InstallPlanResult>(
      plan,
      install('team1', { package: 'cachely', channel: 'alpha', serviceAccount: { name: 'other', grant: false } }),
    );
    assert.match(
      p.body.blockers.map((b) => b.message).join(),
      /OperatorGroup team1 of namespace team1 names service account deployer/,
    );
    const bad = await send(plan, install('team1', { serviceAccount: { name: 'Not Valid', grant: false } }));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /serviceAccount\.name/);
  });
});
