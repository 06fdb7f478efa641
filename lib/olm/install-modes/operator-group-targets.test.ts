import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { operatorGroupTargets, targetNamespacesAnnotation } from './operator-group-targets';

const namespaces = [
  { name: 'team1', labels: { tenant: 'team1', env: 'prod' } },
  { name: 'team2', labels: { tenant: 'team2', env: 'dev' } },
  { name: 'kube-system' },
];

describe('operatorGroupTargets (docs/olm/operator-groups.md#target-namespaces)', () => {
  test('targetNamespaces win, existing or not, and the selector is ignored', () => {
    assert.deepEqual(
      operatorGroupTargets(
        { spec: { targetNamespaces: ['b', 'a', 'ghost'], selector: { matchLabels: { x: 'y' } } } },
        namespaces,
      ),
      { namespaces: ['a', 'b', 'ghost'] },
    );
  });

  test('no targets and no (or an empty) selector is all namespaces', () => {
    assert.deepEqual(operatorGroupTargets({ spec: {} }, namespaces), { namespaces: [''] });
    assert.deepEqual(operatorGroupTargets({}, namespaces), { namespaces: [''] });
    assert.deepEqual(operatorGroupTargets({ spec: { selector: {} } }, namespaces), { namespaces: [''] });
  });

  test('a selector picks the namespaces whose labels match', () => {
    assert.deepEqual(
      operatorGroupTargets(
        { spec: { selector: { matchExpressions: [{ key: 'tenant', operator: 'Exists' }] } } },
        namespaces,
      ),
      { namespaces: ['team1', 'team2'] },
    );
    assert.deepEqual(operatorGroupTargets({ spec: { selector: { matchLabels: { env: 'prod' } } } }, namespaces), {
      namespaces: ['team1'],
    });
    assert.deepEqual(
      operatorGroupTargets(
        { spec: { selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] } } },
        namespaces,
      ),
      { namespaces: ['kube-system', 'team2'] },
    );
    assert.deepEqual(
      operatorGroupTargets(
        { spec: { selector: { matchExpressions: [{ key: 'tenant', operator: 'DoesNotExist' }] } } },
        namespaces,
      ),
      { namespaces: ['kube-system'] },
    );
    assert.deepEqual(operatorGroupTargets({ spec: { selector: { matchLabels: { nobody: 'x' } } } }, namespaces), {
      namespaces: [],
    });
  });

  test('"" among targetNamespaces is an error', () => {
    assert.ok('error' in operatorGroupTargets({ spec: { targetNamespaces: ['a', ''] } }, namespaces));
  });

  test('the annotation form is sorted and comma-joined; all namespaces is ""', () => {
    assert.equal(targetNamespacesAnnotation(['b', 'a']), 'a,b');
    assert.equal(targetNamespacesAnnotation(['']), '');
  });
});
