// The steps of a move to OLM v1. Expectations from Helm v3.17 (validate.go: an existing object is
// adopted iff it carries app.kubernetes.io/managed-by=Helm and meta.helm.sh/release-name and
// release-namespace naming the release, which operator-controller v1.2.0 names after the
// ClusterExtension in spec.namespace), from Kubernetes' garbage collector (propagationPolicy Orphan
// strips the owner's references instead of deleting dependents) and from operator-controller's
// API (spec.namespace, serviceAccount.name, source.catalog.packageName/version/channels).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Subscription } from '../resources/subscription';
import type { MigrationTarget } from './migration-check';
import { planMigration, type MigrationPlanFacts } from './migration-plan';

const target: MigrationTarget = {
  packageName: 'cachely',
  channel: 'alpha',
  version: '0.9.2',
  bundle: 'cachely.v0.9.2',
  catalog: 'olm-console-demo',
  source: { from: 'catalog' },
  objects: [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'cachely', namespace: 'operators' } },
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'caches.example.com' },
    },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'cachely-manager', namespace: 'operators' } },
  ],
};

const facts = (over: Partial<MigrationPlanFacts> = {}): MigrationPlanFacts => ({
  namespace: 'operators',
  csvName: 'cachely.v0.9.2',
  extensionName: 'cachely',
  subscription: {
    metadata: { name: 'cachely-sub', namespace: 'operators' },
    spec: { name: 'cachely' },
  } as Subscription,
  target,
  existing: [
    { kind: 'CustomResourceDefinition', name: 'caches.example.com', uid: 'crd-uid', marks: {} },
    {
      kind: 'Deployment',
      name: 'cachely-manager',
      namespace: 'operators',
      uid: 'deployment-uid',
      marks: { managedBy: 'olm', component: '' },
    },
  ],
  installerExisting: [],
  leftovers: [],
  installPlans: ['install-abcde'],
  ...over,
});

test('the objects are marked for Helm only once v0 let go, and v1 is created after that', () => {
  const steps = planMigration(facts());
  assert.deepEqual(
    steps.map((s) => s.id),
    ['installer', 'delete-subscription', 'orphan-csv', 'adopt', 'create-extension', 'wait-installed', 'cleanup'],
  );
  const csv = steps.find((s) => s.id === 'orphan-csv')!.writes[0]!;
  assert.equal(csv.verb, 'delete');
  assert.equal(csv.propagationPolicy, 'Orphan');
  assert.equal(steps.find((s) => s.id === 'delete-subscription')!.writes[0]!.name, 'cachely-sub');
});

test("each existing object gets Helm's marks, loses v0's component label, keeps its old values, is tied to its uid", () => {
  const adopt = planMigration(facts()).find((s) => s.id === 'adopt')!;
  assert.deepEqual(
    adopt.writes.map((w) => [w.type.kind, w.type.plural, w.name, w.namespace, w.uid]),
    [
      ['CustomResourceDefinition', 'customresourcedefinitions', 'caches.example.com', undefined, 'crd-uid'],
      ['Deployment', 'deployments', 'cachely-manager', 'operators', 'deployment-uid'],
    ],
  );
  assert.deepEqual(adopt.writes[1]!.body, {
    metadata: {
      labels: { 'app.kubernetes.io/managed-by': 'Helm', 'operators.coreos.com/cachely.operators': null },
      annotations: { 'meta.helm.sh/release-name': 'cachely', 'meta.helm.sh/release-namespace': 'operators' },
    },
  });
  assert.deepEqual(adopt.writes[1]!.undo, {
    metadata: {
      labels: { 'app.kubernetes.io/managed-by': 'olm', 'operators.coreos.com/cachely.operators': '' },
      annotations: { 'meta.helm.sh/release-name': null, 'meta.helm.sh/release-namespace': null },
    },
  });
});

test('the ClusterExtension is pinned to the installed version and channel, installing with its own account', () => {
  const ce = planMigration(facts()).find((s) => s.id === 'create-extension')!.writes[0]!;
  assert.deepEqual(ce.body, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: { name: 'cachely' },
    spec: {
      namespace: 'operators',
      serviceAccount: { name: 'cachely-installer' },
      source: { sourceType: 'Catalog', catalog: { packageName: 'cachely', version: '0.9.2', channels: ['alpha'] } },
    },
  });
  const installer = planMigration(facts()).find((s) => s.id === 'installer')!;
  assert.deepEqual(
    installer.writes.map((w) => w.type.kind),
    ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
  );
});

test('nothing to adopt and nothing left behind: no adopt or cleanup step', () => {
  const steps = planMigration(facts({ existing: [], installPlans: [] }));
  assert.deepEqual(
    steps.map((s) => s.id),
    ['installer', 'delete-subscription', 'orphan-csv', 'create-extension', 'wait-installed'],
  );
});

test('a bundle’s own role feeding edit is marked with the rules it had, and the step says what that means', () => {
  const rules = [{ apiGroups: ['example.com'], resources: ['caches'], verbs: ['get', 'create'] }];
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'caches-editor-role' },
    rules,
  };
  const steps = planMigration(
    facts({
      target: { ...target, objects: [...target.objects, role] },
      existing: [
        {
          kind: 'ClusterRole',
          name: 'caches-editor-role',
          uid: 'role-uid',
          labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'olm.managed': 'true' },
          rules,
          marks: {},
        },
      ],
    }),
  );
  const adopt = steps.find((s) => s.id === 'adopt')!;
  assert.deepEqual(
    adopt.writes.map((w) => [w.name, w.uid, w.rules]),
    [['caches-editor-role', 'role-uid', rules]],
  );
  assert.match(
    adopt.why,
    new RegExp(
      'ClusterRole caches-editor-role is the bundle’s own and its rules flow into the edit role: .* ' +
        'another version of the bundle may give it other rules, and so change what they grant; ' +
        'uninstalling the extension deletes it\\.$',
    ),
  );
  // Objects feeding nothing carry no rules to hold them to.
  assert.ok(
    planMigration(facts())
      .find((s) => s.id === 'adopt')!
      .writes.every((w) => w.rules === undefined),
  );
});
