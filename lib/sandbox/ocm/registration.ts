// Cluster registration as OCM v1.0.0 does it, for the sandbox's own clusters: each member's
// klusterlet registration agent joins the hub (a ManagedCluster with its API server's address and
// CA as `spec.managedClusterClientConfigs`, its Kubernetes version, its ClusterClaims copied into
// `status.clusterClaims`, conditions Joined and Available) and the hub's registration controller
// accepts it (HubAcceptedManagedCluster), makes its namespace and keeps the `default` and `global`
// ManagedClusterSets and every set's and binding's status. The cluster-set label on a cluster that
// names none is what OCM's registration webhook adds. A ManagedCluster someone writes by hand,
// with no sandbox cluster behind it, is accepted when `hubAcceptsClient` and never joins, as a
// cluster whose agent never comes.
import { matchesLabelSelector } from '../../olm/resources/label-selector';
import type { LabelSelector } from '../../olm/resources/common';
import { nowRfc3339, setCondition, type Condition } from '../olm-v1/conditions';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { CLUSTER_GROUP } from './crds';
import { CLUSTER_SET_LABEL, writeStatus, type OcmKinds } from './objects';

const CLEANUP_FINALIZERS = [
  'cluster.open-cluster-management.io/resource-cleanup',
  'cluster.open-cluster-management.io/api-resource-cleanup',
];

/** A cluster whose registration agent runs in this process. */
export interface OcmMember {
  name: string;
  url: string;
  caPem: string;
  api: ApiServer;
}

type ManagedCluster = KObject & {
  spec?: { hubAcceptsClient?: boolean };
  status?: { conditions?: Condition[] };
};

export type ClusterSet = KObject & {
  spec?: { clusterSelector?: { selectorType?: string; labelSelector?: LabelSelector } };
};

/** The clusters a set selects, as OCM's ManagedClusterSet selector types define membership. */
export function clustersOfSet(set: ClusterSet, clusters: KObject[]): KObject[] {
  const sel = set.spec?.clusterSelector;
  if (sel?.selectorType === 'LabelSelector')
    return clusters.filter((c) => matchesLabelSelector(sel.labelSelector ?? {}, c.metadata.labels));
  return clusters.filter((c) => c.metadata.labels?.[CLUSTER_SET_LABEL] === set.metadata.name);
}

function claimsOf(member: OcmMember): { name: string; value: string }[] {
  const r = member.api.resources.find(CLUSTER_GROUP, 'v1alpha1', 'clusterclaims');
  if (!r) return [];
  return member.api
    .storeList(r)
    .map((c) => ({ name: c.metadata.name ?? '', value: String((c.spec as { value?: unknown })?.value ?? '') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export class Registration {
  constructor(
    private readonly hub: ApiServer,
    private readonly kinds: OcmKinds,
    private readonly members: readonly OcmMember[],
  ) {}

  /** The default and global sets the registration controller makes at start. */
  ensureDefaultSets(): void {
    const sets: ClusterSet[] = [
      {
        apiVersion: `${CLUSTER_GROUP}/v1beta2`,
        kind: 'ManagedClusterSet',
        metadata: { name: 'default' },
        spec: { clusterSelector: { selectorType: 'ExclusiveClusterSetLabel' } },
      },
      {
        apiVersion: `${CLUSTER_GROUP}/v1beta2`,
        kind: 'ManagedClusterSet',
        metadata: { name: 'global' },
        spec: { clusterSelector: { selectorType: 'LabelSelector', labelSelector: {} } },
      },
    ];
    for (const s of sets)
      if (!this.hub.storeGet(this.kinds.clusterSets, undefined, s.metadata.name!))
        this.hub.createObject(this.kinds.clusterSets, s);
  }

  /** Each member's agent: the ManagedCluster it registers, its labels left as people set them. */
  join(member: OcmMember): void {
    const existing = this.hub.storeGet(this.kinds.managedClusters, undefined, member.name);
    if (!existing)
      this.hub.createObject(this.kinds.managedClusters, {
        apiVersion: `${CLUSTER_GROUP}/v1`,
        kind: 'ManagedCluster',
        metadata: {
          name: member.name,
          labels: { [CLUSTER_SET_LABEL]: 'default' },
          // The registration controller auto-approves the sandbox's agents, as the real fleet's.
          annotations: { 'open-cluster-management.io/automatically-accepted-on': nowRfc3339() },
        },
        spec: {
          hubAcceptsClient: true,
          leaseDurationSeconds: 60,
          managedClusterClientConfigs: [{ url: member.url, caBundle: Buffer.from(member.caPem).toString('base64') }],
        },
      });
    else {
      // The agent keeps its address current (a restarted sandbox may listen elsewhere).
      const configs = [{ url: member.url, caBundle: Buffer.from(member.caPem).toString('base64') }];
      const spec = (existing.spec ?? {}) as { managedClusterClientConfigs?: unknown };
      if (JSON.stringify(spec.managedClusterClientConfigs) !== JSON.stringify(configs))
        this.hub.updateObject(this.kinds.managedClusters, {
          ...existing,
          spec: { ...spec, managedClusterClientConfigs: configs },
        });
    }
    this.reconcileCluster(member.name);
  }

  reconcileCluster(name: string): void {
    let mc = this.hub.storeGet(this.kinds.managedClusters, undefined, name) as ManagedCluster | undefined;
    if (!mc) return;
    // The registration controller's cleanup finalizers: OCM removes the cluster's works, roles and
    // lease first; the sandbox has nothing of the kind to remove, so it lets go at once.
    const finalizers = mc.metadata.finalizers ?? [];
    if (mc.metadata.deletionTimestamp) {
      if (finalizers.some((f) => CLEANUP_FINALIZERS.includes(f)))
        this.hub.updateObject(this.kinds.managedClusters, {
          ...mc,
          metadata: { ...mc.metadata, finalizers: finalizers.filter((f) => !CLEANUP_FINALIZERS.includes(f)) },
        });
      return;
    }
    if (!CLEANUP_FINALIZERS.every((f) => finalizers.includes(f)))
      mc = this.hub.updateObject(this.kinds.managedClusters, {
        ...mc,
        metadata: { ...mc.metadata, finalizers: [...new Set([...finalizers, ...CLEANUP_FINALIZERS])] },
      }) as ManagedCluster;
    const member = this.members.find((m) => m.name === name);
    let conditions = mc.status?.conditions ?? [];
    const accepted = mc.spec?.hubAcceptsClient === true;
    conditions = setCondition(
      conditions,
      accepted
        ? {
            type: 'HubAcceptedManagedCluster',
            status: 'True',
            reason: 'HubClusterAdminAccepted',
            message: 'Accepted by hub cluster admin',
          }
        : {
            type: 'HubAcceptedManagedCluster',
            status: 'False',
            reason: 'HubClusterAdminDenied',
            message: 'Denied by hub cluster admin',
          },
    );
    const status: Record<string, unknown> = { ...(mc.status ?? {}) };
    if (accepted && member) {
      conditions = setCondition(conditions, {
        type: 'ManagedClusterJoined',
        status: 'True',
        reason: 'ManagedClusterJoined',
        message: 'Managed cluster joined',
      });
      conditions = setCondition(conditions, {
        type: 'ManagedClusterConditionAvailable',
        status: 'True',
        reason: 'ManagedClusterAvailable',
        message: 'Managed cluster is available',
      });
      conditions = setCondition(conditions, {
        type: 'ManagedClusterConditionClockSynced',
        status: 'True',
        reason: 'ManagedClusterClockSynced',
        message: 'The clock of the managed cluster is synced with the hub.',
      });
      status.version = { kubernetes: member.api.version.gitVersion };
      const claims = claimsOf(member);
      if (claims.length) status.clusterClaims = claims;
      else delete status.clusterClaims;
      // The sandbox has one node of no stated size; OCM sums the nodes' capacity.
      status.capacity = { cpu: '4', memory: '16Gi', pods: '110' };
      status.allocatable = { cpu: '4', memory: '16Gi', pods: '110' };
      this.ensureNamespace(name);
    } else if (accepted) this.ensureNamespace(name);
    status.conditions = conditions;
    writeStatus(this.hub, this.kinds.managedClusters, mc, status);
  }

  private ensureNamespace(name: string): void {
    if (!this.hub.storeGet(this.kinds.namespaces, undefined, name))
      this.hub.createObject(this.kinds.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }

  /** ClusterSetEmpty on every set; Bound on every binding whose set exists. */
  reconcileSets(): void {
    const clusters = this.hub.storeList(this.kinds.managedClusters);
    for (const set of this.hub.storeList(this.kinds.clusterSets) as ClusterSet[]) {
      const n = clustersOfSet(set, clusters).length;
      const status = {
        conditions: setCondition((set.status as { conditions?: Condition[] })?.conditions ?? [], {
          type: 'ClusterSetEmpty',
          status: n ? 'False' : 'True',
          reason: n ? 'ClustersSelected' : 'NoClusterMatched',
          message: n ? `${n} ManagedClusters selected` : 'No ManagedCluster selected',
        }),
      };
      writeStatus(this.hub, this.kinds.clusterSets, set, status);
    }
    for (const b of this.hub.storeList(this.kinds.bindings)) {
      const setName = (b.spec as { clusterSet?: string })?.clusterSet ?? '';
      const bound = !!this.hub.storeGet(this.kinds.clusterSets, undefined, setName);
      const status = {
        conditions: setCondition((b.status as { conditions?: Condition[] })?.conditions ?? [], {
          type: 'Bound',
          status: bound ? 'True' : 'False',
          reason: bound ? 'ClusterSetBound' : 'ClusterSetNotFound',
          message: '',
        }),
      };
      writeStatus(this.hub, this.kinds.bindings, b, status);
    }
  }
}
