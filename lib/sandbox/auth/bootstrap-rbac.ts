// The cluster roles a fresh cluster has (cluster-admin, and admin/edit/view built by
// aggregation), OLM's aggregated roles (aggregate-olm-edit / -view, docs/olm/api-surface.md#aggregated-roles), and the
// seed users of the sandbox with their bindings.
import type { KObject } from '../store/types';

const rbac = 'rbac.authorization.k8s.io/v1';

function clusterRole(
  name: string,
  rules: unknown[],
  labels: Record<string, string> = {},
  aggregateTo?: string,
): KObject {
  return {
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels } },
    ...(aggregateTo
      ? {
          aggregationRule: {
            clusterRoleSelectors: [
              { matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${aggregateTo}`]: 'true' } },
            ],
          },
        }
      : {}),
    rules,
  };
}

const readVerbs = ['get', 'list', 'watch'];
const writeVerbs = ['create', 'delete', 'deletecollection', 'patch', 'update'];

export function bootstrapClusterRoles(): KObject[] {
  return [
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('admin', [], {}, 'admin'),
    clusterRole('edit', [], { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }, 'edit'),
    clusterRole('view', [], { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }, 'view'),
    clusterRole(
      'system:aggregate-to-admin',
      [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['roles', 'rolebindings'],
          verbs: [...readVerbs, ...writeVerbs],
        },
        { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
      ],
      { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        {
          apiGroups: [''],
          resources: ['configmaps', 'secrets', 'services', 'serviceaccounts', 'pods', 'events'],
          verbs: [...readVerbs, ...writeVerbs],
        },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: [...readVerbs, ...writeVerbs] },
        { apiGroups: [''], resources: ['pods/portforward'], verbs: ['create', 'get'] },
      ],
      { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        {
          apiGroups: [''],
          resources: ['configmaps', 'services', 'serviceaccounts', 'pods', 'events', 'namespaces', 'namespaces/status'],
          verbs: readVerbs,
        },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/status'], verbs: readVerbs },
      ],
      { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
    ),
    clusterRole(
      'aggregate-olm-edit',
      [
        { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: [...writeVerbs] },
        {
          apiGroups: ['operators.coreos.com'],
          resources: ['clusterserviceversions', 'catalogsources', 'installplans', 'subscriptions'],
          verbs: ['delete'],
        },
      ],
      { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    ),
    clusterRole(
      'aggregate-olm-view',
      [
        {
          apiGroups: ['operators.coreos.com'],
          resources: ['clusterserviceversions', 'catalogsources', 'installplans', 'subscriptions', 'operatorgroups'],
          verbs: readVerbs,
        },
        {
          apiGroups: ['packages.operators.coreos.com'],
          resources: ['packagemanifests', 'packagemanifests/icon'],
          verbs: readVerbs,
        },
      ],
      {
        'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
        'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
        'rbac.authorization.k8s.io/aggregate-to-view': 'true',
      },
    ),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]),
    clusterRole('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/readyz',
          '/version',
          '/version/',
          '/openapi',
          '/openapi/*',
        ],
        verbs: ['get'],
      },
    ]),
  ];
}

export interface SeedUser {
  name: string;
  groups: string[];
  description: string;
}

/** The people the sandbox knows, and what each may do (bindings below). */
export const SEED_USERS: SeedUser[] = [
  { name: 'admin', groups: ['system:masters'], description: 'cluster-admin' },
  {
    name: 'alice',
    groups: [],
    description: 'admin of namespace team1 only (operators can be installed there, nothing cluster-wide)',
  },
  { name: 'bob', groups: [], description: 'view everywhere, change nothing' },
];

function binding(
  kind: 'ClusterRoleBinding' | 'RoleBinding',
  name: string,
  role: string,
  user: string,
  namespace?: string,
  roleKind: 'ClusterRole' | 'Role' = 'ClusterRole',
): KObject {
  return {
    apiVersion: rbac,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role },
    subjects: [
      { apiGroup: 'rbac.authorization.k8s.io', kind: user.startsWith('system:') ? 'Group' : 'User', name: user },
    ],
  };
}

export function bootstrapBindings(): KObject[] {
  return [
    binding('ClusterRoleBinding', 'cluster-admin', 'cluster-admin', 'system:masters'),
    binding('ClusterRoleBinding', 'system:basic-user', 'system:basic-user', 'system:authenticated'),
    binding('ClusterRoleBinding', 'system:discovery', 'system:discovery', 'system:authenticated'),
    binding('ClusterRoleBinding', 'sandbox:bob-view', 'view', 'bob'),
    binding('RoleBinding', 'sandbox:alice-admin', 'admin', 'alice', 'team1'),
  ];
}
