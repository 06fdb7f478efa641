import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallMode } from '../resources/cluster-service-version';
import { globalNamespaces, installModeChoices, operatorGroupFor, planOperatorGroup, targetsFor } from './wizard';

const ownSingle: InstallMode[] = [
  { type: 'OwnNamespace', supported: true },
  { type: 'SingleNamespace', supported: true },
  { type: 'MultiNamespace', supported: false },
  { type: 'AllNamespaces', supported: false },
];
const every: InstallMode[] = ownSingle.map((m) => ({ ...m, supported: true }));

describe('install wizard choices', () => {
  test('only supported modes are offered, in a fixed order', () => {
    assert.deepEqual(installModeChoices(ownSingle), ['OwnNamespace', 'SingleNamespace']);
    assert.deepEqual(installModeChoices(every), ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.deepEqual(installModeChoices(undefined), []);
  });

  test('targets per choice; SingleNamespace must be another namespace', () => {
    assert.deepEqual(targetsFor('AllNamespaces', 'operators', []), { targets: [''] });
    assert.deepEqual(targetsFor('OwnNamespace', 'team1', []), { targets: ['team1'] });
    assert.deepEqual(targetsFor('SingleNamespace', 'team1-operator', ['team1']), { targets: ['team1'] });
    assert.ok('error' in targetsFor('SingleNamespace', 'team1', ['team1']));
    assert.ok('error' in targetsFor('MultiNamespace', 'x', ['a']));
    assert.deepEqual(targetsFor('MultiNamespace', 'x', ['b', 'a', 'b']), { targets: ['a', 'b'] });
  });

  test('the OperatorGroup each choice needs', () => {
    assert.deepEqual(operatorGroupFor('og', 'operators', ['']).spec, {});
    assert.deepEqual(operatorGroupFor('og', 'team1-operator', ['team1']).spec, { targetNamespaces: ['team1'] });
  });
});

describe('planOperatorGroup', () => {
  const og = (name: string, ns: string, targets?: string[]) => ({
    metadata: { name, namespace: ns },
    spec: targets ? { targetNamespaces: targets } : {},
  });

  test('no group: create one', () => {
    const p = planOperatorGroup([], 'team1-operator', ['team1'], ownSingle, 'team1-operator-og');
    assert.equal(p.action, 'create');
  });

  test('a group with the same targets is reused', () => {
    assert.equal(
      planOperatorGroup([og('g', 'team1-operator', ['team1'])], 'team1-operator', ['team1'], ownSingle, 'x').action,
      'reuse',
    );
    assert.equal(
      planOperatorGroup([og('global-operators', 'operators')], 'operators', [''], every, 'x').action,
      'reuse',
    );
  });

  test('a group with other targets is a conflict that says what to do', () => {
    const p = planOperatorGroup([og('g', 'team1-operator', ['team2'])], 'team1-operator', ['team1'], ownSingle, 'x');
    assert.equal(p.action, 'conflict');
    assert.match(
      p.action === 'conflict' ? p.message : '',
      /already has OperatorGroup g, which targets team2; this install needs team1/,
    );
  });

  test('two groups in the namespace, or an unsupported mode, is a conflict', () => {
    assert.match(
      JSON.stringify(planOperatorGroup([og('a', 'n'), og('b', 'n')], 'n', [''], every, 'x')),
      /TooManyOperatorGroups/,
    );
    assert.match(
      JSON.stringify(planOperatorGroup([], 'n', [''], ownSingle, 'x')),
      /AllNamespaces InstallModeType not supported/,
    );
  });

  test('custom global namespaces are those whose only group targets all namespaces', () => {
    assert.deepEqual(
      globalNamespaces([
        og('global-operators', 'operators'),
        og('mine', 'platform-ops'),
        og('t', 'team1', ['team1']),
        og('a', 'twice'),
        og('b', 'twice'),
      ]),
      ['operators', 'platform-ops'],
    );
  });
});
