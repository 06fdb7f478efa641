// What an upgrade changes against the installed bundle: `GET /api/installplans/<ns>/<name>/changes`
// and the `changes` of a ClusterExtension's version-change preview. Types only.
import type { BringsChange } from '../olm/bundle/brings-change';
import type { PlanPart } from '../olm/status/plan-parts';

export type { BringsChange };

/** What the upgrade changes, or why that is not known (a side that could not be read). */
export type ChangeAnswer = BringsChange | { unknown: string };

/**
 * Where a side of the comparison was read:
 * - `cluster`: the installed CSV and its CRDs as the cluster holds them (their stored versions with them);
 * - `plan`: the objects in the InstallPlan's steps;
 * - `unpack-configmap`: the ConfigMap OLM unpacked the bundle image into, which the plan's steps point at;
 * - `catalog`: the bundle's objects as the catalog gives them;
 * - `image`: the bundle's image, pulled and read by the console.
 */
export type BundleSource = 'cluster' | 'plan' | 'unpack-configmap' | 'catalog' | 'image';

/** One side of an upgrade: which bundle, where it was read, and what could not be read of it. */
export interface BundleSide {
  bundle: string;
  source: BundleSource;
  /** Why the source is not the first choice (the plan pointed at a ConfigMap the person may not read…). */
  fallback?: string;
  /** What of this side could not be read (a CRD the person may not get…), in words. */
  gaps: string[];
}

/** A side as the API answers it, or why it is not known. */
export type SideAnswer = BundleSide | { unknown: string };

/** One operator's part of an InstallPlan, with what its upgrade changes. */
export interface PlanPartChanges {
  csv: string;
  change: PlanPart['change'];
  subscription?: string;
  /** The CSV installed now, for an upgrade. */
  from?: string;
  /** Both present for an upgrade: nothing is installed to compare an install or a dependency with. */
  installed?: SideAnswer;
  target?: SideAnswer;
  /** For an upgrade: what it changes, or why that is not known. */
  changes?: ChangeAnswer;
}

export interface InstallPlanChanges {
  name: string;
  namespace: string;
  /** The plan's resourceVersion when it was read. */
  resourceVersion: string;
  parts: PlanPartChanges[];
}

/** A ClusterExtension version change's `changes`: both bundles, and what the change does. */
export interface VersionChangeChanges {
  installed: SideAnswer;
  target: SideAnswer;
  changes: ChangeAnswer;
}
