import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallMode } from '../resources/cluster-service-version';
import { requiredInstallMode, supportsTargetNamespaces } from './supports';

const modes = (own: boolean, single: boolean, multi: boolean, all: boolean): InstallMode[] => [
  { type: 'OwnNamespace', supported: own },
  { type: 'SingleNamespace', supported: single },
  { type: 'MultiNamespace', supported: multi },
  { type: 'AllNamespaces', supported: all },
];
const none = modes(false, false, false, false);
const every = modes(true, true, true, true);

describe('supportsTargetNamespaces: every row of docs/olm/install-modes.md#the-rule', () => {
  test('no targets', () => {
    assert.deepEqual(supportsTargetNamespaces(every, 'ns', []), {
      ok: false,
      reason: 'UnsupportedOperatorGroup',
      message: 'operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces',
    });
  });

  test('[n] needs OwnNamespace', () => {
    assert.deepEqual(supportsTargetNamespaces(modes(true, false, false, false), 'ns', ['ns']), {
      ok: true,
      mode: 'OwnNamespace',
    });
    assert.deepEqual(supportsTargetNamespaces(none, 'ns', ['ns']), {
      ok: false,
      reason: 'UnsupportedOperatorGroup',
      message: 'OwnNamespace InstallModeType not supported, cannot configure to watch own namespace',
    });
  });

  test('[""] needs AllNamespaces', () => {
    assert.deepEqual(supportsTargetNamespaces(modes(false, false, false, true), 'operators', ['']), {
      ok: true,
      mode: 'AllNamespaces',
    });
    assert.equal(supportsTargetNamespaces(modes(true, true, true, false), 'operators', ['']).ok, false);
    const v = supportsTargetNamespaces(none, 'operators', ['']);
    assert.equal(
      v.ok === false && v.message,
      'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces',
    );
  });

  test('[m], m ≠ n, needs SingleNamespace (the multitenant recipe)', () => {
    assert.deepEqual(supportsTargetNamespaces(modes(true, true, false, false), 'team1-operator', ['team1']), {
      ok: true,
      mode: 'SingleNamespace',
    });
    const v = supportsTargetNamespaces(modes(true, false, false, true), 'team1-operator', ['team1']);
    assert.equal(
      v.ok === false && v.message,
      'SingleNamespace InstallModeType not supported, cannot configure to watch one namespace',
    );
  });

  test('two or more need MultiNamespace, and OwnNamespace too when n is among them', () => {
    assert.deepEqual(supportsTargetNamespaces(modes(false, false, true, false), 'ns', ['a', 'b']), {
      ok: true,
      mode: 'MultiNamespace',
    });
    const v = supportsTargetNamespaces(modes(true, true, false, true), 'ns', ['a', 'b', 'c']);
    assert.equal(
      v.ok === false && v.message,
      'MultiNamespace InstallModeType not supported, cannot configure to watch 3 namespaces',
    );
    const w = supportsTargetNamespaces(modes(false, false, true, false), 'ns', ['ns', 'b']);
    assert.equal(
      w.ok === false && w.message,
      'OwnNamespace InstallModeType not supported, cannot configure to watch own namespace',
    );
    assert.equal(supportsTargetNamespaces(every, 'ns', ['', 'b']).ok, false);
  });

  test('a type listed twice is InvalidInstallModes; a type not listed is unsupported', () => {
    const dup = supportsTargetNamespaces([...every, { type: 'OwnNamespace', supported: true }], 'ns', ['ns']);
    assert.equal(dup.ok === false && dup.reason, 'InvalidInstallModes');
    assert.equal(supportsTargetNamespaces([{ type: 'OwnNamespace', supported: true }], 'ns', ['']).ok, false);
  });

  test('requiredInstallMode names the mode a target set needs', () => {
    assert.equal(requiredInstallMode('ns', ['']), 'AllNamespaces');
    assert.equal(requiredInstallMode('ns', ['ns']), 'OwnNamespace');
    assert.equal(requiredInstallMode('ns', ['x']), 'SingleNamespace');
    assert.equal(requiredInstallMode('ns', ['x', 'y']), 'MultiNamespace');
    assert.equal(requiredInstallMode('ns', []), undefined);
  });
});
