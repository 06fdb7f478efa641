// OperatorGroups that name a service account (`spec.serviceAccountName`), and the upgrade of an
// operator whose service account its previous version owns, against the sandbox. The expected
// words and histories are what real OLM v0.38.0 wrote on a real cluster (scripts/cluster.ts,
// 2026-11-24), not lib/olm's.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  RbacAuthorizationV1Api,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { withSandbox } from '../testing/sandbox-fixture';

const OLM = 'operators.coreos.com';
type Cond = { type: string; status: string; reason?: string; message?: string };
type Obj = {
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
};

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('scoped OperatorGroups and shared service accounts', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  let rbac: RbacAuthorizationV1Api;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'olm-fixture-'));
    writeFixtureCatalog(join(dir, 'cat'), [
      {
        name: 'alpha',
        bundles: [
          { version: '1.0.0' },
          { version: '1.1.0', replaces: '1.0.0' },
          { version: '2.0.0', replaces: '1.1.0' },
        ],
      },
    ]);
    sb = await withSandbox({ catalogs: [join(dir, 'cat')], deploymentDelayMs: 20 });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    core = kc.makeApiClient(CoreV1Api);
    rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  });
  after(() => sb.close());

  const get = (plural: string, ns: string, name: string, version = 'v1alpha1') =>
    custom.getNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, name }) as Promise<Obj>;
  const list = async (plural: string, ns: string) =>
    (
      (await custom.listNamespacedCustomObject({ group: OLM, version: 'v1alpha1', namespace: ns, plural })) as {
        items: Obj[];
      }
    ).items;
  const create = (plural: string, ns: string, body: object, version = 'v1alpha1') =>
    custom.createNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, body });
  const setup = async (ns: string, og: Record<string, unknown>, sub: Record<string, unknown> = {}) => {
    await core.createNamespace({ body: { metadata: { name: ns } } });
    if (og.account)
      await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: og.account as string } } });
    await create(
      'operatorgroups',
      ns,
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: {
          targetNamespaces: [ns],
          ...(og.serviceAccountName ? { serviceAccountName: og.serviceAccountName } : {}),
        },
      },
      'v1',
    );
    await create('subscriptions', ns, {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: 'alpha' },
      spec: { name: 'alpha', source: 'cat', sourceNamespace: 'olm', channel: 'stable', ...sub },
    });
  };
  const plan = async (ns: string) => (await list('installplans', ns))[0];
  const planStatus = (p: Obj | undefined) =>
    (p?.status ?? {}) as {
      phase?: string;
      message?: string;
      conditions?: Cond[];
      attenuatedServiceAccountRef?: { name: string };
      plan?: { status: string; resource: { kind: string } }[];
    };
  const grant = async (ns: string, rules: object[]) => {
    await rbac.createNamespacedRole({ namespace: ns, body: { metadata: { name: 'scoped' }, rules } as never });
    await rbac.createNamespacedRoleBinding({
      namespace: ns,
      body: {
        metadata: { name: 'scoped-bindings' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'scoped' },
        subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }],
      },
    });
  };

  test('an OperatorGroup naming an account that does not exist: the group says so and the plan waits', async () => {
    await setup('scoped-missing', { serviceAccountName: 'installer' });
    const p = await until(
      async () => (planStatus(await plan('scoped-missing')).conditions?.length ? plan('scoped-missing') : undefined),
      'the plan to say why it waits',
    );
    const st = planStatus(p);
    assert.equal(st.phase, 'Installing');
    assert.deepEqual(
      st.conditions!.map((c) => [c.type, c.status, c.reason, c.message]),
      [['Installed', 'False', 'InstallCheckFailed', 'no operator group found that is managing this namespace']],
    );
    assert.deepEqual(
      st.plan!.map((s) => s.status),
      st.plan!.map(() => 'Unknown'),
    );
    // The group's sync stops at the account: no target namespaces, no reference.
    const og = (await get('operatorgroups', 'scoped-missing', 'og', 'v1')).status as {
      namespaces?: string[];
      serviceAccountRef?: unknown;
      conditions: Cond[];
    };
    assert.equal(og.namespaces, undefined);
    assert.equal(og.serviceAccountRef, undefined);
    assert.deepEqual(
      og.conditions.map((c) => [c.type, c.status, c.reason, c.message]),
      [['OperatorGroupServiceAccount', 'True', 'ServiceAccountNotFound', 'ServiceAccount installer not found']],
    );
    const sub = await until(
      async () =>
        ((await get('subscriptions', 'scoped-missing', 'alpha')).status?.conditions as Cond[] | undefined)?.find(
          (c) => c.type === 'InstallPlanPending' && c.message,
        ),
      'InstallPlanPending with the reason',
    );
    assert.deepEqual(
      [sub.status, sub.reason, sub.message],
      ['True', 'Installing', 'no operator group found that is managing this namespace'],
    );
  });

  test("an account without rights: every write refused, the plan retries; granted as OLM's docs suggest, it installs", async () => {
    await setup('scoped', { account: 'installer', serviceAccountName: 'installer' });
    const p = await until(
      async () => (planStatus(await plan('scoped')).message ? plan('scoped') : undefined),
      'the plan to retry',
    );
    const st = planStatus(p);
    assert.equal(st.phase, 'Installing');
    assert.equal(
      st.message,
      'retrying execution due to error: error creating csv alpha.v2.0.0: clusterserviceversions.operators.coreos.com is forbidden: User "system:serviceaccount:scoped:installer" cannot create resource "clusterserviceversions" in API group "operators.coreos.com" in the namespace "scoped"',
    );
    assert.equal(st.conditions, undefined);
    assert.equal(st.attenuatedServiceAccountRef?.name, 'installer');
    // The CSV is the plan's first step: nothing after it was written, the CRD neither.
    assert.deepEqual(
      st.plan!.map((s) => `${s.resource.kind}/${s.status}`),
      [
        'ClusterServiceVersion/Unknown',
        'CustomResourceDefinition/Unknown',
        'ServiceAccount/Unknown',
        'Role/Unknown',
        'RoleBinding/Unknown',
      ],
    );
    const og = (await get('operatorgroups', 'scoped', 'og', 'v1')).status as {
      namespaces: string[];
      serviceAccountRef: { kind: string; name: string; namespace: string };
      conditions?: Cond[];
    };
    assert.deepEqual(
      [
        og.namespaces,
        og.serviceAccountRef.kind,
        og.serviceAccountRef.name,
        og.serviceAccountRef.namespace,
        og.conditions,
      ],
      [['scoped'], 'ServiceAccount', 'installer', 'scoped', undefined],
    );
    assert.equal(
      (await core.readNamespacedServiceAccount({ namespace: 'scoped', name: 'installer' })).metadata?.labels?.[
        'olm.managed'
      ],
      'true',
    );
    const conds = (await get('subscriptions', 'scoped', 'alpha')).status?.conditions as Cond[];
    assert.deepEqual(
      conds.find((c) => c.type === 'InstallPlanPending'),
      { ...conds.find((c) => c.type === 'InstallPlanPending'), status: 'True', reason: 'Installing' },
    );
    assert.equal(conds.find((c) => c.type === 'InstallPlanPending')!.message, undefined);

    await grant('scoped', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    await until(
      async () => (await get('clusterserviceversions', 'scoped', 'alpha.v2.0.0')).status?.phase === 'Succeeded',
      'the CSV to succeed',
    );
    const done = planStatus(await plan('scoped'));
    assert.deepEqual(
      [done.phase, done.message, done.conditions!.map((c) => [c.type, c.status])],
      ['Complete', undefined, [['Installed', 'True']]],
    );
  });

  test('an account that may write the plan but not the deployment: the CSV fails without retry', async () => {
    await setup('scoped-nodeploy', { account: 'installer', serviceAccountName: 'installer' });
    await grant('scoped-nodeploy', [
      {
        apiGroups: ['', 'operators.coreos.com', 'rbac.authorization.k8s.io', 'alpha.example.com'],
        resources: ['*'],
        verbs: ['*'],
      },
    ]);
    const csv = await until(async () => {
      const c = await get('clusterserviceversions', 'scoped-nodeploy', 'alpha.v2.0.0');
      return (c.status as { phase?: string } | undefined)?.phase === 'Failed' ? c : undefined;
    }, 'the CSV to fail');
    const st = csv.status as { reason: string; message: string };
    assert.equal(st.reason, 'InstallComponentFailedNoRetry');
    assert.equal(
      st.message,
      'install strategy failed: install strategy failed: deployments.apps "alpha-operator" is forbidden: User "system:serviceaccount:scoped-nodeploy:installer" cannot get resource "deployments" in API group "apps" in the namespace "scoped-nodeploy"',
    );
    assert.equal(planStatus(await plan('scoped-nodeploy')).phase, 'Complete');
  });

  test("an upgrade sharing its service account passes Failed/RequirementsNotMet when the old version's roles go", async () => {
    await setup('shared', {}, { startingCSV: 'alpha.v1.1.0', installPlanApproval: 'Manual' });
    const approve = async (csv: string) => {
      const p = await until(
        async () =>
          (await list('installplans', 'shared')).find((x) =>
            (x.spec.clusterServiceVersionNames as string[]).includes(csv),
          ),
        `the plan for ${csv}`,
      );
      await custom.patchNamespacedCustomObject(
        {
          group: OLM,
          version: 'v1alpha1',
          namespace: 'shared',
          plural: 'installplans',
          name: p.metadata.name,
          body: { spec: { approved: true } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    };
    await approve('alpha.v1.1.0');
    await until(
      async () => (await get('clusterserviceversions', 'shared', 'alpha.v1.1.0')).status?.phase === 'Succeeded',
      'the first version',
    );
    await approve('alpha.v2.0.0');
    await until(
      async () => (await get('clusterserviceversions', 'shared', 'alpha.v2.0.0')).status?.phase === 'Succeeded',
      'the upgrade',
    );
    await until(
      async () => !(await list('clusterserviceversions', 'shared')).some((c) => c.metadata.name === 'alpha.v1.1.0'),
      'the old CSV to go',
    );
    const st = await until(async () => {
      const s = (await get('clusterserviceversions', 'shared', 'alpha.v2.0.0')).status as {
        phase: string;
        conditions: { phase: string; reason: string }[];
        requirementStatus: { kind: string }[];
      };
      return s.phase === 'Succeeded' && s.conditions.some((c) => c.phase === 'Failed') ? s : undefined;
    }, 'the new CSV to succeed again');
    // As real OLM v0.38.0 went through it (InstallWaiting comes and goes with the rollout).
    assert.deepEqual(
      st.conditions.map((c) => `${c.phase}/${c.reason}`).filter((h) => h !== 'Installing/InstallWaiting'),
      [
        'Pending/RequirementsUnknown',
        'Pending/RequirementsNotMet',
        'InstallReady/AllRequirementsMet',
        'Installing/InstallSucceeded',
        'Succeeded/InstallSucceeded',
        'Failed/RequirementsNotMet',
        'Pending/RequirementsNotMet',
        'InstallReady/AllRequirementsMet',
        'Installing/InstallSucceeded',
        'Succeeded/InstallSucceeded',
      ],
    );
    // Its own roles now: the account is not listed.
    assert.deepEqual(
      st.requirementStatus.map((r) => r.kind),
      ['CustomResourceDefinition'],
    );
    // The account is the new version's alone; the old version's Role went with it.
    const sa = await core.readNamespacedServiceAccount({ namespace: 'shared', name: 'alpha-operator' });
    assert.ok(sa.metadata?.ownerReferences?.some((o) => o.name === 'alpha.v2.0.0'));
    const roles = (await rbac.listNamespacedRole({ namespace: 'shared' })).items
      .map((r) => r.metadata?.labels?.['olm.owner'])
      .filter(Boolean);
    assert.ok(roles.length > 0 && roles.every((o) => o === 'alpha.v2.0.0'), `roles owned by ${roles.join(', ')}`);
  });
});
