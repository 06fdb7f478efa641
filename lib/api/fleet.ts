// The fleet API's answers (app/api/fleet/**): every cluster the console serves, each answering for
// itself. A cluster that did not answer is a row with its error, never a missing row.
import type { PlanPart } from '../olm/status/plan-parts';
import type { FleetVersionChange, FleetVersionChangeResult } from './fleet-approvals';

export interface FleetClusterRef {
  name: string;
  /** The cluster every other page of the console shows. */
  home: boolean;
  /** Its API server's address. */
  server: string;
  /** What an Open Cluster Management hub (the home cluster) says of it, when it lists it. */
  managed?: ManagedClusterView;
}

/** A ManagedCluster on the hub, as the person read it (lib/server/fleet/hub-members.ts). */
export interface ManagedClusterView {
  /** Its name on the hub (the hub itself is `local-cluster` there). */
  name: string;
  /**
   * `hub`: the console serves it because the hub lists it; `settings`: the console's own
   * settings name it too (by name or address), and their address and credentials are the ones used.
   */
  source: 'hub' | 'settings';
  /** The address the hub gives (`spec.managedClusterClientConfigs[0].url`), if any. */
  url?: string;
  /** `cluster.open-cluster-management.io/clusterset`. */
  clusterSet?: string;
  claims: { name: string; value: string }[];
  /** HubAcceptedManagedCluster, ManagedClusterJoined and ManagedClusterConditionAvailable, as the hub has them. */
  conditions: { type: string; status: string; reason?: string; message?: string }[];
  /** Why the console does not ask it (no client config, not https…), when it does not. */
  unreachable?: string;
}

/** The hub's part in the fleet: why its ManagedClusters are not listed, when they are not. */
export interface FleetHub {
  /** The home cluster serves ManagedClusters. */
  hub: boolean;
  note?: string;
}

/** GET /api/fleet: the configured clusters, asked of none of them (the hub's list is read). */
export interface FleetIndex {
  clusters: FleetClusterRef[];
  hub?: FleetHub;
}

export interface ClusterError {
  code: number;
  reason: string;
  message: string;
}

/** One cluster's answer: what it said, or why it said nothing. */
export type PerCluster<T> = FleetClusterRef & ({ ok: true; value: T } | { ok: false; error: ClusterError });

/**
 * One line of a fleet answer sent cluster by cluster (`Accept: application/x-ndjson`): the first
 * names every cluster that will answer, each later one is one cluster's answer as it settled.
 */
export type FleetStreamLine<T> = { clusters: FleetClusterRef[]; hub?: FleetHub } | { cluster: PerCluster<T> };

export interface FleetCatalog {
  kind: 'CatalogSource' | 'ClusterCatalog';
  name: string;
  namespace?: string;
  healthy: boolean;
  /** CatalogSource: OLM's connection state; ClusterCatalog: Serving or why not. */
  state: string;
}

export interface FleetRight {
  label: string;
  allowed: boolean;
  reason?: string;
}

export interface ClusterSummary {
  /** The API server's /readyz: true when it answered ok. */
  ready: boolean;
  readiness: string;
  kubernetesVersion?: string;
  olmV0: {
    present: boolean;
    /** packageserver serves PackageManifests; unknown where its API answered an error (packageserverNote). */
    packageserver: boolean | 'unknown';
    /** Why packageserver's state is unknown, in the API server's words. */
    packageserverNote?: string;
    /** OLM's version, from the packageserver CSV OLM's manifests install. */
    version?: string;
    /** Why the version is not shown. */
    versionNote?: string;
  };
  olmV1: { present: boolean };
  catalogs: FleetCatalog[];
  /** What the person may not list among catalogs, in the cluster's words. */
  catalogNotes: string[];
  rights: FleetRight[];
}

export interface FleetClustersResponse {
  clusters: PerCluster<ClusterSummary>[];
  hub?: FleetHub;
}

export interface FleetInstall {
  olm: 'v0' | 'v1';
  /** v0: the Subscription's namespace; v1: the namespace the extension installs into. */
  namespace?: string;
  /** v0: the Subscription; v1: the ClusterExtension. */
  name: string;
  version?: string;
  /** v0: the installed CSV. */
  csv?: string;
  channel?: string;
  approval?: 'Automatic' | 'Manual';
  health: { severity: 'ok' | 'progressing' | 'warning' | 'error'; label: string; detail?: string };
  /** v0: OLM's upgrade state in words (upgrade waiting for approval, upgrading, up to date…). */
  upgrade?: { kind: string; label: string; detail: string };
  deprecated?: boolean;
  /** Its version differs from the fleet's most common version of the package. */
  drift: boolean;
}

export interface FleetOperatorRow {
  package: string;
  /** The version most installs run (ties: the highest), which drift is measured from. */
  commonVersion?: string;
  /** Cluster name → its installs of the package (absent: not installed there). */
  installs: Record<string, FleetInstall[]>;
}

export interface FleetOperatorsResponse {
  /** Each cluster: answered (how many installs it has) or why not. */
  clusters: PerCluster<{ installs: number; notes: string[]; namespaces?: string[] }>[];
  operators: FleetOperatorRow[];
}

export interface FleetPlanChange {
  /** The Subscription the CSV belongs to, where one names it. */
  subscription?: string;
  /** Its part of the plan (lib/olm/status/plan-parts.ts): `unclaimed` while OLM has yet to name its Subscription. */
  change: PlanPart['change'];
  package?: string;
  fromCsv?: string;
  fromVersion?: string;
  toCsv: string;
  toVersion?: string;
}

export interface FleetApproval {
  namespace: string;
  name: string;
  resourceVersion?: string;
  clusterServiceVersionNames: string[];
  createdAt?: string;
  changes: FleetPlanChange[];
}

/** One cluster's approvals waiting: InstallPlans (OLM v0) and version changes (OLM v1). */
export interface ClusterApprovals {
  approvals: FleetApproval[];
  versionChanges: FleetVersionChange[];
  /** What the person may not read there, in the cluster's words. */
  notes: string[];
  /**
   * The namespaces read one by one where the cluster refused the person a list of every namespace
   * (a namespace admin): the InstallPlans are those of these namespaces only.
   */
  namespaces?: string[];
}

export interface FleetApprovalsResponse {
  clusters: PerCluster<ClusterApprovals>[];
}

export interface FleetApproveRequestItem {
  cluster: string;
  namespace: string;
  name: string;
  resourceVersion?: string;
  clusterServiceVersionNames?: string[];
}

export type FleetApproveResult = { cluster: string; namespace: string; name: string } & (
  { ok: true; approved: string[] } | { ok: false; error: ClusterError }
);

export interface FleetApproveResponse {
  /** One per InstallPlan, in the order asked. */
  results: FleetApproveResult[];
  /** One per ClusterExtension, in the order asked. */
  versionChanges: FleetVersionChangeResult[];
}
