import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatApi,
  formatProvidedAPIs,
  groupSurface,
  operatorGroupsIntersect,
  parseProvidedAPIs,
  providedApiOutcome,
} from './provided-apis';

const etcd = 'EtcdCluster.v1beta2.etcd.database.coreos.com';
const backup = 'EtcdBackup.v1beta2.etcd.database.coreos.com';

describe('olm.providedAPIs', () => {
  test('Kind.version.group, sorted and comma-joined', () => {
    assert.equal(formatApi({ group: 'etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdCluster' }), etcd);
    assert.equal(formatProvidedAPIs([etcd, backup, etcd]), `${backup},${etcd}`);
    assert.deepEqual([...parseProvidedAPIs(` ${etcd},,${backup}`)], [etcd, backup]);
    assert.equal(parseProvidedAPIs(undefined).size, 0);
  });

  test('groups intersect when their surfaces overlap; all namespaces overlaps anything', () => {
    assert.equal(operatorGroupsIntersect(groupSurface('a', ['a']), groupSurface('b', ['b'])), false);
    assert.equal(operatorGroupsIntersect(groupSurface('a', ['x']), groupSurface('b', ['x'])), true);
    assert.equal(
      operatorGroupsIntersect(groupSurface('team1-operator', ['team1']), groupSurface('team1', ['team1'])),
      true,
      'the own namespace is part of the surface',
    );
    assert.equal(operatorGroupsIntersect(groupSurface('operators', ['']), groupSurface('b', ['b'])), true);
  });
});

describe('providedApiOutcome: the four rows of docs/olm/operator-groups.md#provided-apis', () => {
  const A = new Set([etcd]);
  test('A∩U ≠ ∅ and A ⊆ P: remove A from P', () => {
    assert.deepEqual(providedApiOutcome(A, new Set([etcd, backup]), new Set([etcd])), {
      action: 'remove',
      annotation: backup,
    });
  });
  test('A∩U ≠ ∅ and A ⊄ P: InterOperatorGroupOwnerConflict', () => {
    assert.deepEqual(providedApiOutcome(A, new Set(), new Set([etcd])), {
      action: 'fail',
      reason: 'InterOperatorGroupOwnerConflict',
      message: 'intersecting operatorgroups provide the same apis',
    });
  });
  test('A∩U = ∅ and A ⊄ P: add A to P', () => {
    assert.deepEqual(providedApiOutcome(A, new Set([backup]), new Set()), {
      action: 'add',
      annotation: `${backup},${etcd}`,
    });
  });
  test('A∩U = ∅ and A ⊆ P: proceed', () => {
    assert.deepEqual(providedApiOutcome(A, new Set([etcd]), new Set([backup])), { action: 'proceed' });
  });
  test('a static group cannot be changed', () => {
    const r = providedApiOutcome(A, new Set(), new Set(), true);
    assert.equal(r.action === 'fail' && r.reason, 'CannotModifyStaticOperatorGroupProvidedAPIs');
  });
});
