// The OLM flow against the sandbox over HTTPS with @kubernetes/client-node, as the console drives a
// cluster: upgrades one approval at a time, what an installed operator owns, an operator holding its
// upgrade back, the roles a namespace admin gets, and one InstallPlan for a namespace.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type AppsV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { merge, OLM, olmFlow, until, type FlowSandbox, type Obj } from './testing/olm-flow';

describe('OLM emulation: upgrades and what an operator owns', () => {
  const flow = olmFlow();
  let sb: FlowSandbox;
  let custom: CustomObjectsApi;
  let apps: AppsV1Api;
  before(() => {
    ({ sb, custom, apps } = flow);
  });
  const { get, list, create, ns, subscribe, phaseOf, pendingPlan, approve } = flow;

  test('Manual approval, one edge per InstallPlan: 1.0.0 → 1.1.0 → 1.2.0', async () => {
    await ns('ladder');
    await create(
      'operatorgroups',
      'ladder',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['ladder'] },
      },
      'v1',
    );
    await subscribe('ladder', 'ladder', { installPlanApproval: 'Manual', startingCSV: 'ladder.v1.0.0' });
    for (const [from, to] of [
      [undefined, '1.0.0'],
      ['1.0.0', '1.1.0'],
      ['1.1.0', '1.2.0'],
    ] as const) {
      const plan = await pendingPlan('ladder');
      assert.deepEqual(
        plan.spec.clusterServiceVersionNames,
        [`ladder.v${to}`],
        `the plan after ${from ?? 'nothing'} installs only the next edge`,
      );
      const sub = await get('subscriptions', 'ladder', 'ladder');
      assert.equal((sub.status as { state: string }).state, 'UpgradePending');
      assert.equal(
        (sub.status as { conditions: { type: string; reason: string }[] }).conditions.find(
          (c) => c.type === 'InstallPlanPending',
        )?.reason,
        'RequiresApproval',
      );
      await approve('ladder', plan.metadata.name);
      await until(
        async () => (await phaseOf('ladder', `ladder.v${to}`))?.phase === 'Succeeded',
        `ladder.v${to} Succeeded`,
      );
      if (from)
        await until(
          async () =>
            !(await list('clusterserviceversions', 'ladder')).some((c) => c.metadata.name === `ladder.v${from}`),
          `ladder.v${from} replaced and deleted`,
        );
    }
    const sub = await until(async () => {
      const s = await get('subscriptions', 'ladder', 'ladder');
      return (s.status as { state?: string }).state === 'AtLatestKnown' ? s : undefined;
    }, 'AtLatestKnown');
    assert.equal((sub.status as { installedCSV: string }).installedCSV, 'ladder.v1.2.0');
    const csv = await get('clusterserviceversions', 'ladder', 'ladder.v1.2.0');
    assert.equal(csv.spec.replaces, 'ladder.v1.1.0');
    assert.equal(csv.metadata.annotations?.['olm.targetNamespaces'], 'ladder');
    // The Subscription is AtLatestKnown once the CSV exists; its Deployment reports available a
    // little later (the sandbox's rollout delay), as on a cluster.
    const dep = await until(async () => {
      const d = await apps.readNamespacedDeployment({ namespace: 'ladder', name: 'ladder-operator' });
      return d.status?.availableReplicas === 1 && d.metadata?.ownerReferences?.[0]?.name === 'ladder.v1.2.0'
        ? d
        : undefined;
    }, 'the v1.2.0 Deployment available');
    assert.equal(dep.metadata?.ownerReferences?.[0]?.name, 'ladder.v1.2.0');
    const steps = (
      (await list('installplans', 'ladder'))[0]!.status as { plan: { resource: { kind: string }; status: string }[] }
    ).plan;
    assert.deepEqual([...new Set(steps.map((s) => s.resource.kind))].sort(), [
      'ClusterServiceVersion',
      'CustomResourceDefinition',
      'Role',
      'RoleBinding',
      'ServiceAccount',
    ]);
  });

  test("an upgrade's plan writes its ServiceAccount with the step's labels alone (EnsureServiceAccount)", async () => {
    // OLM v0.38.0 step_ensurer.go: an account already there is updated with the step's labels,
    // owners merged and annotations carried over, whenever the step's account is not contained in
    // the live one; the new CSV's owner is such a change, so a label put there by another tool goes.
    await ns('relabel');
    await create(
      'operatorgroups',
      'relabel',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['relabel'] },
      },
      'v1',
    );
    await subscribe('relabel', 'ladder', { installPlanApproval: 'Manual', startingCSV: 'ladder.v1.0.0' });
    await approve('relabel', (await pendingPlan('relabel')).metadata.name);
    await until(async () => (await phaseOf('relabel', 'ladder.v1.0.0'))?.phase === 'Succeeded', 'ladder.v1.0.0');
    await flow.core.patchNamespacedServiceAccount(
      {
        namespace: 'relabel',
        name: 'ladder-operator',
        body: {
          metadata: {
            labels: { 'app.kubernetes.io/managed-by': 'Helm' },
            annotations: { 'meta.helm.sh/release-name': 'ladder' },
          },
        },
      },
      merge,
    );
    const plan = await pendingPlan('relabel');
    assert.deepEqual(plan.spec.clusterServiceVersionNames, ['ladder.v1.1.0']);
    await approve('relabel', plan.metadata.name);
    await until(async () => (await phaseOf('relabel', 'ladder.v1.1.0'))?.phase === 'Succeeded', 'ladder.v1.1.0');
    const sa = await flow.core.readNamespacedServiceAccount({ namespace: 'relabel', name: 'ladder-operator' });
    assert.equal(sa.metadata?.labels?.['app.kubernetes.io/managed-by'], undefined, 'the foreign label is gone');
    assert.equal(sa.metadata?.labels?.['olm.managed'], 'true');
    assert.equal(sa.metadata?.annotations?.['meta.helm.sh/release-name'], 'ladder', 'annotations are carried over');
    assert.ok(
      sa.metadata?.ownerReferences?.some((o) => o.name === 'ladder.v1.1.0'),
      'the new CSV owns it',
    );
  });

  test('adoption (OLM adoption_controller.go): the operator label on the Subscription, its installed CSV, what that CSV owns and its CRD, and only the latest InstallPlan; the Operator lists them', async () => {
    // After the ladder walk above: three plans, the Subscription pointing at the last.
    const key = 'operators.coreos.com/ladder.ladder';
    const sub = await get('subscriptions', 'ladder', 'ladder');
    const latest = (sub.status as { installPlanRef: { name: string } }).installPlanRef.name;
    const plans = await until(async () => {
      const all = await list('installplans', 'ladder');
      return all.filter((p) => key in (p.metadata.labels ?? {})).length === 1 ? all : undefined;
    }, 'older plans disowned');
    assert.deepEqual(
      plans.filter((p) => key in (p.metadata.labels ?? {})).map((p) => p.metadata.name),
      [latest],
    );
    assert.equal(plans.length, 3);
    assert.ok(key in (sub.metadata.labels ?? {}));
    assert.ok(key in ((await get('clusterserviceversions', 'ladder', 'ladder.v1.2.0')).metadata.labels ?? {}));
    const dep = await apps.readNamespacedDeployment({ namespace: 'ladder', name: 'ladder-operator' });
    assert.ok(key in (dep.metadata?.labels ?? {}));
    const crd = (await custom.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'ladders.ladder.example.com',
    })) as Obj;
    assert.ok(key in (crd.metadata.labels ?? {}));
    await until(
      async () =>
        ((await get('clusterserviceversions', 'ladder', 'ladder.v1.2.0')).status as { phase?: string }).phase ===
        'Succeeded',
      'ladder.v1.2.0 Succeeded',
    );
    // The Operator is rewritten after the CSV it lists changes, not with it: wait until its CSV ref
    // has caught up with the phase, then look at the whole of it.
    const operator = (await until(async () => {
      const o = (await custom.getClusterCustomObject({
        group: OLM,
        version: 'v1',
        plural: 'operators',
        name: 'ladder.ladder',
      })) as Obj;
      const refs = (o.status as { components?: { refs?: { kind: string; conditions?: { type: string }[] }[] } })
        ?.components?.refs;
      const csvRef = refs?.find((r) => r.kind === 'ClusterServiceVersion');
      return csvRef?.conditions?.some((c) => c.type === 'Succeeded') ? o : undefined;
    }, 'the Operator ladder.ladder listing its CSV as Succeeded')) as Obj;
    const components = (
      operator.status as {
        components: { labelSelector: unknown; refs: { kind: string; name: string; conditions?: { type: string }[] }[] };
      }
    ).components;
    assert.deepEqual(components.labelSelector, { matchExpressions: [{ key, operator: 'Exists' }] });
    const kinds = components.refs.map((r) => r.kind);
    assert.deepEqual(kinds, [...kinds].sort(), 'refs sorted by kind first');
    for (const k of [
      'ClusterServiceVersion',
      'CustomResourceDefinition',
      'Deployment',
      'InstallPlan',
      'Subscription',
      'ServiceAccount',
    ])
      assert.ok(kinds.includes(k), `a ${k} among the components`);
    assert.deepEqual(
      components.refs.find((r) => r.kind === 'ClusterServiceVersion')?.conditions?.map((c) => c.type),
      ['Succeeded'],
      "a CSV's one condition is its phase",
    );
  });

  test('OperatorCondition Upgradeable=False holds the next version back in Pending', async () => {
    await ns('held');
    await create(
      'operatorgroups',
      'held',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['held'] },
      },
      'v1',
    );
    await subscribe('held', 'ladder', { installPlanApproval: 'Manual', startingCSV: 'ladder.v1.0.0' });
    await approve('held', (await pendingPlan('held')).metadata.name);
    await until(async () => (await phaseOf('held', 'ladder.v1.0.0'))?.phase === 'Succeeded', 'v1.0.0 Succeeded');
    const oc = await until(
      () => get('operatorconditions', 'held', 'ladder.v1.0.0', 'v2'),
      'an OperatorCondition for the CSV',
    );
    assert.deepEqual(oc.spec.deployments, ['ladder-operator']);
    assert.deepEqual(oc.spec.serviceAccounts, ['ladder-operator']);
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v2',
        namespace: 'held',
        plural: 'operatorconditions',
        name: 'ladder.v1.0.0',
        body: {
          spec: {
            conditions: [
              {
                type: 'Upgradeable',
                status: 'False',
                reason: 'Migrating',
                message: 'schema migration in progress',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
          },
        },
      },
      merge,
    );
    await approve('held', (await pendingPlan('held')).metadata.name);
    const st = await until(async () => {
      const s = await phaseOf('held', 'ladder.v1.1.0');
      return s?.reason === 'OperatorConditionNotUpgradeable' ? s : undefined;
    }, 'the new version held in Pending');
    assert.equal(st.phase, 'Pending');
    assert.equal(
      (st as { message?: string }).message,
      'operator is not upgradeable: the operator is not upgradeable: schema migration in progress',
    );
    // While both CSVs exist, the solver cannot keep the one no Subscription refers to (real OLM
    // v0.38.0 wrote this on the Subscription, naming the API or the package the two share).
    const failed = await until(
      async () =>
        (
          (await get('subscriptions', 'held', 'ladder')).status as {
            conditions?: { type: string; reason: string; message: string }[];
          }
        ).conditions?.find((c) => c.type === 'ResolutionFailed'),
      'ResolutionFailed while both CSVs exist',
    );
    assert.equal(failed.reason, 'ConstraintsNotSatisfiable');
    assert.equal(
      failed.message,
      'constraints not satisfiable: @existing/held//ladder.v1.0.0 and @existing/held//ladder.v1.1.0 provide Ladder (ladder.example.com/v1), clusterserviceversion ladder.v1.0.0 exists and is not referenced by a subscription, subscription ladder exists, subscription ladder requires @existing/held//ladder.v1.1.0',
    );
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v2',
        namespace: 'held',
        plural: 'operatorconditions',
        name: 'ladder.v1.0.0',
        body: {
          spec: {
            conditions: [
              {
                type: 'Upgradeable',
                status: 'True',
                reason: 'Done',
                message: 'ready',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
          },
        },
      },
      merge,
    );
    await until(
      async () => (await phaseOf('held', 'ladder.v1.1.0'))?.phase === 'Succeeded',
      'the upgrade goes on once Upgradeable',
    );
  });

  test('generated ClusterRoles let a namespace admin create operands, and go with their OperatorGroup', async () => {
    // ladder is Succeeded in "held" and "ladder"; its CRD roles aggregate into admin, which alice has in team1.
    const role = await until(
      () =>
        custom.getClusterCustomObject({
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          plural: 'clusterroles',
          name: 'ladders.ladder.example.com-v1-admin',
        }) as Promise<Obj & { rules: { resources: string[] }[] }>,
      'the per-CRD admin role',
    );
    assert.deepEqual(role.rules[0]!.resources, ['ladders']);
    const ka = new KubeConfig();
    ka.loadFromFile(sb.kubeconfigs.alice!);
    const alice = ka.makeApiClient(CustomObjectsApi);
    await alice.createNamespacedCustomObject({
      group: 'ladder.example.com',
      version: 'v1',
      namespace: 'team1',
      plural: 'ladders',
      body: { apiVersion: 'ladder.example.com/v1', kind: 'Ladder', metadata: { name: 'mine' }, spec: {} },
    });
    const roles = async () =>
      (
        (await custom.listClusterCustomObject({
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          plural: 'clusterroles',
          labelSelector: 'olm.owner=og,olm.owner.namespace=held',
        })) as { items: Obj[] }
      ).items;
    assert.equal(
      (
        await until(
          async () => ((await roles()).length === 3 ? roles() : undefined),
          'three roles for the OperatorGroup',
        )
      ).length,
      3,
    );
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1',
      namespace: 'held',
      plural: 'operatorgroups',
      name: 'og',
    });
    await until(async () => (await roles()).length === 0, 'the OperatorGroup roles gone');
  });

  test('Subscriptions in one namespace share one InstallPlan, with the strictest approval', async () => {
    await ns('colocated');
    await create(
      'operatorgroups',
      'colocated',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['colocated'] },
      },
      'v1',
    );
    // Both created before the namespace is resolved: one resolution, one plan.
    const body = (name: string, approval: string) => ({
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name, namespace: 'colocated' },
      spec: { name, source: 'cat-v1', sourceNamespace: 'olm', channel: 'stable', installPlanApproval: approval },
    });
    const subRes = sb.api.resources.find(OLM, 'v1alpha1', 'subscriptions')!;
    sb.api.createObject(subRes, body('webhook', 'Automatic') as never);
    sb.api.createObject(subRes, body('ownonly', 'Manual') as never);
    const plan = await pendingPlan('colocated');
    assert.equal(plan.spec.approval, 'Manual', 'Manual because one Subscription is Manual');
    assert.deepEqual([...(plan.spec.clusterServiceVersionNames as string[])].sort(), [
      'ownonly.v1.0.0',
      'webhook.v1.0.0',
    ]);
    const owners = (plan.metadata as { ownerReferences?: { name: string }[] }).ownerReferences
      ?.map((o) => o.name)
      .sort();
    assert.deepEqual(owners, ['ownonly', 'webhook']);
    await approve('colocated', plan.metadata.name);
    await until(
      async () =>
        (await phaseOf('colocated', 'webhook.v1.0.0'))?.phase === 'Succeeded' &&
        (await phaseOf('colocated', 'ownonly.v1.0.0'))?.phase === 'Succeeded',
      'both installed by one approval',
    );
  });
});
