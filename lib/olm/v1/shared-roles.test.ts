// Kubernetes' and OLM's shared roles, one rule for the move to OLM v1 and for an uninstall of a
// ClusterExtension's installer objects. Expectations from Kubernetes' bootstrap policy (system:*
// names, the kubernetes.io/bootstrapping label, admin/edit/view with an aggregationRule gathering
// roles labelled rbac.authorization.k8s.io/aggregate-to-<role>) and OLM v0.38.0's deploy manifests
// (aggregate-olm-edit, aggregate-olm-view) and olm/operatorgroup.go ensureProvidedAPIClusterRole
// (per-CRD roles labelled aggregate-to-*).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedRole, sharedRoleSentence, type RoleFacts } from './shared-roles';

const role = (kind: string, name: string, over: Partial<RoleFacts> = {}): RoleFacts => ({ kind, name, ...over });

test('Kubernetes’ and OLM’s shared roles are named as such, each with its mark', () => {
  const cases: [RoleFacts, string, RegExp][] = [
    [role('ClusterRole', 'system:controller:namespace-controller'), 'system-name', /system:/],
    [role('ClusterRoleBinding', 'system:basic-user'), 'system-name', /system:/],
    [role('Role', 'system:controller:bootstrap-signer'), 'system-name', /system:/],
    [role('ClusterRole', 'aggregate-olm-edit'), 'aggregate-name', /aggregate-/],
    [role('ClusterRole', 'aggregate-olm-view'), 'aggregate-name', /aggregate-/],
    [
      role('ClusterRole', 'cluster-admin', { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }),
      'bootstrapping',
      /bootstrapping/,
    ],
    [role('ClusterRole', 'monitoring', { aggregated: true }), 'aggregation-rule', /aggregationRule/],
    [
      role('ClusterRole', 'certificates.certwarden.example.com-v1-edit', {
        labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'olm.managed': 'true' },
      }),
      'feeds',
      /it feeds other roles \(aggregate-to-edit\)/,
    ],
  ];
  for (const [o, code, why] of cases) {
    assert.equal(sharedRole(o)?.code, code, o.name);
    assert.match(sharedRole(o)?.why ?? '', why, o.name);
  }
});

test('a role feeding several roles names each, and a label set to anything but "true" feeds none', () => {
  const labels = {
    'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
    'rbac.authorization.k8s.io/aggregate-to-edit': 'false',
  };
  assert.deepEqual(sharedRole(role('ClusterRole', 'collectors-viewer-role', { labels }))?.feeds, [
    'aggregate-to-admin',
    'aggregate-to-view',
  ]);
  const off = { 'rbac.authorization.k8s.io/aggregate-to-edit': 'false' };
  assert.equal(sharedRole(role('ClusterRole', 'collectors-editor-role', { labels: off })), undefined);
});

test('an ordinary role, and an object of another kind named like a shared role, are not shared roles', () => {
  assert.equal(
    sharedRole(role('ClusterRole', 'certwarden.v1.1.0-5c8d9f7b6', { labels: { 'olm.managed': 'true' } })),
    undefined,
  );
  assert.equal(sharedRole(role('ConfigMap', 'aggregate-settings')), undefined);
  const labels = { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' };
  assert.equal(sharedRole(role('ServiceAccount', 'certs-installer', { labels })), undefined);
});

test('the sentence says what the object is, then why it is shared', () => {
  const s = sharedRole(role('ClusterRole', 'aggregate-olm-edit'))!;
  assert.equal(
    sharedRoleSentence('ClusterRole aggregate-olm-edit', s),
    'ClusterRole aggregate-olm-edit is one of Kubernetes’ or OLM’s shared roles (its name starts with aggregate-)',
  );
});
