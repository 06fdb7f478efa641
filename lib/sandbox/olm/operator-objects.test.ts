// The Operator object (`operators.coreos.com/v1`, `<package>.<namespace>`) as clients read it
// while an operator is installed, upgraded and uninstalled in the order people do it; OLM's
// tooling waits for its refs to empty before deleting it. Expectations from OLM v0.38.0's
// operator_controller.go and adoption_controller.go (docs/olm/operator-objects.md).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { withSandbox } from '../testing/sandbox-fixture';
import { merge, OLM, until } from './testing/olm-flow';

type Ref = { kind: string; apiVersion: string; namespace?: string; name: string; conditions?: Cond[] };
type Cond = { type: string; status: string };
type Operator = {
  metadata: { name: string; uid: string };
  status?: { components?: { labelSelector?: unknown; refs?: Ref[] } };
};

const NS = 'wide';
const NAME = `wide.${NS}`;
const KEY = `operators.coreos.com/${NAME}`;
// OLM's refs follow within a second on a real cluster; a loaded test machine gets a little more.
const PROMPTLY = 5_000;

describe('the Operator object through install, upgrade and uninstall', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'olm-operator-objects-'));
    writeFixtureCatalog(join(dir, 'cat'), [
      {
        name: 'wide',
        bundles: [
          { version: '1.0.0', clusterRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }] },
          {
            version: '1.1.0',
            replaces: '1.0.0',
            clusterRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }],
          },
        ],
      },
    ]);
    sb = await withSandbox({ catalogs: [join(dir, 'cat')], deploymentDelayMs: 30 });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    core = kc.makeApiClient(CoreV1Api);
  });
  after(() => sb.close());

  const path = (plural: string, version = 'v1alpha1') => ({ group: OLM, version, namespace: NS, plural });
  const items = async (plural: string, version = 'v1alpha1') =>
    ((await custom.listNamespacedCustomObject(path(plural, version))) as { items: Obj[] }).items;
  type Obj = { metadata: { name: string; labels?: Record<string, string> }; status?: Record<string, unknown> };
  const readOperator = async (): Promise<Operator | undefined> => {
    try {
      return (await custom.getClusterCustomObject({
        group: OLM,
        version: 'v1',
        plural: 'operators',
        name: NAME,
      })) as Operator;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  };
  const refs = async () => (await readOperator())?.status?.components?.refs ?? [];
  const refOf = (all: Ref[], kind: string, name?: string) =>
    all.find((r) => r.kind === kind && (!name || r.name === name));
  const phase = async (csv: string) =>
    ((await custom.getNamespacedCustomObject({ ...path('clusterserviceversions'), name: csv })) as Obj).status?.phase;
  const approveNext = async (csv: string) => {
    const plan = await until(
      async () =>
        (await items('installplans')).find(
          (p) =>
            p.status?.phase === 'RequiresApproval' &&
            (
              (p as { spec?: { clusterServiceVersionNames?: string[] } }).spec?.clusterServiceVersionNames ?? []
            ).includes(csv),
        ),
      `a plan for ${csv}`,
    );
    await custom.patchNamespacedCustomObject(
      { ...path('installplans'), name: plan.metadata.name, body: { spec: { approved: true } } },
      merge,
    );
    await until(async () => (await phase(csv).catch(() => undefined)) === 'Succeeded', `${csv} Succeeded`);
  };
  const gone = (what: string, fn: (all: Ref[]) => boolean) =>
    until(async () => ((await readOperator()) && fn(await refs()) ? true : undefined), what, PROMPTLY);
  const deleteIfThere = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
    }
  };

  test('after an install the Operator lists the install, its CSV as its phase, and the cluster RBAC it made', async () => {
    await core.createNamespace({ body: { metadata: { name: NS } } });
    await custom.createNamespacedCustomObject({
      ...path('operatorgroups', 'v1'),
      body: {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: [NS] },
      },
    });
    await custom.createNamespacedCustomObject({
      ...path('subscriptions'),
      body: {
        apiVersion: `${OLM}/v1alpha1`,
        kind: 'Subscription',
        metadata: { name: 'wide' },
        spec: {
          name: 'wide',
          source: 'cat',
          sourceNamespace: 'olm',
          channel: 'stable',
          installPlanApproval: 'Manual',
          startingCSV: 'wide.v1.0.0',
        },
      },
    });
    await approveNext('wide.v1.0.0');
    const all = await until(async () => {
      const r = await refs();
      return refOf(r, 'ClusterServiceVersion')?.conditions?.[0]?.type === 'Succeeded' && refOf(r, 'ClusterRoleBinding')
        ? r
        : undefined;
    }, 'the Operator listing its Succeeded CSV and its ClusterRoleBinding');
    const kinds = [...new Set(all.map((r) => r.kind))];
    assert.deepEqual(kinds, [
      'ClusterRole',
      'ClusterRoleBinding',
      'ClusterServiceVersion',
      'CustomResourceDefinition',
      'Deployment',
      'InstallPlan',
      'OperatorCondition',
      'Role',
      'RoleBinding',
      'ServiceAccount',
      'Subscription',
    ]);
    assert.deepEqual(refOf(all, 'ClusterRole')?.conditions, undefined, 'RBAC is read as metadata: no conditions');
    assert.equal(refOf(all, 'ClusterServiceVersion')?.name, 'wide.v1.0.0');
  });

  test("an OperatorCondition the operator writes shows among its ref's conditions", async () => {
    await custom.patchNamespacedCustomObject(
      {
        ...path('operatorconditions', 'v2'),
        name: 'wide.v1.0.0',
        body: {
          spec: {
            conditions: [
              {
                type: 'Upgradeable',
                status: 'True',
                reason: 'Ready',
                message: 'ready',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
          },
        },
      },
      merge,
    );
    await gone('the OperatorCondition ref carrying Upgradeable', (all) =>
      (refOf(all, 'OperatorCondition')?.conditions ?? []).some((c) => c.type === 'Upgradeable'),
    );
  });

  test('deleted while its components remain, the Operator is made again at once with the same refs', async () => {
    const before = (await readOperator())!;
    await custom.deleteClusterCustomObject({ group: OLM, version: 'v1', plural: 'operators', name: NAME });
    const again = await until(
      async () => {
        const o = await readOperator();
        return o && o.metadata.uid !== before.metadata.uid && o.status?.components?.refs?.length ? o : undefined;
      },
      'the Operator made again',
      PROMPTLY,
    );
    assert.deepEqual(again.status?.components?.refs, before.status?.components?.refs);
  });

  test("after an upgrade the old CSV's objects leave the list, and only the latest InstallPlan is on it", async () => {
    await approveNext('wide.v1.1.0');
    await until(
      async () => !(await items('clusterserviceversions')).some((c) => c.metadata.name === 'wide.v1.0.0'),
      'wide.v1.0.0 replaced and deleted',
    );
    const all = await until(async () => {
      const r = await refs();
      return r.some((x) => x.name.startsWith('wide.v1.0.0')) ? undefined : r;
    }, 'no ref to wide.v1.0.0 or what it owned (its ClusterRole went with it)');
    assert.equal(all.filter((r) => r.kind === 'ClusterRole').length, 1);
    assert.equal(refOf(all, 'ClusterServiceVersion')?.name, 'wide.v1.1.0');
    assert.equal(all.filter((r) => r.kind === 'InstallPlan').length, 1);
    const sub = (await custom.getNamespacedCustomObject({ ...path('subscriptions'), name: 'wide' })) as {
      status: { installPlanRef: { name: string } };
    };
    assert.equal(refOf(all, 'InstallPlan')?.name, sub.status.installPlanRef.name);
  });

  test('an uninstall in the order people do it empties the refs step by step, each within seconds', async () => {
    await custom.deleteNamespacedCustomObject({ ...path('subscriptions'), name: 'wide' });
    await gone('the Subscription off the list', (all) => !refOf(all, 'Subscription'));
    const rbac = (await refs()).filter((r) => r.kind === 'ClusterRole' || r.kind === 'ClusterRoleBinding');
    await custom.deleteNamespacedCustomObject({ ...path('clusterserviceversions'), name: 'wide.v1.1.0' });
    // The CSV's finalizer deletes the cluster RBAC carrying its owner labels; the garbage collector
    // what it owns by reference.
    await gone('the CSV and what it owned off the list', (all) =>
      ['ClusterServiceVersion', 'Deployment', 'OperatorCondition', 'Role', 'RoleBinding'].every((k) => !refOf(all, k)),
    );
    assert.equal(rbac.length, 2);
    for (const r of rbac)
      await assert.rejects(
        custom.getClusterCustomObject({
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          plural: r.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings',
          name: r.name,
        }),
        (err: { code?: number }) => err.code === 404,
        `${r.kind} ${r.name} deleted with the CSV`,
      );
    // What is left is what a person then deletes by hand, as the Operator names it.
    for (const r of await refs()) {
      if (r.kind === 'ClusterRole' || r.kind === 'ClusterRoleBinding')
        await deleteIfThere(
          custom.deleteClusterCustomObject({
            group: 'rbac.authorization.k8s.io',
            version: 'v1',
            plural: r.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings',
            name: r.name,
          }),
        );
    }
    await gone(
      'the cluster RBAC off the list',
      (all) => !refOf(all, 'ClusterRole') && !refOf(all, 'ClusterRoleBinding'),
    );
    await custom.deleteClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'wides.wide.example.com',
    });
    await gone('the CRD off the list', (all) => !refOf(all, 'CustomResourceDefinition'));
    for (const p of await items('installplans'))
      await deleteIfThere(custom.deleteNamespacedCustomObject({ ...path('installplans'), name: p.metadata.name }));
    for (const r of await refs())
      if (r.kind === 'ServiceAccount')
        await deleteIfThere(core.deleteNamespacedServiceAccount({ namespace: NS, name: r.name }));
    await gone('no refs at all', (all) => all.length === 0);
    const op = (await readOperator())!;
    assert.deepEqual(op.status?.components, {
      labelSelector: { matchExpressions: [{ key: KEY, operator: 'Exists' }] },
    });
  });

  test('deleted once nothing carries its label, the Operator stays deleted', async () => {
    await custom.deleteClusterCustomObject({ group: OLM, version: 'v1', plural: 'operators', name: NAME });
    await sb.olm.settled();
    await new Promise((r) => setTimeout(r, 300));
    await sb.olm.settled();
    assert.equal(await readOperator(), undefined);
  });
});
