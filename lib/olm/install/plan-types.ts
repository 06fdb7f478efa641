// The shapes of an install plan: what the server gathers (InstallFacts), what the person asked
// (InstallRequest) and what the plan says will happen (InstallPlanResult). planInstall in plan.ts
// decides; its steps are in plan-namespace.ts, plan-operator-group.ts, plan-subscription.ts and
// plan-warnings.ts.
import type { InstallMode, InstallModeType } from '../resources/cluster-service-version';
import type { NamespaceTemplate } from '../resources/csv-description';
import type { OperatorGroup } from '../resources/operator-group';
import type { Approval, Subscription } from '../resources/subscription';
import type { SubscriptionConfig } from '../resources/subscription-config';
import type { BundleContent, ScopedRbac } from './scoped-install';
import type { CsvOpenShiftOptions, OpenShiftClusterFacts, OpenShiftOptionsView } from './openshift-options';
import type { OpenShiftChoices, OpenShiftNoticeCode } from './openshift-plan';

export interface InstallRequest {
  catalog: { namespace: string; name: string };
  package: string;
  channel: string;
  /** The version picked (CSV name); the channel head when absent. */
  csvName?: string;
  namespace: string;
  installMode: InstallModeType;
  /** Watched namespaces for SingleNamespace / MultiNamespace. */
  targetNamespaces?: string[];
  approval: Approval;
  /** The Subscription's `spec.config` (pod placement, resources, environment…), if any. */
  config?: SubscriptionConfig;
  /**
   * Install with a service account's rights (the OperatorGroup's `serviceAccountName`): named
   * for a group the install creates; `grant` also creates the Role and bindings the bundle needs.
   */
  serviceAccount?: { name: string; grant: boolean };
  /** OpenShift's install options: cloud token values, console plugins to enable, cluster monitoring. */
  openshift?: OpenShiftChoices;
}

export interface VersionFacts {
  csvName: string;
  version?: string;
  isHead: boolean;
  headCsvName?: string;
  installModes: InstallMode[];
  /** `Kind.version.group` of every API the version owns. */
  providedApis: string[];
  suggestedNamespaceTemplate?: NamespaceTemplate;
  nonStandalone: boolean;
  deprecations: string[];
  /** `olm.package.required` (package and range) and `olm.gvk.required` (Kind.version.group). */
  requiredPackages?: { packageName: string; versionRange: string }[];
  requiredApis?: string[];
  /** What the CSV's annotations say about OpenShift's install options. */
  openshiftOptions?: CsvOpenShiftOptions;
}

export interface InstallFacts {
  request: InstallRequest;
  version: VersionFacts;
  catalog: { displayName?: string; publisher?: string };
  /** `unknown` when the person may not read namespaces. */
  namespaceExists: boolean | 'unknown';
  operatorGroups: OperatorGroup[];
  subscriptions: Subscription[];
  /** Subscriptions to the same package in other namespaces, when the person may list them. */
  elsewhere?: { namespace: string; name: string }[];
  /** Every OperatorGroup of the cluster, when the person may list them (provided-API conflicts). */
  clusterGroups?: OperatorGroup[];
  /** What the person may not do, with the cluster's reason (from SelfSubjectAccessReview). */
  denied: {
    createNamespace?: string;
    createOperatorGroup?: string;
    createSubscription?: string;
    createServiceAccount?: string;
    grantRbac?: string;
    monitoringRbac?: string;
  };
  /** The service accounts of the namespace, when an install with one is planned and they are readable. */
  serviceAccounts?: string[];
  /** The bundle's CSV and manifests, read when an install with a service account is planned. */
  bundle?: BundleContent;
  /**
   * The dependencies OLM would install with it (resolved from the same catalog, as OLM tries it
   * first) and their bundles; `unresolved` says why they could not all be known.
   */
  dependencyBundles?: { names: string[]; contents: BundleContent[]; unresolved?: string };
  /** OpenShift's cluster objects the install options read; absent on other clusters. */
  openshiftCluster?: OpenShiftClusterFacts;
}

export type PlannedKind =
  | 'Namespace'
  | 'ServiceAccount'
  | 'Role'
  | 'RoleBinding'
  | 'ClusterRole'
  | 'ClusterRoleBinding'
  | 'OperatorGroup'
  | 'Subscription'
  | 'Console'
  // OLM v1's install plans the same way (lib/olm/v1/install-plan.ts).
  | 'ClusterExtension';

export interface PlannedObject {
  /** `patch`: an existing object changed (only Console `cluster`'s spec.plugins), `change` says how. */
  action: 'create' | 'reuse' | 'patch';
  change?: string;
  /** For `patch`: the plugins to add, the rest of the list being whatever it is when applied. */
  adds?: string[];
  kind: PlannedKind;
  name: string;
  namespace?: string;
  object: Record<string, unknown>;
}

export type NoticeCode =
  | 'unsupportedInstallMode'
  | 'operatorGroupConflict'
  | 'alreadyInstalledHere'
  | 'subscriptionNameTaken'
  | 'forbidden'
  | 'alreadyInstalledElsewhere'
  | 'nonHeadForcesManual'
  | 'sharedApprovalManual'
  | 'manualAffectsOthers'
  | 'communityCatalog'
  | 'providedApiConflict'
  | 'deprecated'
  | 'nonStandalone'
  | 'namespaceUnknown'
  | 'namespaceNotSuggested'
  | 'dependencies'
  | 'scopedInstall'
  | 'serviceAccountMismatch'
  | OpenShiftNoticeCode;

export interface Notice {
  code: NoticeCode;
  message: string;
}

export interface InstallPlanResult {
  objects: PlannedObject[];
  /** The approval the Subscription gets (a non-head version forces Manual). */
  approval: Approval;
  startingCSV?: string;
  targets: string[];
  warnings: Notice[];
  /** Non-empty: the install cannot go ahead as asked. */
  blockers: Notice[];
  /** The same Subscription already exists: applying again changes nothing. */
  alreadyInstalled: boolean;
  /** OLM installs with the OperatorGroup's service account: which, and the rights it needs. */
  scoped?: ScopedInstall;
  /** On OpenShift: which of its install options apply to this version and namespace, and why not. */
  openshift?: OpenShiftOptionsView;
}

export interface ScopedInstall {
  serviceAccount: string;
  operatorGroup: string;
  /** The install creates the OperatorGroup (and so chose the account). */
  groupIsNew: boolean;
  accountExists: boolean | 'unknown';
  rbac: ScopedRbac;
  /** The plan creates the rbac objects. */
  granted: boolean;
  /** OLM installs the version's dependencies in the same plan, as the same account: whether their rules are in `rbac`, in words. */
  dependencies?: { included: boolean; message: string };
}

/** Marks what the console made, so uninstall can offer to remove a group it created. */
export const CREATED_BY_LABEL = 'olm-console.io/created-by';

export function operatorGroupName(namespace: string): string {
  return `${namespace}-operators`.slice(0, 63).replace(/-+$/, '');
}

/** What the steps of a plan add to: objects in the order they are applied, and the notices. */
export interface PlanDraft {
  objects: PlannedObject[];
  warnings: Notice[];
  blockers: Notice[];
}
