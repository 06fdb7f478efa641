import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ServedResource } from '../server/resources';
import {
  componentLabelKey,
  componentRef,
  operatorLabel,
  operatorNames,
  operatorStatus,
  sortRefs,
} from './operator-components';

// Expectations from OLM v0.38.0's controller/operators/decorators/operator.go.
const res = (kind: string, resource: string, group = '') => ({ kind, resource, group }) as ServedResource;

describe('operator components', () => {
  test('operator names from labels: the part after operators.coreos.com/', () => {
    assert.equal(operatorLabel('alpha', 'ns1'), 'operators.coreos.com/alpha.ns1');
    assert.deepEqual(
      operatorNames({ 'operators.coreos.com/alpha.ns1': '', 'olm.managed': 'true', 'operators.coreos.com/': '' }),
      ['alpha.ns1'],
    );
    assert.deepEqual(operatorNames(undefined), []);
  });

  test("component refs: a CSV's one condition is its phase; metadata-only kinds carry none", () => {
    const csv = componentRef(
      { r: res('ClusterServiceVersion', 'clusterserviceversions', 'operators.coreos.com'), version: 'v1alpha1' },
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'ClusterServiceVersion',
        metadata: { name: 'a.v1', namespace: 'ns' },
        status: { phase: 'Succeeded', reason: 'InstallSucceeded', message: 'done', lastUpdateTime: 't' },
      },
    );
    assert.deepEqual(csv, {
      kind: 'ClusterServiceVersion',
      apiVersion: 'operators.coreos.com/v1alpha1',
      name: 'a.v1',
      namespace: 'ns',
      conditions: [
        { type: 'Succeeded', status: 'True', reason: 'InstallSucceeded', message: 'done', lastUpdateTime: 't' },
      ],
    });
    // A CSV OLM has not given a phase yet: type "" and status are still there, as the Operator CRD requires.
    const fresh = componentRef(
      { r: res('ClusterServiceVersion', 'clusterserviceversions', 'operators.coreos.com'), version: 'v1alpha1' },
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'ClusterServiceVersion',
        metadata: { name: 'a.v2', namespace: 'ns' },
      },
    );
    assert.deepEqual(fresh.conditions, [{ type: '', status: 'True' }]);
    const role = componentRef({ r: res('Role', 'roles', 'rbac.authorization.k8s.io'), version: 'v1' }, {
      metadata: { name: 'r', namespace: 'ns' },
      status: { conditions: [{ type: 'X' }] },
    } as never);
    assert.equal('conditions' in role, false);
    const crd = componentRef(
      { r: res('CustomResourceDefinition', 'customresourcedefinitions', 'apiextensions.k8s.io'), version: 'v1' },
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'as.a.example.com' },
        status: { conditions: [{ type: 'Established', status: 'True' }] },
      },
    );
    assert.deepEqual(crd, {
      kind: 'CustomResourceDefinition',
      apiVersion: 'apiextensions.k8s.io/v1',
      name: 'as.a.example.com',
      conditions: [{ type: 'Established', status: 'True' }],
    });
    assert.equal(
      componentRef(
        { r: res('ServiceAccount', 'serviceaccounts'), version: 'v1' },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'ns' } },
      ).apiVersion,
      'v1',
    );
  });

  test('a name past 63 characters makes a label key cut there, without trailing dots, dashes or underscores', () => {
    const pkg = 'p'.repeat(60);
    assert.equal(componentLabelKey(`${pkg}.ab`), `operators.coreos.com/${pkg}.ab`);
    assert.equal(operatorLabel(pkg, 'namespace'), `operators.coreos.com/${pkg}.na`);
    assert.equal(componentLabelKey(`${'p'.repeat(61)}-._x`), `operators.coreos.com/${'p'.repeat(61)}`);
  });

  test("an Operator's status: the selector of its label, and refs only when there are some", () => {
    const key = 'operators.coreos.com/a.ns';
    assert.deepEqual(operatorStatus('a.ns', []), {
      components: { labelSelector: { matchExpressions: [{ key, operator: 'Exists' }] } },
    });
    const refs = [
      { kind: 'Subscription', apiVersion: 'operators.coreos.com/v1alpha1', namespace: 'ns', name: 'a' },
      { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', name: 'r' },
    ];
    assert.deepEqual(
      (operatorStatus('a.ns', refs).components as { refs: { kind: string }[] }).refs.map((r) => r.kind),
      ['ClusterRole', 'Subscription'],
    );
  });

  test('refs sorted by kind, apiVersion, namespace, name', () => {
    const refs = [
      { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', namespace: 'ns', name: 'b' },
      { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', namespace: 'ns', name: 'a' },
      { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', name: 'z' },
      { kind: 'Deployment', apiVersion: 'apps/v1', namespace: 'ns', name: 'd' },
    ];
    assert.deepEqual(
      sortRefs(refs).map((r) => `${r.kind}/${r.name}`),
      ['ClusterRole/z', 'Deployment/d', 'Role/a', 'Role/b'],
    );
  });
});
