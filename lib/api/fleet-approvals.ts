// The OLM v1 half of Approvals across clusters (app/api/fleet/approvals/**): each ClusterExtension
// that could move to a newer version its channels offer but will not by itself, its preview and
// the result of changing it. Types only.
import type { ClusterError } from './fleet';
import type { VersionPlan } from './olm-v1-extensions';

export interface FleetVersionChange {
  /** The ClusterExtension. */
  name: string;
  package: string;
  /** spec.namespace: where it installs. */
  namespace?: string;
  /** Its resourceVersion when read: the change is made only on the extension as it was. */
  resourceVersion?: string;
  installed: { bundle: string; version: string };
  /** spec.source.catalog.version as set: the pin or range that keeps it where it is. */
  constraint?: string;
  channels: string[];
  /** The version one upgrade away (the highest successor its channels offer), the one approving sets. */
  to: { version: string; bundle: string; catalog: string };
  /** The newest version its channels offer, where more than one upgrade away, and the versions on the way. */
  newest?: { version: string; path: string[] };
}

/** POST /api/fleet/approvals/preview: one ClusterExtension's change to preview. */
export interface FleetVersionChangeRef {
  cluster: string;
  name: string;
  version: string;
}

export type FleetVersionPreview = { cluster: string; name: string } & (
  { ok: true; plan: VersionPlan } | { ok: false; error: ClusterError }
);

export interface FleetPreviewResponse {
  versionChanges: FleetVersionPreview[];
}

/** One ClusterExtension to change in POST /api/fleet/approvals/approve. */
export interface FleetVersionChangeItem extends FleetVersionChangeRef {
  /** The resourceVersion the person saw. */
  seen: string;
}

export type FleetVersionChangeResult = { cluster: string; name: string; version: string } & (
  { ok: true; resourceVersion?: string } | { ok: false; error: ClusterError }
);
