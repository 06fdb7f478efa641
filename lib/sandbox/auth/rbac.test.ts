import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KObject } from '../store/types';
import { bootstrapBindings, bootstrapClusterRoles } from './bootstrap-rbac';
import { authorize, forbiddenMessage, type RbacSource } from './rbac';

const clusterRoles = bootstrapClusterRoles();
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
