// The installer's rights against what operator-controller v1.2.0 does with the ServiceAccount
// (authentication/tokengetter.go: a token, no impersonation; Helm v3.17 install.go / validate.go:
// a GET of every object by name, then create; helm-operator-plugins actionclient.go: drift repair
// patches and creates; contentmanager.go: one cluster-wide informer per kind, by label; the API
// server's RBAC escalation rule and OwnerReferencesPermissionEnforcement's finalizers check).
// lib/server/olm-v1/installer-rbac.cluster.test.ts proves the same rules on the real cluster.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from '../resources/cluster-service-version';
import { installerRbac, widenRules } from './installer-rbac';
import { renderBundle } from './render-bundle';

type Role = { kind: string; metadata: { name: string; namespace?: string }; rules?: PolicyRule[] } & Record<
  string,
  unknown
>;

const csv = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'db.v1.0.0' },
  spec: {
    installModes: [{ type: 'AllNamespaces', supported: true }],
    install: {
      strategy: 'deployment',
      spec: {
        deployments: [{ name: 'db-operator', spec: { template: { spec: { serviceAccountName: 'db-controller' } } } }],
        permissions: [
          {
            serviceAccountName: 'db-controller',
            rules: [{ apiGroups: ['db.example.com'], resources: ['databases'], verbs: ['*'] }],
          },
        ],
        clusterPermissions: [
          {
            serviceAccountName: 'db-controller',
            rules: [
              { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
              { nonResourceURLs: ['/metrics'], verbs: ['get'] },
            ],
          },
        ],
      },
    },
  },
};
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'databases.db.example.com' },
};
const metricsService = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db-metrics', namespace: 'elsewhere' } };
const authDelegator = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'db-auth-delegator' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
  subjects: [{ kind: 'ServiceAccount', name: 'db-controller', namespace: 'db-system' }],
};

function rendered() {
  const r = renderBundle(csv, [crd, metricsService, authDelegator], 'db-system');
  if ('error' in r) throw new Error(r.error);
  return r.objects as unknown as Role[];
}

const rbac = () =>
  installerRbac({
    manifests: rendered(),
    namespace: 'db-system',
    serviceAccount: 'installer',
    extensionName: 'db',
  }) as Role[];
const find = (objects: Role[], kind: string) => objects.find((o) => o.kind === kind);

/** RBAC's rule match (k8s.io/kubernetes pkg/apis/rbac/v1/evaluation_helpers.go), for resource requests. */
function allows(role: Role | undefined, verb: string, group: string, resource: string, name = ''): boolean {
  return (role?.rules ?? []).some(
    (r) =>
      (r.verbs.includes(verb) || r.verbs.includes('*')) &&
      (r.apiGroups ?? []).some((g) => g === group || g === '*') &&
      (r.resources ?? []).some((x) => x === resource || x === '*') &&
      (!r.resourceNames?.length || r.resourceNames.includes(name)),
  );
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');
const PLURAL: Record<string, string> = {
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  CustomResourceDefinition: 'customresourcedefinitions',
  Service: 'services',
  Deployment: 'deployments',
};

describe('installerRbac', () => {
  it('lets Helm look up, create, patch, update and delete every object of the bundle, by name', () => {
    const objects = rbac();
    const cluster = find(objects, 'ClusterRole');
    const local = find(objects, 'Role');
    for (const o of rendered()) {
      const group = groupOf(o.apiVersion as string);
      const resource = PLURAL[o.kind]!;
      const holder = o.metadata.namespace ? local : cluster;
      if (o.metadata.namespace) assert.equal(o.metadata.namespace, 'db-system', 'render-bundle moved it');
      for (const verb of ['get', 'update', 'patch', 'delete'])
        assert.ok(allows(holder, verb, group, resource, o.metadata.name), `${verb} ${o.kind} ${o.metadata.name}`);
      // A create carries no name for RBAC to match: the rule for it has none.
      assert.ok(allows(holder, 'create', group, resource), `create ${o.kind}`);
      // Named, so the account cannot touch other objects of the kind.
      assert.equal(allows(holder, 'get', group, resource, 'someone-elses'), false, `get another ${o.kind}`);
    }
    assert.equal(local?.metadata.namespace, 'db-system');
  });

  it('lets the informers list and watch every kind across the cluster', () => {
    const cluster = find(rbac(), 'ClusterRole');
    for (const o of rendered())
      for (const verb of ['list', 'watch'])
        assert.ok(allows(cluster, verb, groupOf(o.apiVersion as string), PLURAL[o.kind]!), `${verb} ${o.kind}`);
  });

  it('holds every rule the bundle grants, cluster-wide, so RBAC lets the account create those roles', () => {
    const cluster = find(rbac(), 'ClusterRole')!;
    // AllNamespaces: the CSV's namespaced permissions become ClusterRoles too (render-bundle.ts).
    assert.ok(allows(cluster, 'delete', 'db.example.com', 'databases'));
    assert.ok(allows(cluster, 'watch', '', 'namespaces'));
    assert.ok(cluster.rules!.some((r) => r.nonResourceURLs?.includes('/metrics') && r.verbs.includes('get')));
    // escalate would have to be unnamed to help a create; it is not granted at all.
    assert.equal(allows(cluster, 'escalate', 'rbac.authorization.k8s.io', 'clusterroles', 'x'), false);
  });

  it('may bind a role the bundle refers to but does not define, that role only', () => {
    const cluster = find(rbac(), 'ClusterRole');
    const rbacGroup = 'rbac.authorization.k8s.io';
    assert.ok(allows(cluster, 'bind', rbacGroup, 'clusterroles', 'system:auth-delegator'));
    assert.equal(allows(cluster, 'bind', rbacGroup, 'clusterroles', 'cluster-admin'), false);
  });

  it('may set a blocking ownerReference to this ClusterExtension only', () => {
    const cluster = find(rbac(), 'ClusterRole');
    assert.ok(allows(cluster, 'update', 'olm.operatorframework.io', 'clusterextensions/finalizers', 'db'));
    assert.equal(allows(cluster, 'update', 'olm.operatorframework.io', 'clusterextensions/finalizers', 'other'), false);
  });

  it('binds the rules to the ServiceAccount, cluster-wide pair first', () => {
    const objects = rbac();
    assert.deepEqual(
      objects.map((o) => [o.kind, o.metadata.name, o.metadata.namespace]),
      [
        ['ClusterRole', 'db-installer', undefined],
        ['ClusterRoleBinding', 'db-installer', undefined],
        ['Role', 'db-installer', 'db-system'],
        ['RoleBinding', 'db-installer', 'db-system'],
      ],
    );
    for (const b of [find(objects, 'ClusterRoleBinding'), find(objects, 'RoleBinding')])
      assert.deepEqual(b?.subjects, [{ kind: 'ServiceAccount', name: 'installer', namespace: 'db-system' }]);
    assert.deepEqual(find(objects, 'RoleBinding')?.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'db-installer',
    });
  });

  it('gives no wildcard the bundle did not ask for', () => {
    for (const o of rbac())
      for (const r of o.rules ?? []) {
        if (r.resources?.includes('databases')) continue; // the bundle's own `*`
        assert.ok(!r.verbs.includes('*') && !r.resources?.includes('*') && !r.apiGroups?.includes('*'));
      }
  });
});

// Helm's upgrade (helm.sh/helm/v3 action/upgrade.go) still reads, patches and deletes the previous
// release's objects as the account, so a version change adds the new bundle's rules to the old.
describe('widenRules, for a version change', () => {
  const deploy = (names: string[], verbs: string[]): PolicyRule => ({
    apiGroups: ['apps'],
    resources: ['deployments'],
    resourceNames: names,
    verbs,
  });
  const crds: PolicyRule = {
    apiGroups: ['apiextensions.k8s.io'],
    resources: ['customresourcedefinitions'],
    verbs: ['create'],
  };

  it('keeps every rule held and adds only the verbs and resources the new bundle lacks', () => {
    const held = [deploy(['db'], ['get', 'patch'])];
    const { rules, added } = widenRules(held, [deploy(['db'], ['get', 'update']), crds]);
    assert.deepEqual(added, [deploy(['db'], ['update']), crds]);
    assert.deepEqual(rules, [deploy(['db'], ['get', 'patch', 'update']), crds]);
  });

  it('adds nothing where the role already holds it, a `*` verb included', () => {
    assert.deepEqual(widenRules([deploy(['db'], ['*']), crds], [deploy(['db'], ['delete']), crds]).added, []);
  });

  it('an object of another name is a rule of its own', () => {
    const { added } = widenRules([deploy(['db'], ['get'])], [deploy(['db-v2'], ['get'])]);
    assert.deepEqual(added, [deploy(['db-v2'], ['get'])]);
  });
});
