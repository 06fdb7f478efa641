import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainPermissionFailure } from './permission-failure';

// Messages as real OLM v0.38.0 wrote them on a real kube-apiserver (conformance checks
// olm/scoped…), and the example of OLM's doc/design/scoped-operator-install.md.
const escalation =
  'retrying execution due to error: error creating role alpha.v2.0.0-alpha-opera-4ssSLmc5eL1885KW69onHNDaggsb1Cm8wDccj6: roles.rbac.authorization.k8s.io "alpha.v2.0.0-alpha-opera-4ssSLmc5eL1885KW69onHNDaggsb1Cm8wDccj6" is forbidden: user "system:serviceaccount:conf-olm-scoped-generated:installer" (groups=["system:serviceaccounts" "system:serviceaccounts:conf-olm-scoped-generated" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["alpha.example.com"], Resources:["*"], Verbs:["*"]}';
const forbiddenCsv =
  'retrying execution due to error: error creating csv alpha.v2.0.0: clusterserviceversions.operators.coreos.com is forbidden: User "system:serviceaccount:conf-olm-scoped:installer" cannot create resource "clusterserviceversions" in API group "operators.coreos.com" in the namespace "conf-olm-scoped"';
const docsClusterRole =
  'error creating clusterrole etcdoperator.v0.9.4-clusterwide-dsfx4: clusterroles.rbac.authorization.k8s.io is forbidden: User "system:serviceaccount:scoped:scoped" cannot create resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope';

test('a refused write: who, which verb on what, and where', () => {
  const f = explainPermissionFailure(forbiddenCsv, 'conf-olm-scoped')!;
  assert.equal(f.kind, 'forbidden');
  assert.deepEqual(f.serviceAccount, { namespace: 'conf-olm-scoped', name: 'installer' });
  assert.deepEqual(f.missing, [
    {
      rule: { verbs: ['create'], apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions'] },
      namespace: 'conf-olm-scoped',
    },
  ]);
  assert.deepEqual(f.sentences, [
    'Service account installer of namespace conf-olm-scoped may not create clusterserviceversions (API group operators.coreos.com) in namespace conf-olm-scoped.',
  ]);
});

test('a refusal at the cluster scope is cluster-wide', () => {
  const f = explainPermissionFailure(docsClusterRole, 'scoped')!;
  assert.deepEqual(f.missing, [
    { rule: { verbs: ['create'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] } },
  ]);
  assert.match(
    f.sentences[0]!,
    /may not create clusterroles \(API group rbac\.authorization\.k8s\.io\) cluster-wide\.$/,
  );
});

test("RBAC's escalation check: each right the account would grant without holding it, in the namespace of a Role", () => {
  const f = explainPermissionFailure(escalation, 'conf-olm-scoped-generated')!;
  assert.equal(f.kind, 'escalation');
  assert.deepEqual(f.serviceAccount, { namespace: 'conf-olm-scoped-generated', name: 'installer' });
  assert.deepEqual(f.missing, [
    {
      rule: { verbs: ['*'], apiGroups: ['alpha.example.com'], resources: ['*'] },
      namespace: 'conf-olm-scoped-generated',
    },
  ]);
  assert.match(
    f.sentences[0]!,
    /must hold every right it grants the operator, and lacks: \* on \* \(API group alpha\.example\.com\) in namespace conf-olm-scoped-generated\./,
  );
});

test('several missing rules, the core group (printed without APIGroups) and a ClusterRole', () => {
  const msg =
    'error creating clusterrole x: clusterroles.rbac.authorization.k8s.io "x" is forbidden: user "system:serviceaccount:team1:installer" (groups=["system:serviceaccounts"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}\n{Resources:["namespaces"], Verbs:["watch"]}\n{NonResourceURLs:["/metrics"], Verbs:["get"]}';
  const f = explainPermissionFailure(msg, 'team1')!;
  assert.deepEqual(f.missing, [
    { rule: { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] } },
    { rule: { verbs: ['watch'], apiGroups: [''], resources: ['namespaces'] } },
    { rule: { verbs: ['get'], nonResourceURLs: ['/metrics'] } },
  ]);
  assert.match(f.sentences[1]!, /watch on namespaces \(core API group\) cluster-wide/);
  assert.match(f.sentences[2]!, /get on the URL \/metrics cluster-wide/);
});

test('other messages are not a permission failure', () => {
  assert.equal(explainPermissionFailure('install strategy failed: Deployment.apps "x" is invalid', 'team1'), undefined);
  assert.equal(explainPermissionFailure(undefined, 'team1'), undefined);
});
