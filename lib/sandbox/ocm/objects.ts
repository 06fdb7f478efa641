// What the sandbox's OCM controllers share: how they reach a kind on an API server, write an
// object's status, and create or replace an object they own. Names and labels are OCM v1.0.0's
// (open-cluster-management-io/api).
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { CLUSTER_GROUP, WORK_GROUP } from './crds';

export const CLUSTER_SET_LABEL = 'cluster.open-cluster-management.io/clusterset';
export const PLACEMENT_LABEL = 'cluster.open-cluster-management.io/placement';
export const DECISION_GROUP_INDEX_LABEL = 'cluster.open-cluster-management.io/decision-group-index';
export const DECISION_GROUP_NAME_LABEL = 'cluster.open-cluster-management.io/decision-group-name';
export const MWRS_LABEL = 'work.open-cluster-management.io/manifestworkreplicaset';
export const MWRS_PLACEMENT_LABEL = 'work.open-cluster-management.io/placementname';
/** The work agent's finalizer on a ManifestWork: the applied objects go before the work does. */
export const WORK_CLEANUP_FINALIZER = 'cluster.open-cluster-management.io/manifest-work-cleanup';
/** The hub controller's finalizer on a ManifestWorkReplicaSet: its ManifestWorks go first. */
export const MWRS_CLEANUP_FINALIZER = 'work.open-cluster-management.io/manifest-work-cleanup';
/** The hub's own cluster, as OCM's installers (clusteradm, ACM) name it. */
export const LOCAL_CLUSTER = 'local-cluster';

export interface OcmKinds {
  managedClusters: ServedResource;
  clusterSets: ServedResource;
  bindings: ServedResource;
  placements: ServedResource;
  decisions: ServedResource;
  works: ServedResource;
  replicaSets: ServedResource;
  namespaces: ServedResource;
}

function kind(api: ApiServer, group: string, version: string, resource: string): ServedResource {
  const r = api.resources.find(group, version, resource);
  if (!r) throw new Error(`sandbox OCM: ${resource}.${group}/${version} is not served`);
  return r;
}

export function ocmKinds(api: ApiServer): OcmKinds {
  return {
    managedClusters: kind(api, CLUSTER_GROUP, 'v1', 'managedclusters'),
    clusterSets: kind(api, CLUSTER_GROUP, 'v1beta2', 'managedclustersets'),
    bindings: kind(api, CLUSTER_GROUP, 'v1beta2', 'managedclustersetbindings'),
    placements: kind(api, CLUSTER_GROUP, 'v1beta1', 'placements'),
    decisions: kind(api, CLUSTER_GROUP, 'v1beta1', 'placementdecisions'),
    works: kind(api, WORK_GROUP, 'v1', 'manifestworks'),
    replicaSets: kind(api, WORK_GROUP, 'v1alpha1', 'manifestworkreplicasets'),
    namespaces: kind(api, '', 'v1', 'namespaces'),
  };
}

/** Writes `status` when it changed (a controller that rewrites an unchanged status spins its watchers). */
export function writeStatus(api: ApiServer, r: ServedResource, o: KObject, status: unknown): void {
  if (JSON.stringify(o.status ?? {}) === JSON.stringify(status)) return;
  api.updateObject(r, { ...o, status } as KObject, 'status');
}

/** Creates the object, or replaces what differs of it (its labels, spec or other top-level fields). */
export function createOrUpdate(api: ApiServer, r: ServedResource, desired: KObject): KObject {
  const existing = api.storeGet(r, desired.metadata.namespace, desired.metadata.name ?? '');
  if (!existing) return api.createObject(r, structuredClone(desired));
  const { metadata, ...rest } = desired;
  const body: Partial<KObject> = { ...rest };
  delete body.status;
  const merged = {
    ...existing,
    ...body,
    metadata: {
      ...existing.metadata,
      labels: { ...existing.metadata.labels, ...metadata.labels },
      ...(metadata.ownerReferences ? { ownerReferences: metadata.ownerReferences } : {}),
    },
  } as KObject;
  if (JSON.stringify(merged) === JSON.stringify(existing)) return existing;
  return api.updateObject(r, merged);
}

export type Conditions = { type: string; status: string; reason: string; message: string }[];

export const isTrue = (conditions: Conditions | undefined, type: string): boolean =>
  conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
