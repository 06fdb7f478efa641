import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KObject } from '../store/types';
import { bootstrapBindings, bootstrapClusterRoles } from './bootstrap-rbac';
import { aggregatedRules } from './cluster-role-aggregation';
import { authorize, forbiddenMessage, type RbacSource } from './rbac';

/** The bootstrap roles once the aggregation controller has filled the aggregated ones. */
function aggregated(roles: KObject[]): KObject[] {
  for (;;) {
    let changed = false;
    roles = roles.map((r) => {
      const rules = aggregatedRules(r, roles);
      if (!rules || JSON.stringify(rules) === JSON.stringify(r.rules)) return r;
      changed = true;
      return { ...r, rules };
    });
    if (!changed) return roles;
  }
}

const clusterRoles = aggregated(bootstrapClusterRoles());
const bindings = bootstrapBindings();
const src: RbacSource = {
  roles: () => [],
  roleBindings: (ns) => bindings.filter((b) => b.kind === 'RoleBinding' && b.metadata.namespace === ns),
  clusterRoles: () => clusterRoles,
  clusterRoleBindings: () => bindings.filter((b) => b.kind === 'ClusterRoleBinding'),
};
const alice = { name: 'alice', groups: ['system:authenticated'] };
const bob = { name: 'bob', groups: ['system:authenticated'] };

describe('RBAC with the bootstrap roles and seed users', () => {
  test('alice administers team1 only, OLM objects included (aggregated admin role)', () => {
    assert.equal(
      authorize(src, alice, {
        verb: 'create',
        group: 'operators.coreos.com',
        resource: 'subscriptions',
        namespace: 'team1',
      }),
      true,
    );
    assert.equal(
      authorize(src, alice, {
        verb: 'delete',
        group: 'operators.coreos.com',
        resource: 'clusterserviceversions',
        namespace: 'team1',
        name: 'x',
      }),
      true,
    );
    assert.equal(
      authorize(src, alice, {
        verb: 'create',
        group: 'operators.coreos.com',
        resource: 'subscriptions',
        namespace: 'default',
      }),
      false,
    );
    assert.equal(authorize(src, alice, { verb: 'create', group: '', resource: 'namespaces' }), false);
  });

  test('bob views everything and changes nothing', () => {
    assert.equal(
      authorize(src, bob, {
        verb: 'list',
        group: 'operators.coreos.com',
        resource: 'clusterserviceversions',
        namespace: 'team1',
      }),
      true,
    );
    assert.equal(
      authorize(src, bob, {
        verb: 'get',
        group: 'packages.operators.coreos.com',
        resource: 'packagemanifests',
        namespace: 'olm',
        name: 'etcd',
      }),
      true,
    );
    assert.equal(
      authorize(src, bob, {
        verb: 'patch',
        group: 'operators.coreos.com',
        resource: 'installplans',
        namespace: 'team1',
        name: 'p',
      }),
      false,
    );
  });

  test('everyone may ask what they may do, and read discovery', () => {
    assert.equal(
      authorize(src, bob, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
      true,
    );
    assert.equal(
      authorize(src, alice, { verb: 'get', group: '', resource: '', path: '/apis/operators.coreos.com/v1' }),
      true,
    );
  });

  test('resourceNames and subresources narrow a rule', () => {
    const role: KObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r', namespace: 'n' },
      rules: [
        {
          apiGroups: ['operators.coreos.com'],
          resources: ['installplans/status'],
          resourceNames: ['install-a'],
          verbs: ['update'],
        },
      ],
    };
    const rb: KObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb', namespace: 'n' },
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [{ kind: 'User', name: 'carol' }],
    };
    const s: RbacSource = {
      ...src,
      roles: (ns) => (ns === 'n' ? [role] : []),
      roleBindings: (ns) => (ns === 'n' ? [rb] : []),
    };
    const carol = { name: 'carol', groups: [] };
    assert.equal(
      authorize(s, carol, {
        verb: 'update',
        group: 'operators.coreos.com',
        resource: 'installplans',
        subresource: 'status',
        namespace: 'n',
        name: 'install-a',
      }),
      true,
    );
    assert.equal(
      authorize(s, carol, {
        verb: 'update',
        group: 'operators.coreos.com',
        resource: 'installplans',
        subresource: 'status',
        namespace: 'n',
        name: 'install-b',
      }),
      false,
    );
    assert.equal(
      authorize(s, carol, {
        verb: 'update',
        group: 'operators.coreos.com',
        resource: 'installplans',
        namespace: 'n',
        name: 'install-a',
      }),
      false,
    );
  });

  test('an aggregated ClusterRole grants the rules written into it, not what its selectors match', () => {
    const unfilled = bootstrapClusterRoles();
    const s: RbacSource = { ...src, clusterRoles: () => unfilled };
    const attrs = { verb: 'create', group: 'operators.coreos.com', resource: 'subscriptions', namespace: 'team1' };
    assert.equal(authorize(s, alice, attrs), false);
    assert.equal(authorize(src, alice, attrs), true);
  });

  test("a service account named without a namespace in a RoleBinding is the binding namespace's", () => {
    const rb: KObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb', namespace: 'n' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot' }],
    };
    const s: RbacSource = { ...src, roleBindings: (ns) => (ns === 'n' ? [rb] : []) };
    const robot = (ns: string) => ({
      name: `system:serviceaccount:${ns}:robot`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    });
    const attrs = { verb: 'list', group: '', resource: 'configmaps', namespace: 'n' };
    assert.equal(authorize(s, robot('n'), attrs), true);
    assert.equal(authorize(s, robot('other'), attrs), false);
  });

  test('the denial reads as the API server writes it', () => {
    assert.equal(
      forbiddenMessage(alice, {
        verb: 'list',
        group: 'operators.coreos.com',
        resource: 'subscriptions',
        namespace: 'default',
      }),
      'subscriptions.operators.coreos.com is forbidden: User "alice" cannot list resource "subscriptions" in API group "operators.coreos.com" in the namespace "default"',
    );
    assert.match(forbiddenMessage(bob, { verb: 'create', group: '', resource: 'namespaces' }), /at the cluster scope$/);
  });
});
