// The OLM flow of the seeds against the sandbox, driven over HTTPS with @kubernetes/client-node
// as the console would drive a cluster.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { withSandbox } from '../testing/sandbox-fixture';
import { CATALOG_DIR_ANNOTATION } from './catalog-sources';

const OLM = 'operators.coreos.com';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
type Obj = {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
};

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('OLM emulation', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const v1Dir = () => join(sb.dir, 'cat-v1');
  const v2Dir = () => join(sb.dir, 'cat-v2');

  before(async () => {
    // A catalog that will be replaced by newer content during the tests.
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'olm-fixture-'));
    writeFixtureCatalog(join(dir, 'cat-v1'), [
      {
        name: 'ladder',
        bundles: [
          { version: '1.0.0' },
          { version: '1.1.0', replaces: '1.0.0' },
          { version: '1.2.0', replaces: '1.1.0' },
        ],
      },
      { name: 'webhook', bundles: [{ version: '1.0.0' }] },
      {
        name: 'ownonly',
        bundles: [{ version: '1.0.0', installModes: { AllNamespaces: false, SingleNamespace: false } }],
      },
      {
        name: 'needy',
        bundles: [{ version: '1.0.0', requiresGvk: { group: 'nowhere.example.com', version: 'v1', kind: 'Ghost' } }],
      },
      {
        name: 'certs',
        group: 'certs.example.com',
        kind: 'Certificate',
        bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }],
      },
      {
        name: 'secure',
        bundles: [
          { version: '2.0.0', requiresGvk: { group: 'certs.example.com', version: 'v1', kind: 'Certificate' } },
        ],
      },
      { name: 'gw-a', group: 'net.example.com', kind: 'Gateway', bundles: [{ version: '1.0.0' }] },
      { name: 'gw-b', group: 'net.example.com', kind: 'Gateway', bundles: [{ version: '1.0.0' }] },
      {
        name: 'tenant',
        bundles: [{ version: '1.0.0', requiresPackage: { packageName: 'certs', versionRange: '>=1.0.0 <1.1.0' } }],
      },
    ]);
    writeFixtureCatalog(join(dir, 'cat-v2'), [
      { name: 'webhook', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
    ]);
    sb = await withSandbox({ catalogs: [join(dir, 'cat-v1')], deploymentDelayMs: 30 });
    // keep the catalog folders with the sandbox's own temp dir for cleanup by the OS
    Object.assign(sb, { fixtureDir: dir });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    void v1Dir;
    void v2Dir;
  });
  after(() => sb.close());

  const get = (plural: string, ns: string, name: string, version = 'v1alpha1') =>
    custom.getNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, name }) as Promise<Obj>;
  const list = async (plural: string, ns: string, version = 'v1alpha1') =>
    ((await custom.listNamespacedCustomObject({ group: OLM, version, namespace: ns, plural })) as { items: Obj[] })
      .items;
  const create = (plural: string, ns: string, body: object, version = 'v1alpha1') =>
    custom.createNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, body });
  const ns = async (name: string) => core.createNamespace({ body: { metadata: { name } } });
  const subscribe = (namespace: string, pkg: string, extra: Record<string, unknown> = {}) =>
    create('subscriptions', namespace, {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: pkg },
      spec: { name: pkg, source: 'cat-v1', sourceNamespace: 'olm', channel: 'stable', ...extra },
    });
  const phaseOf = async (namespace: string, csv: string) =>
    (await get('clusterserviceversions', namespace, csv)).status as { phase?: string; reason?: string } | undefined;
  const pendingPlan = (namespace: string) =>
    until(
      async () =>
        (await list('installplans', namespace)).find(
          (p) => (p.status as { phase?: string } | undefined)?.phase === 'RequiresApproval',
        ),
      'an InstallPlan waiting for approval',
    );
  const approve = (namespace: string, name: string) =>
    custom.patchNamespacedCustomObject(
      { group: OLM, version: 'v1alpha1', namespace, plural: 'installplans', name, body: { spec: { approved: true } } },
      merge,
    );

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
    const operator = (await until(async () => {
      const o = (await custom.getClusterCustomObject({
        group: OLM,
        version: 'v1',
        plural: 'operators',
        name: 'ladder.ladder',
      })) as Obj;
      return (o.status as { components?: unknown } | undefined)?.components ? o : undefined;
    }, 'the Operator ladder.ladder')) as Obj;
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

  test('AllNamespaces: Copied CSVs everywhere, also in later namespaces; disableCopiedCSVs removes them; re-enabled they return', async () => {
    await subscribe('operators', 'webhook');
    await until(async () => (await phaseOf('operators', 'webhook.v1.0.0'))?.phase === 'Succeeded', 'webhook Succeeded');
    const copy = await until(() => get('clusterserviceversions', 'team1', 'webhook.v1.0.0'), 'a copy in team1');
    assert.equal(copy.metadata.labels?.['olm.copiedFrom'], 'operators');
    assert.equal((copy.status as { reason: string }).reason, 'Copied');
    assert.equal(
      (copy.status as { message: string }).message,
      'The operator is running in operators but is managing this namespace',
    );
    assert.equal(copy.metadata.annotations?.['olm.targetNamespaces'], undefined);
    await ns('later');
    await until(() => get('clusterserviceversions', 'later', 'webhook.v1.0.0'), 'a copy in a namespace created later');

    await custom.patchClusterCustomObject(
      {
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
        body: { spec: { features: { disableCopiedCSVs: true } } },
      },
      merge,
    );
    await until(
      async () => (await list('clusterserviceversions', 'team1')).every((c) => c.metadata.name !== 'webhook.v1.0.0'),
      'copies gone',
    );
    const cfg = await until(async () => {
      const c = (await custom.getClusterCustomObject({
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
      })) as Obj;
      const cond = (
        c.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined
      )?.conditions?.find((x) => x.type === 'DisabledCopiedCSVs');
      return cond?.status === 'True' ? cond : undefined;
    }, 'DisabledCopiedCSVs=True on the OLMConfig');
    assert.equal(cfg.reason, 'CopiedCSVsDisabled');
    assert.equal((await phaseOf('operators', 'webhook.v1.0.0'))?.phase, 'Succeeded', 'the operator itself stays');
    const disabledEvents = async () =>
      (await core.listNamespacedEvent({ namespace: 'operators' })).items.filter(
        (e) => e.reason === 'DisabledCopiedCSVs' && e.involvedObject.name === 'webhook.v1.0.0',
      );
    const [warning] = await until(
      async () => ((await disabledEvents()).length ? disabledEvents() : undefined),
      'a DisabledCopiedCSVs event on the CSV',
    );
    assert.equal(warning!.type, 'Warning');
    assert.equal(warning!.message, 'CSV copying disabled for operators/webhook.v1.0.0');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await disabledEvents()).length, 1, 'one event per CSV, however many syncs');
    await custom.patchClusterCustomObject(
      {
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
        body: { spec: { features: { disableCopiedCSVs: false } } },
      },
      merge,
    );
    await until(() => get('clusterserviceversions', 'team1', 'webhook.v1.0.0'), 'copies back');
    await until(async () => (await disabledEvents()).length === 0, 'the event removed once copying is back');
  });

  test('new catalog content drives an automatic upgrade', async () => {
    const cs = (await custom.getNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'olm',
      plural: 'catalogsources',
      name: 'cat-v1',
    })) as Obj;
    const newDir = cs.metadata.annotations![CATALOG_DIR_ANNOTATION]!.replace(/cat-v1$/, 'cat-v2');
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: 'olm',
        plural: 'catalogsources',
        name: 'cat-v1',
        body: { metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: newDir } } },
      },
      merge,
    );
    await until(
      async () => (await phaseOf('operators', 'webhook.v1.1.0'))?.phase === 'Succeeded',
      'webhook upgraded to 1.1.0',
    );
    await until(
      async () =>
        (await get('clusterserviceversions', 'team1', 'webhook.v1.1.0')).metadata.labels?.['olm.copiedFrom'] ===
        'operators',
      'the copies follow',
    );
    // back to the first content for the other tests
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: 'olm',
        plural: 'catalogsources',
        name: 'cat-v1',
        body: {
          metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: cs.metadata.annotations![CATALOG_DIR_ANNOTATION]! } },
        },
      },
      merge,
    );
  });

  test('two OperatorGroups: nothing resolves, an installed CSV fails TooManyOperatorGroups; an unsupported mode: UnsupportedOperatorGroup, recovering when fixed', async () => {
    await ns('crowded');
    for (const n of ['a', 'b'])
      await create(
        'operatorgroups',
        'crowded',
        {
          apiVersion: `${OLM}/v1`,
          kind: 'OperatorGroup',
          metadata: { name: n },
          spec: { targetNamespaces: ['crowded'] },
        },
        'v1',
      );
    await subscribe('crowded', 'ladder');
    // OLM's resolver stops at "found 2 operatorGroups, expected 1" (resolver/fail_forward.go):
    // the Subscription gets its catalog health and nothing else.
    const seen = await until(
      async () =>
        ((await get('subscriptions', 'crowded', 'ladder')).status as { catalogHealth?: unknown[] } | undefined)
          ?.catalogHealth && (await get('subscriptions', 'crowded', 'ladder')),
      'catalog health',
    );
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await list('installplans', 'crowded'), []);
    assert.deepEqual(
      ((seen.status as { conditions?: { type: string }[] }).conditions ?? []).map((c) => c.type),
      ['CatalogSourcesUnhealthy'],
    );
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1',
      namespace: 'crowded',
      plural: 'operatorgroups',
      name: 'b',
    });
    await until(
      async () => (await phaseOf('crowded', 'ladder.v1.2.0'))?.phase === 'Succeeded',
      'installed once one group is left',
    );
    await create(
      'operatorgroups',
      'crowded',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'b' },
        spec: { targetNamespaces: ['crowded'] },
      },
      'v1',
    );
    await until(
      async () => (await phaseOf('crowded', 'ladder.v1.2.0'))?.reason === 'TooManyOperatorGroups',
      'TooManyOperatorGroups',
    );

    await ns('own');
    await create(
      'operatorgroups',
      'own',
      { apiVersion: `${OLM}/v1`, kind: 'OperatorGroup', metadata: { name: 'all' }, spec: {} },
      'v1',
    );
    await subscribe('own', 'ownonly');
    const st = await until(async () => {
      const s = await phaseOf('own', 'ownonly.v1.0.0');
      return s?.reason === 'UnsupportedOperatorGroup' ? s : undefined;
    }, 'UnsupportedOperatorGroup');
    assert.equal(
      (st as { message?: string }).message,
      'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces',
    );
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1',
        namespace: 'own',
        plural: 'operatorgroups',
        name: 'all',
        body: { spec: { targetNamespaces: ['own'] } },
      },
      merge,
    );
    await until(async () => (await phaseOf('own', 'ownonly.v1.0.0'))?.phase === 'Succeeded', 'recovered to Succeeded');
  });

  test('a missing dependency is ResolutionFailed; an unhealthy catalog is CatalogSourcesUnhealthy', async () => {
    await subscribe('operators', 'needy');
    const cond = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'needy')).status as
            { conditions?: { type: string; reason: string; message: string }[] } | undefined
        )?.conditions?.find((c) => c.type === 'ResolutionFailed'),
      'ResolutionFailed',
    );
    assert.equal(cond.reason, 'ConstraintsNotSatisfiable');
    assert.match(
      cond.message,
      /^constraints not satisfiable: .*group: nowhere\.example\.com, version: v1, kind: Ghost/,
    );
    // Resolution is per namespace: while needy cannot be satisfied, nothing else in it resolves.
    const webhook = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'webhook')).status as
            { conditions?: { type: string; message: string }[] } | undefined
        )?.conditions?.find((c) => c.type === 'ResolutionFailed'),
      'the same failure on webhook',
    );
    assert.equal(webhook.message, cond.message);
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'subscriptions',
      name: 'needy',
    });

    sb.olm.catalogs.setBroken('olm', 'cat-v1', true);
    const unhealthy = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'webhook')).status as {
            conditions: { type: string; status: string; reason: string; message: string }[];
          }
        ).conditions.find((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'True'),
      'CatalogSourcesUnhealthy',
    );
    assert.equal(unhealthy.reason, 'UnhealthyCatalogSourceFound');
    assert.equal(unhealthy.message, 'targeted catalogsource olm/cat-v1 unhealthy');
    sb.olm.catalogs.setBroken('olm', 'cat-v1', false);
  });

  test('uninstall: Subscription, then CSV: copies and deployments go, CRDs stay', async () => {
    const csvName = (await get('subscriptions', 'operators', 'webhook')).status!.installedCSV as string;
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'subscriptions',
      name: 'webhook',
    });
    assert.equal(
      (await phaseOf('operators', csvName))?.phase,
      'Succeeded',
      'deleting the Subscription uninstalls nothing',
    );
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'clusterserviceversions',
      name: csvName,
    });
    await until(
      async () => !(await list('clusterserviceversions', 'operators')).some((c) => c.metadata.name === csvName),
      'the CSV gone',
    );
    await until(
      async () => !(await list('clusterserviceversions', 'team1')).some((c) => c.metadata.name === csvName),
      'its copies gone',
    );
    await until(
      async () =>
        !(await apps.listNamespacedDeployment({ namespace: 'operators' })).items.some(
          (d) => d.metadata?.name === 'webhook-operator',
        ),
      'its deployment gone',
    );
    const crd = await custom.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'webhooks.webhook.example.com',
    });
    assert.ok(crd, 'the CRD stays');
  });

  test('dependencies are installed in the same InstallPlan, each with a Subscription OLM generates', async () => {
    await ns('deps');
    await create(
      'operatorgroups',
      'deps',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['deps'] },
      },
      'v1',
    );
    await subscribe('deps', 'secure');
    await until(async () => (await phaseOf('deps', 'secure.v2.0.0'))?.phase === 'Succeeded', 'secure Succeeded');
    assert.equal(
      (await phaseOf('deps', 'certs.v1.1.0'))?.phase,
      'Succeeded',
      'the provider of Certificate, at its channel head',
    );
    const plans = await list('installplans', 'deps');
    assert.equal(plans.length, 1);
    assert.deepEqual(plans[0]!.spec.clusterServiceVersionNames, ['secure.v2.0.0', 'certs.v1.1.0']);
    const generated = await get('subscriptions', 'deps', 'certs-stable-cat-v1-olm');
    assert.equal(generated.metadata.annotations?.['olm.generated-by'], plans[0]!.metadata.name);
    assert.equal(generated.metadata.labels?.['olm.managed'], 'true');
    assert.equal(generated.spec.startingCSV, 'certs.v1.1.0');

    await ns('ranged');
    await create(
      'operatorgroups',
      'ranged',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['ranged'] },
      },
      'v1',
    );
    await subscribe('ranged', 'tenant');
    await until(async () => (await phaseOf('ranged', 'tenant.v1.0.0'))?.phase === 'Succeeded', 'tenant Succeeded');
    assert.equal(
      (await phaseOf('ranged', 'certs.v1.0.0'))?.phase,
      'Succeeded',
      'the newest certs within >=1.0.0 <1.1.0',
    );
  });

  test('intersecting OperatorGroups providing the same API: InterOperatorGroupOwnerConflict', async () => {
    await subscribe('operators', 'gw-a');
    await until(async () => (await phaseOf('operators', 'gw-a.v1.0.0'))?.phase === 'Succeeded', 'gw-a Succeeded');
    const global = await get('operatorgroups', 'operators', 'global-operators', 'v1');
    assert.equal(global.metadata.annotations?.['olm.providedAPIs'], 'Gateway.v1.net.example.com');
    await ns('gwns');
    await create(
      'operatorgroups',
      'gwns',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['gwns'] },
      },
      'v1',
    );
    await subscribe('gwns', 'gw-b');
    const st = await until(async () => {
      const s = await phaseOf('gwns', 'gw-b.v1.0.0');
      return s?.reason === 'InterOperatorGroupOwnerConflict' ? s : undefined;
    }, 'InterOperatorGroupOwnerConflict');
    assert.equal(st.phase, 'Failed');
    assert.equal((st as { message?: string }).message, 'intersecting operatorgroups provide the same apis');
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

  test('a new CSV passes Pending/RequirementsNotMet (its service account not yet made), as on a real cluster', async () => {
    await ns('history');
    await create(
      'operatorgroups',
      'history',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['history'] },
      },
      'v1',
    );
    await subscribe('history', 'webhook');
    await until(async () => (await phaseOf('history', 'webhook.v1.0.0'))?.phase === 'Succeeded', 'Succeeded');
    const st = (await get('clusterserviceversions', 'history', 'webhook.v1.0.0')).status as {
      conditions: { phase: string; reason: string }[];
      requirementStatus: { kind: string; name: string }[];
    };
    // The history real OLM v0.38.0 wrote for every fresh install (InstallWaiting comes and goes with the rollout).
    assert.deepEqual(
      st.conditions.map((c) => `${c.phase}/${c.reason}`).filter((h) => h !== 'Installing/InstallWaiting'),
      [
        'Pending/RequirementsUnknown',
        'Pending/RequirementsNotMet',
        'InstallReady/AllRequirementsMet',
        'Installing/InstallSucceeded',
        'Succeeded/InstallSucceeded',
      ],
    );
    // An account whose namespaced rules OLM granted is not listed, as real OLM lists them.
    assert.deepEqual(
      st.requirementStatus.map((r) => `${r.kind}/${r.name}`),
      ['CustomResourceDefinition/webhooks.webhook.example.com'],
    );
  });

  test("a catalog given by an address nothing answers on: healthy to the Subscription, resolution fails in gRPC's words", async () => {
    await ns('dead');
    await create(
      'operatorgroups',
      'dead',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['dead'] },
      },
      'v1',
    );
    await create('catalogsources', 'dead', {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'CatalogSource',
      metadata: { name: 'local' },
      spec: { sourceType: 'grpc', address: '127.0.0.1:1' },
    });
    await create('subscriptions', 'dead', {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: 'webhook' },
      spec: { name: 'webhook', source: 'local', sourceNamespace: 'dead', channel: 'stable' },
    });
    const conds = await until(async () => {
      const c = (
        (await get('subscriptions', 'dead', 'webhook')).status as
          { conditions?: { type: string; status: string; reason: string; message: string }[] } | undefined
      )?.conditions;
      return c?.some((x) => x.type === 'ResolutionFailed') ? c : undefined;
    }, 'ResolutionFailed');
    // Both as real OLM v0.38.0 wrote them for a namespaced CatalogSource at 127.0.0.1:1.
    assert.deepEqual(
      conds.find((c) => c.type === 'CatalogSourcesUnhealthy'),
      {
        ...conds.find((c) => c.type === 'CatalogSourcesUnhealthy'),
        status: 'False',
        reason: 'AllCatalogSourcesHealthy',
        message: 'all available catalogsources are healthy',
      },
    );
    const failed = conds.find((c) => c.type === 'ResolutionFailed')!;
    assert.equal(failed.reason, 'ErrorPreventedResolution');
    assert.equal(
      failed.message,
      'error using catalogsource dead/local: failed to list bundles: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:1: connect: connection refused"',
    );
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
