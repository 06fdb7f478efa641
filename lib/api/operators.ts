// The day-two API's answers (`/api/operators…`), shared by the route handlers that make them and
// the pages that show them. Types only.
import type { GraphView } from '../hub/catalog-types';
import type { ExtensionRow } from './olm-v1-extensions';
import type { ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import type { Condition } from '../olm/resources/common';
import type { CsvDescription } from '../olm/resources/csv-description';
import type { Subscription } from '../olm/resources/subscription';
import type { CsvDisplayStatus } from '../olm/status/csv-status';
import type { InstalledOperatorRow } from '../olm/status/installed-operators';
import type { InstallPlanSummary } from '../olm/status/install-plan-status';
import type { ConditionRow, UpgradeStatus } from '../olm/status/subscription-status';

export type { InstalledOperatorRow };

export interface InstalledOperatorsResponse {
  namespace: string | null;
  copiedCsvsDisabled: boolean;
  /** Rows that are copies (namespace view only). */
  copies: number;
  operators: InstalledOperatorRow[];
  /** OLM v1's ClusterExtensions (installing into `namespace`), where the cluster serves them and the person may list them. */
  extensions?: ExtensionRow[];
}

export interface ChannelOption {
  name: string;
  current: boolean;
  /** Whether OLM can move the installed CSV to this channel (it is there, or an entry upgrades from it). */
  allowed: boolean;
  reason?: string;
  /** The CSV OLM would upgrade to in that channel. */
  next?: string;
}

export interface OperatorDetails {
  csv: ClusterServiceVersion;
  description: CsvDescription;
  status: CsvDisplayStatus;
  copiedFrom?: string;
  /** For a copy: the Subscription in `copiedFrom` that installs this CSV, when the person may read it. */
  sourceSubscription?: string;
  /** The CSV OLM installed in this one's place (its `spec.replaces` names this one), once this one is no longer the installed CSV. */
  replacedBy?: { csv: string; subscription: string };
  subscription?: {
    object: Subscription;
    conditions: ConditionRow[];
    upgrade: UpgradeStatus;
    /** The package's channels and whether OLM can move this operator to each, from the catalog's graph. */
    channels?: ChannelOption[];
  };
  /** What holds back the next upgrade: a plan waiting for approval, the operator's own Upgradeable=False, an unhealthy catalog. */
  upgradeBlockers: string[];
  /** The health of the Subscription's catalog, when the person may read the CatalogSource. */
  catalog?: {
    namespace: string;
    name: string;
    state: string;
    healthy: boolean;
    lastConnect?: string;
    explanation: string;
  };
  installPlans: { name: string; summary: InstallPlanSummary; createdAt?: string; resourceVersion?: string }[];
  /**
   * The operator's OperatorGroup: for OLM's copy of a CSV, the one where the operator runs (named
   * by the copy's `olm.operatorGroup`), whose targets are absent when the person may not read it.
   */
  operatorGroup?: {
    name: string;
    namespace: string;
    targets?: 'all' | string[];
    createdByConsole: boolean;
    conditions?: Condition[];
  };
  events: {
    type?: string;
    reason?: string;
    message?: string;
    object: string;
    count?: number;
    lastTimestamp?: string;
  }[];
  /** The path OLM walks from the installed CSV to the channel head, when the catalog is readable. */
  updatePath?: GraphView['path'] & { channel: string; head?: string; edgesKnown: boolean };
  updatePathProblem?: string;
}

export interface OperandRef {
  apiVersion: string;
  kind: string;
  plural: string;
  name: string;
  namespace?: string;
}

export interface UninstallPreview {
  namespace: string;
  csv: string;
  displayName: string;
  subscription?: string;
  /** Copies OLM removes with the CSV. */
  copies: number;
  uninstallMessage?: string;
  operandDeleteDisabled: boolean;
  removes: string[];
  stays: string[];
  operands: { total: number; byNamespace: Record<string, OperandRef[]>; problems: string[] };
  /** With `?complete=true`: what removing the CRDs too would take. */
  crdRemoval?: CrdRemoval;
  operatorGroup?: { name: string; createdByConsole: boolean; lastOperator: boolean };
}

/** Removing the operator's CRDs with it: what they hold and who else uses them. */
export interface CrdRemoval {
  crds: {
    name: string;
    kind: string;
    /** Instances in the whole cluster, by namespace ('' for cluster-scoped ones). */
    instances: number;
    byNamespace: Record<string, number>;
    /** Instances already being deleted, held by these finalizers. */
    holding: { namespace?: string; name: string; finalizers: string[] }[];
  }[];
  instances: number;
  /** Other operators that own or require one of the CRDs: each one refuses the removal. */
  usedBy: { crd: string; csv: string; namespace: string; relation: 'owns' | 'requires' }[];
  /** What could not be checked (a person who may not list every namespace): each one refuses it. */
  problems: string[];
  /** `delete customresourcedefinitions`, by SelfSubjectAccessReview. */
  allowed: { allowed: boolean; reason?: string };
  /** What to type to confirm deleting the instances (empty when there are none). */
  confirmation: string;
}

export interface UninstallStep {
  kind: string;
  name: string;
  namespace?: string;
  outcome: 'deleted' | 'already-gone' | 'failed' | 'not-done';
  message?: string;
}
