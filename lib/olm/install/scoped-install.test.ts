import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterServiceVersion, PolicyRule } from '../resources/cluster-service-version';
import { guessResource } from '../resources/common';
import { grantRules, scopedInstallRbac } from './scoped-install';

function csv(permissions: PolicyRule[], clusterPermissions: PolicyRule[] = []): ClusterServiceVersion {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: 'db.v1.0.0' },
    spec: {
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [{ name: 'db-operator', spec: {} }],
          permissions: [{ serviceAccountName: 'db-operator', rules: permissions }],
          ...(clusterPermissions.length
            ? { clusterPermissions: [{ serviceAccountName: 'db-operator', rules: clusterPermissions }] }
            : {}),
        },
      },
    },
  } as ClusterServiceVersion;
}

type Role = {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: unknown[];
};
const byKind = (objects: Record<string, unknown>[], kind: string) =>
  objects.find((o) => o.kind === kind) as Role | undefined;
/** Whether some rule of the role allows verb on group/resource (no wildcards are generated). */
const allows = (role: Role | undefined, verb: string, group: string, resource: string) =>
  (role?.rules ?? []).some(
    (r) => r.verbs.includes(verb) && (r.apiGroups ?? []).includes(group) && (r.resources ?? []).includes(resource),
  );

describe('scopedInstallRbac', () => {
  const own: PolicyRule[] = [
    { apiGroups: ['db.example.com'], resources: ['databases', 'databases/status'], verbs: ['*'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
  ];

  it('lets the account write what OLM writes as it (the scoped-install doc), in the namespace', () => {
    const { objects } = scopedInstallRbac('team1', 'installer', 'db', { csv: csv(own), objects: [] });
    const role = byKind(objects, 'Role');
    assert.equal(role?.metadata.namespace, 'team1');
    for (const [group, resource] of [
      ['operators.coreos.com', 'clusterserviceversions'],
      ['operators.coreos.com', 'subscriptions'],
      ['', 'serviceaccounts'],
      ['', 'services'],
      ['', 'secrets'],
      ['rbac.authorization.k8s.io', 'roles'],
      ['rbac.authorization.k8s.io', 'rolebindings'],
      ['apps', 'deployments'],
    ] as const) {
      for (const verb of ['get', 'create', 'update', 'patch'])
        assert.ok(allows(role, verb, group, resource), `${verb} ${resource}.${group}`);
    }
  });

  it('makes the account hold every rule it grants the operator (RBAC refuses to escalate)', () => {
    const { objects, clusterWide } = scopedInstallRbac('team1', 'installer', 'db', { csv: csv(own), objects: [] });
    const role = byKind(objects, 'Role');
    assert.ok(allows(role, '*', 'db.example.com', 'databases/status'));
    assert.ok(allows(role, 'list', '', 'pods'));
    assert.equal(clusterWide, false);
    assert.equal(byKind(objects, 'ClusterRole'), undefined);
    const binding = byKind(objects, 'RoleBinding');
    assert.deepEqual([binding?.roleRef?.kind, binding?.roleRef?.name], ['Role', role?.metadata.name]);
    assert.deepEqual(binding?.subjects, [{ kind: 'ServiceAccount', name: 'installer', namespace: 'team1' }]);
  });

  it('needs a ClusterRole bound cluster-wide when the operator asks for cluster permissions', () => {
    const { objects, clusterWide } = scopedInstallRbac('team1', 'installer', 'db', {
      csv: csv(own, [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] }]),
      objects: [],
    });
    assert.equal(clusterWide, true);
    const cr = byKind(objects, 'ClusterRole');
    assert.ok(allows(cr, 'watch', '', 'namespaces'));
    assert.ok(allows(cr, 'create', 'rbac.authorization.k8s.io', 'clusterroles'));
    assert.ok(allows(cr, 'create', 'rbac.authorization.k8s.io', 'clusterrolebindings'));
    assert.equal(cr?.metadata.namespace, undefined);
    // Two namespaces' installs of one package do not share a cluster-wide name.
    const other = byKind(
      scopedInstallRbac('team2', 'installer', 'db', {
        csv: csv(own, [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]),
        objects: [],
      }).objects,
      'ClusterRole',
    );
    assert.notEqual(other?.metadata.name, cr?.metadata.name);
    assert.equal(byKind(objects, 'ClusterRoleBinding')?.roleRef?.name, cr?.metadata.name);
  });

  it("covers the bundle's other manifests, namespaced or cluster-wide", () => {
    const objects = [
      { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor' },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' },
    ];
    const rbac = scopedInstallRbac('team1', 'installer', 'db', { csv: csv(own), objects });
    assert.ok(allows(byKind(rbac.objects, 'Role'), 'create', 'monitoring.coreos.com', 'servicemonitors'));
    assert.ok(allows(byKind(rbac.objects, 'Role'), 'create', 'policy', 'poddisruptionbudgets'));
    assert.ok(allows(byKind(rbac.objects, 'ClusterRole'), 'create', 'scheduling.k8s.io', 'priorityclasses'));
  });

  it('says when the operator’s own rules are not known', () => {
    const rbac = scopedInstallRbac('team1', 'installer', 'db', {
      unknown: 'its bundle is the image quay.io/x/db-bundle:v1',
    });
    assert.match(
      rbac.unknownRules ?? '',
      /not known here \(its bundle is the image quay\.io\/x\/db-bundle:v1\); the account must hold them too/,
    );
    assert.ok(allows(byKind(rbac.objects, 'Role'), 'create', 'operators.coreos.com', 'clusterserviceversions'));
  });
});

describe('guessResource', () => {
  it('pluralises kinds as the API machinery guesses them', () => {
    assert.deepEqual(['Service', 'NetworkPolicy', 'PriorityClass', 'Gateway', 'ConfigMap'].map(guessResource), [
      'services',
      'networkpolicies',
      'priorityclasses',
      'gateways',
      'configmaps',
    ]);
  });
});

describe('grantRules', () => {
  it('binds a Role in the namespace, or a ClusterRole cluster-wide, to the account', () => {
    const rules = [
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] },
    ];
    const [role, binding] = grantRules('team1', 'installer', 'installer-missing', rules, false) as Role[];
    assert.deepEqual(role?.rules, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]);
    assert.deepEqual(
      [role?.kind, role?.metadata.namespace, binding?.kind, binding?.roleRef?.name],
      ['Role', 'team1', 'RoleBinding', 'installer-missing'],
    );
    const [cr, crb] = grantRules('team1', 'installer', 'x', rules, true) as Role[];
    assert.deepEqual([cr?.kind, cr?.metadata.namespace, crb?.kind], ['ClusterRole', undefined, 'ClusterRoleBinding']);
  });
});
