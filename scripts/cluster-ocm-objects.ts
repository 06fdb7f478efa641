// What an Open Cluster Management hub and its klusterlet agents need in their clusters when they
// run as plain processes (scripts/cluster-ocm.ts), without the cluster-manager and klusterlet
// operators that would otherwise install it: the namespaces the controllers and agents use, the
// bootstrap identity a joining cluster presents to the hub, and on each managed cluster what
// config-policy-controller and OperatorPolicies delivered in ManifestWorks need. Objects as JSON,
// for `kubectl apply`.

/** The hub controllers' namespace (their events and leases would live there). */
export const HUB_NAMESPACE = 'open-cluster-management-hub';
/** The klusterlet agent's namespace on each managed cluster. */
export const AGENT_NAMESPACE = 'open-cluster-management-agent';
/** Where the bootstrap service account lives on the hub, as `clusteradm init` makes it. */
export const BOOTSTRAP_NAMESPACE = 'open-cluster-management';
export const BOOTSTRAP_SERVICE_ACCOUNT = 'cluster-bootstrap';
/** The user the hub's registration controller approves the CSRs of (--auto-approved-csr-users). */
export const BOOTSTRAP_USER = `system:serviceaccount:${BOOTSTRAP_NAMESPACE}:${BOOTSTRAP_SERVICE_ACCOUNT}`;
/**
 * Where OperatorPolicies live on each managed cluster: the namespace config-policy-controller v0.16.0
 * always watches besides its WATCH_NAMESPACE (main.go, `ocmPolicyNs`, on while
 * `--enable-ocm-policy-namespace` is, its default). One namespace on every cluster, since a
 * ManifestWorkReplicaSet gives every cluster the same template.
 */
export const POLICY_NAMESPACE = 'open-cluster-management-policies';
/** The klusterlet's work agent's service account, as the klusterlet operator names it (`<klusterlet>-work-sa`). */
export const WORK_SERVICE_ACCOUNT = 'klusterlet-work-sa';
/** The ClusterRole the klusterlet operator aggregates the work agent's extra rights into (klusterlet `klusterlet`). */
export const WORK_AGGREGATE_ROLE = 'open-cluster-management:klusterlet-work:aggregate';
/** The label that adds a ClusterRole's rules to the work agent's (ocm v1.0.0 klusterlet_managed_reconcile.go). */
export const AGGREGATE_TO_WORK_LABEL = 'open-cluster-management.io/aggregate-to-work';
/** The cluster set a ManagedCluster joins when none is named (OCM's webhook sets it; none runs here). */
export const CLUSTER_SET_LABEL = 'cluster.open-cluster-management.io/clusterset';

const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

/**
 * On the hub: the controllers' namespace and the bootstrap identity. A joining agent, with the
 * bootstrap token, creates its ManagedCluster and a CSR for its own client certificate, and reads
 * the hub's CA bundle; nothing more (the rights OCM's registration needs at bootstrap, as its own
 * bootstrap ClusterRole grants them).
 */
export function hubObjects(): object[] {
  const role = 'open-cluster-management:bootstrap';
  return [
    namespace(HUB_NAMESPACE),
    namespace(BOOTSTRAP_NAMESPACE),
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: BOOTSTRAP_SERVICE_ACCOUNT, namespace: BOOTSTRAP_NAMESPACE },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: role },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
        {
          apiGroups: ['certificates.k8s.io'],
          resources: ['certificatesigningrequests'],
          verbs: ['create', 'get', 'list', 'watch'],
        },
        {
          apiGroups: ['cluster.open-cluster-management.io'],
          resources: ['managedclusters'],
          verbs: ['get', 'create', 'list', 'watch'],
        },
        {
          apiGroups: ['cluster.open-cluster-management.io'],
          resources: ['managedclustersets/join'],
          verbs: ['create'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${role}:${BOOTSTRAP_SERVICE_ACCOUNT}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: BOOTSTRAP_SERVICE_ACCOUNT, namespace: BOOTSTRAP_NAMESPACE }],
    },
  ];
}

/** On each managed cluster: the agent's namespace (the CRDs come from OCM's module). */
export function agentObjects(): object[] {
  return [namespace(AGENT_NAMESPACE)];
}

/** A kubeconfig with one cluster and a bearer token: the agents' bootstrap kubeconfig. */
export function tokenKubeconfig(server: string, caPem: string, user: string, token: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'hub', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'hub', context: { cluster: 'hub', user } }],
    'current-context': 'hub',
  });
}

/**
 * On each managed cluster, for config-policy-controller and the OperatorPolicies rollouts deliver:
 * the namespace it watches, and the work agent's right to apply OperatorPolicies there. OCM v1.0.0's
 * klusterlet operator binds its work agent's service account to `admin` and to a ClusterRole
 * aggregating every ClusterRole labelled `open-cluster-management.io/aggregate-to-work`
 * (pkg/operator/operators/klusterlet/controllers/klusterletcontroller/klusterlet_managed_reconcile.go,
 * createAggregationRule; manifests/klusterlet/managed/klusterlet-work-clusterrolebinding-aggregate.yaml);
 * `admin` has nothing of policy.open-cluster-management.io, so a ManifestWork carrying an
 * OperatorPolicy is refused there unless a labelled ClusterRole grants it, as this one does. The
 * aggregating role and its binding are made as that operator makes them (it does not run here).
 */
export function policyObjects(): object[] {
  return [
    namespace(POLICY_NAMESPACE),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: WORK_AGGREGATE_ROLE },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO_WORK_LABEL]: 'true' } }] },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'olm-console:klusterlet-work:operator-policies',
        labels: { [AGGREGATE_TO_WORK_LABEL]: 'true' },
      },
      // What the work agent does with a manifest: read it, create or update it, read it back for
      // status feedback (a watch), delete it when its ManifestWork goes.
      rules: [
        {
          apiGroups: ['policy.open-cluster-management.io'],
          resources: ['operatorpolicies'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        },
      ],
    },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: WORK_SERVICE_ACCOUNT, namespace: AGENT_NAMESPACE },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: WORK_AGGREGATE_ROLE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: WORK_AGGREGATE_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: WORK_SERVICE_ACCOUNT, namespace: AGENT_NAMESPACE }],
    },
  ];
}
