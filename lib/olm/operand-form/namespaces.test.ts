import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultOperandNamespace, operandListScopes, watchedNamespaces, watches } from './namespaces';

test('[""] and an empty list are every namespace; names are deduplicated and sorted', () => {
  assert.deepEqual(watchedNamespaces([''], 'operators'), { all: true });
  assert.deepEqual(watchedNamespaces([], 'operators'), { all: true });
  assert.deepEqual(watchedNamespaces(['team2', ' team1', 'team2'], 'ops'), {
    all: false,
    namespaces: ['team1', 'team2'],
  });
});

test("without target namespaces yet, only the operator's own", () => {
  assert.deepEqual(watchedNamespaces(undefined, 'ops'), { all: false, namespaces: ['ops'] });
});

test('watches: any namespace for all, else only the listed ones', () => {
  assert.equal(watches({ all: true }, 'anything'), true);
  assert.equal(watches({ all: false, namespaces: ['a', 'b'] }, 'b'), true);
  assert.equal(watches({ all: false, namespaces: ['a', 'b'] }, 'c'), false);
});

test("the default is the operator's namespace unless it does not watch it", () => {
  assert.equal(defaultOperandNamespace({ all: true }, 'operators'), 'operators');
  assert.equal(defaultOperandNamespace({ all: false, namespaces: ['ops', 'team1'] }, 'ops'), 'ops');
  assert.equal(defaultOperandNamespace({ all: false, namespaces: ['team1', 'team2'] }, 'ops'), 'team1');
  // Opened from a copied CSV's page: the namespace the person was looking at, if the operator serves it.
  assert.equal(defaultOperandNamespace({ all: true }, 'operators', 'team2'), 'team2');
  assert.equal(defaultOperandNamespace({ all: false, namespaces: ['ops', 'team1'] }, 'ops', 'team1'), 'team1');
  assert.equal(defaultOperandNamespace({ all: false, namespaces: ['ops', 'team1'] }, 'ops', 'elsewhere'), 'ops');
});

test("where an API's instances are listed: cluster-wide for a cluster-scoped API or an all-namespaces operator, else each watched namespace", () => {
  assert.deepEqual(operandListScopes({ all: false, namespaces: ['ops', 'team1'] }, true), ['ops', 'team1']);
  assert.deepEqual(operandListScopes({ all: true }, true), [undefined]);
  assert.deepEqual(operandListScopes({ all: false, namespaces: ['ops'] }, false), [undefined]);
});
