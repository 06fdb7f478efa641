// `GET /api/cluster-upgrade?target=M.N`: every installed operator against a cluster minor version.
// Types, and the one rule for `target` that the route enforces and the page checks before asking.

/** An OpenShift minor version, major and minor only (4.19). */
export const TARGET_VERSION = /^\d{1,3}\.\d{1,3}$/;
export const TARGET_VERSION_RULE = 'target is an OpenShift minor version such as 4.19';

export interface ReadinessBlocker {
  kind: 'maxOpenShiftVersion' | 'upgradeable' | 'deprecated';
  message: string;
}

export interface WayOut {
  /** The first version on the operator's path that clears the blocker, and the hops to it (one InstallPlan each). */
  to: string;
  version?: string;
  hops: string[];
  channel: string;
}

export interface ReadinessRow {
  namespace: string;
  subscription: string;
  package: string;
  csv: string;
  version?: string;
  /** The CSV's spec.displayName: what the row is called, with the version. */
  displayName?: string;
  /** `olm.maxOpenShiftVersion` as OLM reads it: the value, or why OLM refuses it. */
  maxOpenShiftVersion?: string;
  blockers: ReadinessBlocker[];
  wayOut?: WayOut;
  /** Why no way out is given for a maxOpenShiftVersion blocker. */
  noWayOut?: string;
}

export interface ReadinessReport {
  /** The cluster's version: OpenShift's ClusterVersion desired version, else Kubernetes' /version. */
  cluster: { kind: 'openshift' | 'kubernetes'; version: string };
  /** The OpenShift minor the operators are checked against; absent when none applies. */
  target?: string;
  /** OLM's own words for the ClusterOperator condition, when something blocks the target. */
  olmMessage?: string;
  rows: ReadinessRow[];
  problems: string[];
}
