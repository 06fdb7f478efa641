import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crdRoles, fnv64a, operatorGroupRoles } from './generated-roles';

describe('generated ClusterRoles', () => {
  test('FNV-1a 64 of known inputs', () => {
    // Reference values of the FNV-1a 64-bit hash: "" and "a".
    assert.equal(fnv64a(''), 'cbf29ce484222325');
    assert.equal(fnv64a('a'), 'af63dc4c8601ec8c');
  });

  test('per CRD: admin/edit/view on the resource, aggregated into the cluster roles, and crdview', () => {
    const roles = crdRoles({
      name: 'postgresclusters.pgpilot.example.com',
      group: 'pgpilot.example.com',
      plural: 'postgresclusters',
      version: 'v1',
      kind: 'PostgresCluster',
      uid: 'u1',
    });
    assert.deepEqual(
      roles.map((r) => r.metadata.name),
      [
        'postgresclusters.pgpilot.example.com-v1-admin',
        'postgresclusters.pgpilot.example.com-v1-edit',
        'postgresclusters.pgpilot.example.com-v1-view',
        'postgresclusters.pgpilot.example.com-v1-crdview',
      ],
    );
    assert.equal(roles[0]!.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.deepEqual((roles[1]!.rules as { verbs: string[] }[])[0]!.verbs, ['create', 'update', 'patch', 'delete']);
    assert.deepEqual((roles[3]!.rules as { resourceNames: string[] }[])[0]!.resourceNames, [
      'postgresclusters.pgpilot.example.com',
    ]);
  });

  test('per OperatorGroup: three roles selecting the per-API labels of what it provides', () => {
    const roles = operatorGroupRoles({ name: 'global-operators', namespace: 'operators' }, [
      'PostgresCluster.v1.pgpilot.example.com',
    ]);
    assert.equal(roles.length, 3);
    assert.match(roles[0]!.metadata.name ?? '', /^olm\.og\.global-operators\.admin-[0-9A-Za-z]+$/);
    const sel = (roles[2]!.aggregationRule as { clusterRoleSelectors: { matchLabels: Record<string, string> }[] })
      .clusterRoleSelectors;
    assert.deepEqual(sel, [
      {
        matchLabels: {
          [`olm.opgroup.permissions/aggregate-to-${fnv64a('PostgresCluster.v1.pgpilot.example.com')}-view`]: 'true',
        },
      },
    ]);
    const crd = crdRoles({
      name: 'postgresclusters.pgpilot.example.com',
      group: 'pgpilot.example.com',
      plural: 'postgresclusters',
      version: 'v1',
      kind: 'PostgresCluster',
    });
    assert.equal(
      crd[2]!.metadata.labels?.[Object.keys(sel[0]!.matchLabels)[0]!],
      'true',
      'the OperatorGroup view role selects the CRD view role',
    );
  });
});
