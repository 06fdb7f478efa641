// The Open Cluster Management kinds a rollout reads and writes on the hub (OCM v1.0.0's served
// versions: manifests/cluster-manager/hub in open-cluster-management-io/ocm).
import type { ResourceType } from '../../olm/resources/common';

const CLUSTER = 'cluster.open-cluster-management.io';
const WORK = 'work.open-cluster-management.io';

export const PLACEMENT_TYPE: ResourceType = {
  group: CLUSTER,
  version: 'v1beta1',
  plural: 'placements',
  namespaced: true,
  kind: 'Placement',
};
export const PLACEMENT_DECISION_TYPE: ResourceType = {
  group: CLUSTER,
  version: 'v1beta1',
  plural: 'placementdecisions',
  namespaced: true,
  kind: 'PlacementDecision',
};
export const MANAGED_CLUSTER_TYPE: ResourceType = {
  group: CLUSTER,
  version: 'v1',
  plural: 'managedclusters',
  namespaced: false,
  kind: 'ManagedCluster',
};
export const CLUSTER_SET_BINDING_TYPE: ResourceType = {
  group: CLUSTER,
  version: 'v1beta2',
  plural: 'managedclustersetbindings',
  namespaced: true,
  kind: 'ManagedClusterSetBinding',
};
export const MWRS_TYPE: ResourceType = {
  group: WORK,
  version: 'v1alpha1',
  plural: 'manifestworkreplicasets',
  namespaced: true,
  kind: 'ManifestWorkReplicaSet',
};
export const MANIFEST_WORK_TYPE: ResourceType = {
  group: WORK,
  version: 'v1',
  plural: 'manifestworks',
  namespaced: true,
  kind: 'ManifestWork',
};

export const typeOfKind: Record<string, ResourceType> = {
  Placement: PLACEMENT_TYPE,
  ManagedClusterSetBinding: CLUSTER_SET_BINDING_TYPE,
  ManifestWorkReplicaSet: MWRS_TYPE,
};
