// GET /api/fleet/operators/<package>: one package's rollout across the fleet. Each cluster answers
// for itself, as the person: which installs of the package it runs, at which version, what upgrade
// waits there, the newest version its own catalog offers in the install's channel, and the path
// that cluster would take to it, or why that path cannot be known there.
import type { PerCluster } from './fleet';

export interface RolloutStep {
  from: string;
  to: string;
  toVersion?: string;
  /** v0: why OLM takes the step (replaces, skips, skipRange). */
  via?: string[];
}

export interface RolloutPath {
  steps: RolloutStep[];
  /** The walk ends on the channel's head. */
  reachesHead: boolean;
  /** Where the walk stops when it does not reach the head. */
  end?: string;
  /** Why OLM's walk stops with an error (a broken channel order, an unparsable version). */
  error?: string;
}

export interface RolloutInstall {
  olm: 'v0' | 'v1';
  /** v0: the Subscription; v1: the ClusterExtension. */
  name: string;
  /** v0: the Subscription's namespace; v1: the namespace the extension installs into. */
  namespace?: string;
  version?: string;
  /** v0: the installed CSV; v1: the installed bundle. */
  bundle?: string;
  /** v0: the Subscription's channel; v1: the channels the extension names, comma-separated. */
  channel?: string;
  /** v1: the extension's version constraint. */
  versionConstraint?: string;
  /** v0: `namespace/name` of the CatalogSource; v1: the ClusterCatalog the package came from. */
  catalog?: string;
  approval?: 'Automatic' | 'Manual';
  health: { severity: 'ok' | 'progressing' | 'warning' | 'error'; label: string; detail?: string };
  /** v0: the InstallPlan waiting for approval and what it moves between. */
  waiting?: { installPlan: string; from?: string; to: string[] };
  /** The newest version the channel offers on this cluster (inside v1's constraint). */
  head?: { name: string; version?: string };
  /** The steps from the installed version to the head, from this cluster's catalog edges. */
  path?: RolloutPath;
  /** Why the path is not known here; set whenever `path` is absent. */
  pathUnknown?: string;
}

export interface ClusterRollout {
  installs: RolloutInstall[];
  /** What the person may not read there, in the cluster's words. */
  notes: string[];
}

export interface FleetRolloutResponse {
  package: string;
  clusters: PerCluster<ClusterRollout>[];
}
