// Kubernetes' own kinds the console reads and writes, named once. OLM's kinds are beside their
// types in lib/olm/resources; OpenShift's config kinds the console reads are here too, since
// they are plain cluster configuration.
import type { ResourceType } from '../olm/resources/common';

const core = (plural: string, kind: string, namespaced: boolean): ResourceType => ({
  group: '',
  version: 'v1',
  plural,
  namespaced,
  kind,
});

export const NAMESPACE_TYPE = core('namespaces', 'Namespace', false);
export const SERVICE_ACCOUNT_TYPE = core('serviceaccounts', 'ServiceAccount', true);
export const CONFIG_MAP_TYPE = core('configmaps', 'ConfigMap', true);
export const SECRET_TYPE = core('secrets', 'Secret', true);
export const EVENT_TYPE = core('events', 'Event', true);
export const POD_TYPE = core('pods', 'Pod', true);
export const NODE_TYPE = core('nodes', 'Node', false);

export const DEPLOYMENT_TYPE: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  namespaced: true,
  kind: 'Deployment',
};
export const JOB_TYPE: ResourceType = { group: 'batch', version: 'v1', plural: 'jobs', namespaced: true, kind: 'Job' };
export const CRD_TYPE: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
export const STORAGE_CLASS_TYPE: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
  namespaced: false,
  kind: 'StorageClass',
};
export const PRIORITY_CLASS_TYPE: ResourceType = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  plural: 'priorityclasses',
  namespaced: false,
  kind: 'PriorityClass',
};

/** RBAC's four kinds: Role and RoleBinding are namespaced, the Cluster ones are not. */
export const rbacType = (kind: 'Role' | 'RoleBinding' | 'ClusterRole' | 'ClusterRoleBinding'): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: `${kind.toLowerCase()}s`,
  namespaced: !kind.startsWith('Cluster'),
  kind,
});

export const SELF_SUBJECT_ACCESS_REVIEW_TYPE: ResourceType = {
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'selfsubjectaccessreviews',
  namespaced: false,
  kind: 'SelfSubjectAccessReview',
};
export const SELF_SUBJECT_REVIEW_TYPE: ResourceType = {
  group: 'authentication.k8s.io',
  version: 'v1',
  plural: 'selfsubjectreviews',
  namespaced: false,
  kind: 'SelfSubjectReview',
};

/** OpenShift's cluster-wide Proxy configuration (`config.openshift.io`), which OLM passes on. */
export const PROXY_TYPE: ResourceType = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'proxies',
  namespaced: false,
  kind: 'Proxy',
};
/** OpenShift's ClusterVersion, which says which OpenShift version the cluster moves to. */
export const CLUSTER_VERSION_TYPE: ResourceType = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'clusterversions',
  namespaced: false,
  kind: 'ClusterVersion',
};
