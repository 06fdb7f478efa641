// What the move to OLM v1 may take over: only what OLM v0 installed for the CSV, never a shared
// role. Expectations from OLM v0.38.0's source: resolver/rbac.go RBACForClusterServiceVersion
// (a Role and RoleBinding get a non-blocking ownerReference to the CSV and its owner labels; a
// ServiceAccount gets the ownerReference only; a ClusterRole and ClusterRoleBinding get the owner
// labels only), catalog/operator.go ExecutePlan (a bundle's other objects: namespaced ones get the
// ownerReference with the live CSV's uid, cluster-scoped ones the owner labels), install/deployment.go
// (Deployments get both), ownerutil OwnerLabel (olm.owner, olm.owner.namespace, olm.owner.kind), and
// olm/operatorgroup.go ensureProvidedAPIClusterRole (the per-CRD `<crd>-<version>-admin/edit/view`
// roles are owned by the CRD, labelled aggregate-to-*, never by the CSV). CRDs carry no mark: the
// CSV's spec.customresourcedefinitions.owned says which are its. A bundle's own ClusterRole gets
// neither owner labels nor an ownerReference: catalog/operator.go ExecutePlan's ClusterRole case adds
// olm.managed only, step_ensurer.go EnsureClusterRole olm.owner=<csv> alone when the role is there
// already, and on the real cluster (metricsmith with its collectors-editor-role, OLM v0.38.0) the
// role had olm.managed and olm.owner only, its InstallPlan a step resolving the CSV naming it, and
// it stayed when the CSV was deleted. The shared roles themselves: shared-roles.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  adoptionRefusal,
  installedByV0,
  recheckRefusal,
  type LiveObject,
  type PolicyRule,
  type V0Install,
} from './v0-ownership';

const CSV = 'certwarden.v1.1.0';
const NS = 'operators';
const UID = 'a1b2c3d4-0000-4000-8000-000000000001';

const install: V0Install = {
  csv: CSV,
  namespace: NS,
  uid: UID,
  ownedCrds: ['issuers.certwarden.example.com', 'certificates.certwarden.example.com'],
};

const ownerRef = (uid = UID, name = CSV) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  name,
  uid,
  controller: false,
  blockOwnerDeletion: false,
});
const ownerLabels = (csv = CSV, ns = NS) => ({
  'olm.owner': csv,
  'olm.owner.namespace': ns,
  'olm.owner.kind': 'ClusterServiceVersion',
  'olm.managed': 'true',
});

function obj(kind: string, name: string, over: Partial<LiveObject> = {}): LiveObject {
  const clusterScoped = ['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass'];
  const namespaced = !clusterScoped.includes(kind);
  return { kind, name, ...(namespaced ? { namespace: NS } : {}), uid: `uid-${name}`, labels: {}, ...over };
}

test('a Deployment, Role and RoleBinding owned by the live CSV are its', () => {
  for (const kind of ['Deployment', 'Role', 'RoleBinding'])
    assert.equal(
      installedByV0(obj(kind, 'certwarden-manager', { labels: ownerLabels(), ownerReferences: [ownerRef()] }), install),
      true,
      kind,
    );
});

test('a ServiceAccount with only the ownerReference is the CSV’s: OLM gives it no owner labels', () => {
  assert.equal(installedByV0(obj('ServiceAccount', 'certwarden', { ownerReferences: [ownerRef()] }), install), true);
});

test('a namespaced object owned by an earlier CSV of the same name (another uid) is not this CSV’s', () => {
  const o = obj('ServiceAccount', 'certwarden', { ownerReferences: [ownerRef('another-uid')] });
  assert.equal(installedByV0(o, install), false);
});

test('a namespaced object with the owner labels but no ownerReference is not taken: OLM does not trust them', () => {
  const o = obj('ConfigMap', 'certwarden-config', { labels: ownerLabels() });
  assert.equal(installedByV0(o, install), false);
});

test('a namespaced object in another namespace is never the CSV’s, whatever it carries', () => {
  const o = obj('Deployment', 'certwarden-manager', {
    namespace: 'team2',
    labels: ownerLabels(),
    ownerReferences: [ownerRef()],
  });
  assert.equal(installedByV0(o, install), false);
});

test('a ClusterRole and ClusterRoleBinding with the three owner labels naming the CSV are its', () => {
  for (const kind of ['ClusterRole', 'ClusterRoleBinding'])
    assert.equal(installedByV0(obj(kind, 'certwarden.v1.1.0-5c8d9f7b6', { labels: ownerLabels() }), install), true);
});

test('a cluster-scoped object labelled for another CSV, namespace or kind is not this CSV’s', () => {
  const cases = [
    ownerLabels('pgpilot.v1.4.0'),
    ownerLabels(CSV, 'team2'),
    { ...ownerLabels(), 'olm.owner.kind': 'OperatorGroup' },
    { 'olm.owner': CSV, 'olm.owner.namespace': NS },
  ];
  for (const labels of cases)
    assert.equal(installedByV0(obj('ClusterRole', 'x', { labels }), install), false, JSON.stringify(labels));
});

test('a CRD is the CSV’s only when the live CSV lists it as owned, whatever labels it carries', () => {
  assert.equal(installedByV0(obj('CustomResourceDefinition', 'certificates.certwarden.example.com'), install), true);
  const foreign = obj('CustomResourceDefinition', 'postgresclusters.pgpilot.example.com', { labels: ownerLabels() });
  assert.equal(installedByV0(foreign, install), false);
});

test('a shared role is refused even when it carries this CSV’s owner labels', () => {
  const marked = obj('ClusterRole', 'aggregate-olm-edit', { labels: ownerLabels() });
  assert.equal(installedByV0(marked, install), true);
  assert.deepEqual(adoptionRefusal(marked, install), {
    code: 'shared-role',
    message:
      'ClusterRole aggregate-olm-edit is one of Kubernetes’ or OLM’s shared roles (its name starts with aggregate-); ' +
      'a move never takes it over',
  });
});

test('OLM’s per-CRD aggregated roles for this very CSV’s CRD are refused: the CRD owns them, not the CSV', () => {
  const role = obj('ClusterRole', 'certificates.certwarden.example.com-v1-admin', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'olm.managed': 'true' },
    ownerReferences: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'certificates.certwarden.example.com',
        uid: 'crd-uid',
      },
    ],
  });
  assert.equal(adoptionRefusal(role, install)?.code, 'shared-role');
});

test('an object OLM v0 did not install for the CSV is refused, named with its namespace', () => {
  assert.deepEqual(adoptionRefusal(obj('CustomResourceDefinition', 'postgresclusters.pgpilot.example.com'), install), {
    code: 'not-installed-by-v0',
    message:
      'CustomResourceDefinition postgresclusters.pgpilot.example.com exists and OLM v0 did not install it for ' + CSV,
  });
  assert.deepEqual(adoptionRefusal(obj('ConfigMap', 'certwarden-config'), install), {
    code: 'not-installed-by-v0',
    message: `ConfigMap operators/certwarden-config exists and OLM v0 did not install it for ${CSV}`,
  });
});

test('what OLM v0 installed for the CSV and is no shared role may be taken over', () => {
  assert.equal(
    adoptionRefusal(obj('ServiceAccount', 'certwarden', { ownerReferences: [ownerRef()] }), install),
    undefined,
  );
  assert.equal(adoptionRefusal(obj('CustomResourceDefinition', 'issuers.certwarden.example.com'), install), undefined);
});

test('just before marking: the planned object, still no shared role and no other release’s, may be marked', () => {
  const planned = { kind: 'CustomResourceDefinition', name: 'issuers.certwarden.example.com', uid: 'u1' };
  const release = { name: 'certwarden', namespace: NS };
  assert.equal(recheckRefusal(planned, { ...planned, labels: {} }, release), undefined);
  assert.equal(
    recheckRefusal(planned, { ...planned, uid: 'u2' }, release),
    'CustomResourceDefinition issuers.certwarden.example.com was replaced since the plan; ' +
      'the new one is not what OLM v0 installed',
  );
  assert.match(
    recheckRefusal(planned, { ...planned, helmRelease: { name: 'other', namespace: 'team2' } }, release) ?? '',
    /now belongs to the Helm release team2\/other$/,
  );
  const role = { kind: 'ClusterRole', name: 'certwarden-reader', uid: 'r1' };
  const labels = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };
  assert.match(
    recheckRefusal(role, { ...role, labels }, release) ?? '',
    /is one of Kubernetes’ or OLM’s shared roles \(it feeds other roles \(aggregate-to-view\)\) now/,
  );
});

// A bundle's own role feeding `edit` (an `<api>-editor-role`), as OLM v0 leaves it.
const EDITOR_RULES: PolicyRule[] = [
  { apiGroups: ['certwarden.example.com'], resources: ['certificates'], verbs: ['get', 'list', 'create', 'delete'] },
];
const FEEDS_EDIT = { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' };
const editorRole = (over: Partial<LiveObject> = {}) =>
  obj('ClusterRole', 'certificates-editor-role', {
    labels: { ...FEEDS_EDIT, 'olm.managed': 'true', 'olm.owner': CSV },
    rules: EDITOR_RULES,
    renderedRules: [...EDITOR_RULES].reverse(),
    v0Step: { installPlan: 'install-abcde', resolving: CSV },
    ...over,
  });

test('a bundle’s own role feeding edit, written for the live CSV, with the rules v1 renders, is taken over', () => {
  assert.equal(adoptionRefusal(editorRole(), install), undefined);
  // olm.owner is there only when the step found the role already; olm.managed alone is as OLM leaves it too.
  const firstWrite = editorRole({ labels: { ...FEEDS_EDIT, 'olm.managed': 'true' } });
  assert.equal(adoptionRefusal(firstWrite, install), undefined);
});

test('a role feeding edit no InstallPlan step wrote for the live CSV is refused: a catalog only names it', () => {
  const cases: [string, LiveObject][] = [
    ['no step', editorRole({ v0Step: undefined })],
    ['a step for another CSV', editorRole({ v0Step: { installPlan: 'install-x', resolving: 'certwarden.v1.0.0' } })],
    ['labelled for another CSV', editorRole({ labels: { ...FEEDS_EDIT, 'olm.managed': 'true', 'olm.owner': 'x.v1' } })],
    ['not olm.managed', editorRole({ labels: FEEDS_EDIT })],
    ['the three owner labels alone', editorRole({ v0Step: undefined, labels: { ...FEEDS_EDIT, ...ownerLabels() } })],
  ];
  for (const [what, role] of cases) {
    const r = adoptionRefusal(role, install);
    assert.equal(r?.code, 'shared-role', what);
    assert.match(r?.message ?? '', /only when an InstallPlan shows OLM v0 wrote it for certwarden\.v1\.1\.0/, what);
  }
});

test('a role feeding edit whose rules v1 would change is refused: what every editor holds would change', () => {
  const more = [...EDITOR_RULES, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
  for (const role of [
    editorRole({ renderedRules: more }),
    editorRole({ rules: more }),
    editorRole({ rules: undefined }),
  ])
    assert.equal(
      adoptionRefusal(role, install)?.message,
      'ClusterRole certificates-editor-role is one of Kubernetes’ or OLM’s shared roles (it feeds other roles ' +
        '(aggregate-to-edit)), and the bundle OLM v1 would install gives it other rules than it has: the move ' +
        'would change what the edit roles grant',
    );
});

test('the bundle’s own roles never cover a shared name, an aggregationRule or a role the CRD owns', () => {
  const crdOwned = editorRole({
    ownerReferences: [{ kind: 'CustomResourceDefinition', name: 'certificates.certwarden.example.com', uid: 'c' }],
  });
  assert.match(adoptionRefusal(crdOwned, install)?.message ?? '', /owned by CustomResourceDefinition certificates/);
  for (const role of [
    editorRole({ name: 'aggregate-certwarden-edit' }),
    editorRole({ name: 'system:certwarden-edit' }),
    editorRole({ aggregated: true }),
  ])
    assert.match(adoptionRefusal(role, install)?.message ?? '', /a move never takes it over$/, role.name);
});

test('a bundle’s own ClusterRole or binding written for the live CSV is its, though it has no owner labels', () => {
  for (const kind of ['ClusterRole', 'ClusterRoleBinding']) {
    const own = obj(kind, 'certwarden-metrics-reader', {
      labels: { 'olm.managed': 'true' },
      v0Step: { installPlan: 'install-abcde', resolving: CSV },
    });
    assert.equal(installedByV0(own, install), true, kind);
    assert.equal(installedByV0({ ...own, v0Step: undefined }, install), false, kind);
  }
});

test('just before marking: the bundle’s own role feeding edit is still owned by nothing, with its rules', () => {
  const release = { name: 'certwarden', namespace: NS };
  const planned = { kind: 'ClusterRole', name: 'certificates-editor-role', uid: 'r1', rules: EDITOR_RULES };
  const live = { ...planned, labels: FEEDS_EDIT, rules: EDITOR_RULES };
  assert.equal(recheckRefusal(planned, live, release), undefined);
  const widened = [...EDITOR_RULES, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
  assert.match(recheckRefusal(planned, { ...live, rules: widened }, release) ?? '', /\(aggregate-to-edit\)\) now/);
  const owned = { ...live, ownerReferences: [{ kind: 'CustomResourceDefinition', name: 'c', uid: 'c' }] };
  assert.match(recheckRefusal(planned, owned, release) ?? '', /a move never takes it over$/);
  assert.match(recheckRefusal({ ...planned, rules: undefined }, live, release) ?? '', /\(aggregate-to-edit\)\) now/);
});
