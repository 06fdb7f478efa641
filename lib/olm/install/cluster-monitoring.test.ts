// Expectations are OpenShift's, read in openshift/console
// (frontend/packages/operator-lifecycle-manager/src/components/operator-hub/operator-hub-subscribe.tsx).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monitoringOption, monitoringPlanWords, prometheusRbac, requestsMonitoring } from './cluster-monitoring';

test('a CSV asks for cluster monitoring only with the exact value "true"', () => {
  assert.equal(requestsMonitoring({ 'operatorframework.io/cluster-monitoring': 'true' }), true);
  assert.equal(requestsMonitoring({ 'operatorframework.io/cluster-monitoring': 'True' }), false);
  assert.equal(requestsMonitoring({ 'operatorframework.io/cluster-monitoring': true }), false);
  assert.equal(requestsMonitoring(undefined), false);
});

test('offered for a new openshift-* namespace of a version that asks, otherwise why not', () => {
  assert.deepEqual(monitoringOption({ requested: true, namespace: 'openshift-routekit', createsNamespace: true }), {
    offered: true,
  });
  assert.match(
    monitoringOption({ requested: false, namespace: 'openshift-routekit', createsNamespace: true }).reason!,
    /does not ask/,
  );
  assert.match(
    monitoringOption({ requested: true, namespace: 'routekit', createsNamespace: true }).reason!,
    /starts with openshift-, not routekit/,
  );
  // The prefix is a prefix: a namespace merely containing it does not qualify.
  assert.equal(
    monitoringOption({ requested: true, namespace: 'my-openshift-routekit', createsNamespace: true }).offered,
    false,
  );
});

test('an existing namespace is refused with what to do by hand', () => {
  const o = monitoringOption({ requested: true, namespace: 'openshift-routekit', createsNamespace: false });
  assert.equal(o.offered, false);
  assert.match(o.reason!, /already exists/);
  assert.match(o.reason!, /oc label namespace openshift-routekit openshift\.io\/cluster-monitoring=true/);
  assert.match(o.reason!, /openshift-routekit-prometheus/);
});

test('an unread CSV is said to be unknown, not taken as "does not ask"', () => {
  const o = monitoringOption({ requested: 'unknown', namespace: 'openshift-routekit', createsNamespace: true });
  assert.equal(o.offered, false);
  assert.match(o.reason!, /not known/);
});

test('Role and RoleBinding <namespace>-prometheus let openshift-monitoring/prometheus-k8s read services, endpoints, pods', () => {
  const r = prometheusRbac('openshift-routekit');
  assert.equal(r.name, 'openshift-routekit-prometheus');
  assert.deepEqual(r.role, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'openshift-routekit-prometheus', namespace: 'openshift-routekit' },
    rules: [{ apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] }],
  });
  assert.deepEqual(r.binding, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'openshift-routekit-prometheus', namespace: 'openshift-routekit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'openshift-routekit-prometheus' },
    subjects: [{ kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'openshift-monitoring' }],
  });
});

test('the plan names the label, the objects and the account', () => {
  const w = monitoringPlanWords('openshift-routekit');
  assert.match(w, /openshift\.io\/cluster-monitoring=true/);
  assert.match(w, /openshift-routekit-prometheus/);
  assert.match(w, /openshift-monitoring\/prometheus-k8s/);
});
