// The GitOps tree of an install: which file each object goes to, and objects cleaned of what the
// API server and OLM write (Kubernetes' ObjectMeta system fields, OLM's operators.coreos.com/*
// and olm.* labels and annotations), whatever a person set kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { cleanObject, gitopsTree, targetsAllNamespaces } from './gitops-export';

const readSub = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: {
    name: 'pgpilot',
    namespace: 'pg',
    uid: 'u1',
    resourceVersion: '42',
    generation: 1,
    creationTimestamp: '2026-01-01T00:00:00Z',
    managedFields: [{ manager: 'x' }],
    labels: { 'operators.coreos.com/pgpilot.pg': '', team: 'db' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'example.com/owner': 'db-team' },
  },
  spec: {
    name: 'pgpilot',
    channel: 'stable',
    source: 'olm-console-demo',
    sourceNamespace: 'olm',
    installPlanApproval: 'Manual',
    startingCSV: 'pgpilot.v1.2.0',
  },
  status: { installedCSV: 'pgpilot.v1.2.0' },
};
const readOg = {
  apiVersion: 'operators.coreos.com/v1',
  kind: 'OperatorGroup',
  metadata: {
    name: 'pg-og',
    namespace: 'pg',
    uid: 'u2',
    annotations: { 'olm.providedAPIs': 'PostgresCluster.v1.pgpilot.example.com' },
    labels: { 'olm-console.io/created-by': 'olm-console' },
  },
  spec: { targetNamespaces: ['pg'], upgradeStrategy: 'Default' },
  status: { namespaces: ['pg'] },
};
const readNs = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: 'pg',
    uid: 'u3',
    labels: {
      'kubernetes.io/metadata.name': 'pg',
      'olm.operatorgroup.uid/abc': '',
      'pod-security.kubernetes.io/enforce': 'restricted',
    },
  },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};

test("cleaning keeps identity, a person's labels and annotations, and the spec", () => {
  assert.deepEqual(cleanObject(readSub, { apiVersion: '', kind: '' }), {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: {
      name: 'pgpilot',
      namespace: 'pg',
      labels: { team: 'db' },
      annotations: { 'example.com/owner': 'db-team' },
    },
    spec: readSub.spec,
  });
  assert.deepEqual(cleanObject(readNs, { apiVersion: '', kind: '' }), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'pg', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
  });
  assert.deepEqual(cleanObject(readOg, { apiVersion: '', kind: '' }).metadata, { name: 'pg-og', namespace: 'pg' });
});

test("an operator for chosen namespaces: Namespace and OperatorGroup in cluster-scope, the Subscription in the application's folder", () => {
  const files = gitopsTree({
    subscription: readSub,
    operatorGroup: readOg,
    namespace: readNs,
    application: 'databases',
  });
  assert.deepEqual(
    files.map((f) => f.path),
    [
      'kustomization.yaml',
      'cluster-scope/kustomization.yaml',
      'cluster-scope/namespaces/pg.yaml',
      'cluster-scope/operatorgroups/pg/pg-og.yaml',
      'databases/kustomization.yaml',
      'databases/subscriptions/pgpilot.yaml',
    ],
  );
  const byPath = Object.fromEntries(files.map((f) => [f.path, load(f.content)]));
  assert.deepEqual((byPath['kustomization.yaml'] as { resources: string[] }).resources, ['cluster-scope', 'databases']);
  assert.deepEqual((byPath['cluster-scope/kustomization.yaml'] as { resources: string[] }).resources, [
    'namespaces/pg.yaml',
    'operatorgroups/pg/pg-og.yaml',
  ]);
  assert.deepEqual((byPath['databases/kustomization.yaml'] as { resources: string[] }).resources, [
    'subscriptions/pgpilot.yaml',
  ]);
  const text = files.map((f) => f.content).join('\n');
  for (const systemField of ['uid', 'resourceVersion', 'managedFields', 'creationTimestamp', 'status', 'generation'])
    assert.ok(!new RegExp(`\\b${systemField}:`).test(text), `${systemField} left out`);
});

test('an operator for all namespaces: its Subscription is cluster-scoped too, and there is no application folder', () => {
  const og = { metadata: { name: 'global-operators', namespace: 'operators' }, spec: {} };
  assert.equal(targetsAllNamespaces(og), true);
  assert.equal(targetsAllNamespaces(readOg), false);
  assert.equal(targetsAllNamespaces({ spec: { selector: { matchLabels: { a: 'b' } } } }), false);
  const files = gitopsTree({
    subscription: {
      metadata: { name: 'certwarden', namespace: 'operators' },
      spec: { name: 'certwarden', channel: 'stable', source: 'c', sourceNamespace: 'olm' },
    },
    operatorGroup: og,
  });
  assert.deepEqual(
    files.map((f) => f.path),
    [
      'kustomization.yaml',
      'cluster-scope/kustomization.yaml',
      'cluster-scope/namespaces/operators.yaml',
      'cluster-scope/operatorgroups/operators/global-operators.yaml',
      'cluster-scope/subscriptions/operators/certwarden.yaml',
    ],
  );
  assert.deepEqual((load(files[0]!.content) as { resources: string[] }).resources, ['cluster-scope']);
  assert.deepEqual(load(files[3]!.content), {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name: 'global-operators', namespace: 'operators' },
    spec: {},
  });
});

test('a scoped install: the service account and its rights go to cluster-scope, as a person writes them', () => {
  const og = { ...readOg, spec: { ...readOg.spec, serviceAccountName: 'installer' } };
  const sa = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'installer', namespace: 'pg', uid: 'u4', resourceVersion: '7' },
    secrets: [{ name: 'installer-token-x' }],
  };
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'pgpilot-installer', namespace: 'pg' },
    rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
  };
  const crb = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'pg-pgpilot-installer' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pg-pgpilot-installer' },
    subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'pg' }],
  };
  const files = gitopsTree({ subscription: readSub, operatorGroup: og, namespace: readNs, access: [sa, role, crb] });
  const byPath = Object.fromEntries(files.map((f) => [f.path, load(f.content)]));
  assert.deepEqual((byPath['cluster-scope/kustomization.yaml'] as { resources: string[] }).resources, [
    'namespaces/pg.yaml',
    'serviceaccounts/pg/installer.yaml',
    'roles/pg/pgpilot-installer.yaml',
    'clusterrolebindings/pg-pgpilot-installer.yaml',
    'operatorgroups/pg/pg-og.yaml',
  ]);
  assert.deepEqual(byPath['cluster-scope/serviceaccounts/pg/installer.yaml'], {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'installer', namespace: 'pg' },
  });
  assert.deepEqual(byPath['cluster-scope/roles/pg/pgpilot-installer.yaml'], role);
  assert.deepEqual(byPath['cluster-scope/clusterrolebindings/pg-pgpilot-installer.yaml'], crb);
});
