// operator-controller v1.2.0's words for an object Helm will not adopt (action/error/errors.go, as
// recorded in the shared notes on OLM v1's behaviour), and when the move may mark one again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adoptionConflict, remarkRefusal } from './adoption-conflict';

describe("operator-controller's refusal of an existing object", () => {
  test('a namespaced object is named with its namespace, a cluster-scoped one with none', () => {
    assert.deepEqual(
      adoptionConflict(
        "ServiceAccount 'cachely-controller' already exists in namespace 'operators' and cannot be managed by " +
          'operator-controller',
      ),
      { kind: 'ServiceAccount', name: 'cachely-controller', namespace: 'operators' },
    );
    assert.deepEqual(
      adoptionConflict(
        "CustomResourceDefinition 'widgets.acme.example.com' already exists in namespace '' and cannot be " +
          'managed by operator-controller',
      ),
      { kind: 'CustomResourceDefinition', name: 'widgets.acme.example.com', namespace: '' },
    );
  });

  test("Helm's untranslated upgrade error and other messages name nothing", () => {
    assert.equal(
      adoptionConflict(
        'Unable to continue with update: ServiceAccount "x" in namespace "ns" exists and cannot be imported into ' +
          'the current release: invalid ownership metadata',
      ),
      undefined,
    );
    assert.equal(adoptionConflict(undefined), undefined);
  });

  test('an object a ClusterServiceVersion owns again is not marked again', () => {
    const live = { kind: 'ServiceAccount', name: 'sa', namespace: 'operators', uid: 'u1' };
    assert.equal(remarkRefusal({ ...live, ownerReferences: [] }), undefined);
    assert.equal(
      remarkRefusal({
        ...live,
        ownerReferences: [{ kind: 'ClusterServiceVersion', name: 'cachely.v0.9.2', uid: 'c2' }],
      }),
      'ServiceAccount operators/sa lost the marks for OLM v1 and is owned by ClusterServiceVersion cachely.v0.9.2 again',
    );
  });
});
