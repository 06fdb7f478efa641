// The ClusterExtension API's answers (`/api/olm-v1/clusterextensions/<name>…`) and the OLM v1 rows
// of Installed Operators, shared by the route handlers that make them and the pages that show them.
// Types only.
import type { Condition } from '../olm/resources/common';
import type { ObjectHealth, Verdict } from '../olm/v1/extension-health';
import type { ExtensionStatus } from '../olm/v1/extension-status';
import type { VersionOption } from '../olm/v1/extension-versions';
import type { VersionChangeChanges } from './upgrade-changes';

export type { ExtensionStatus, ObjectHealth, Verdict, VersionOption };

/** A ClusterExtension as a row of Installed Operators. */
export interface ExtensionRow {
  name: string;
  package?: string;
  /** spec.namespace: where it installs, and the namespace it belongs to in the list. */
  namespace?: string;
  /** status.install.bundle. */
  bundle?: string;
  version?: string;
  status: ExtensionStatus;
  deprecated: boolean;
  lastUpdated?: string;
}

export interface Allowed {
  allowed: boolean;
  reason?: string;
}

export interface InstalledObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  health: ObjectHealth;
  detail: string;
}

export interface ExtensionDetails {
  name: string;
  resourceVersion?: string;
  generation?: number;
  created?: string;
  deleting: boolean;
  status: ExtensionStatus;
  conditions: Condition[];
  deprecations: { of: 'package' | 'channel' | 'bundle'; message: string }[];
  spec: {
    namespace?: string;
    serviceAccount?: string;
    package?: string;
    version?: string;
    channels: string[];
    selector?: unknown;
    policy: 'CatalogProvided' | 'SelfCertified';
    crdUpgradeSafety?: string;
  };
  installed?: { name: string; version: string };
  objects: InstalledObject[];
  /** Kinds whose objects the person may not list (their health is unknown), in the cluster's words. */
  unread: { kind: string; reason: string }[];
  verdict: Verdict;
  /** The versions the catalogs offer from the installed bundle, or why they could not be read. */
  versions: VersionOption[] | { problem: string };
  canUpdate: Allowed;
  canDelete: Allowed;
}

/** `POST …/version/plan`: the bundle v1 would resolve with the version (and policy) asked for. */
/** An RBAC rule as the plan shows it. */
export interface PolicyRuleLike {
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
  verbs: string[];
}

/**
 * Whether the extension's ServiceAccount may install the bundle a change resolves to: the roles
 * this console granted already hold it, they are widened first (which roles, with the rules
 * added), the console cannot tell, and why, or the roles need more but are not the console's to
 * widen (the change is refused; the rules are there for whoever grants them).
 */
export type RightsForChange =
  | { state: 'held' }
  | { state: 'widen'; roles: string[]; added: PolicyRuleLike[] }
  | { state: 'unknown'; why: string }
  | { state: 'refused'; why: string; added: PolicyRuleLike[] };

export interface VersionPlan {
  version: string;
  policy: 'CatalogProvided' | 'SelfCertified';
  resolved?: { bundle: string; version: string; catalog: string };
  /** Resolution's error in operator-controller's words: v1 would keep what is installed and retry. */
  error?: string;
  /** What changes: the same version, an upgrade, a downgrade. */
  change?: 'same' | 'upgrade' | 'downgrade';
  /** The installer's rights for the resolved bundle (absent when nothing resolves). */
  rights?: RightsForChange;
  /** What the change does against the installed bundle (absent when nothing resolves or it stays). */
  changes?: VersionChangeChanges;
}

export interface UninstallCrd {
  name: string;
  kind?: string;
  /** Instances in the whole cluster, or why they could not be counted. */
  instances: number | { problem: string };
}

export interface ExtensionUninstallPreview {
  name: string;
  /** metadata.generation: the uninstall is refused when the spec changed since. */
  generation: number;
  crds: UninstallCrd[];
  crdsProblem?: string;
  /**
   * The ServiceAccount and `<name>-installer` roles and bindings the console's install made for this
   * extension (they carry its mark): the person may delete them with it, or keep them.
   */
  access: { kind: string; name: string; namespace?: string }[];
  /** Objects that look like the install's by name but are not offered, each with the reason. */
  notOffered: { kind: string; name: string; namespace?: string; reason: string }[];
  accessProblems: string[];
  canDelete: Allowed;
}
