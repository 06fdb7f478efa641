// Subscription (operators.coreos.com/v1alpha1), docs/olm/subscriptions.md.
import { OLM_GROUP, type KubeObject, type ObjectReference, type ResourceType } from './common';

export const SUBSCRIPTION_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};

/** Only the exact value `Manual` is manual; anything else behaves as Automatic. */
export type Approval = 'Automatic' | 'Manual';

/** The values OLM defines; `UpgradeAvailable` is defined but never set (docs/olm/subscriptions.md#state). */
export type SubscriptionState = '' | 'UpgradeAvailable' | 'UpgradePending' | 'AtLatestKnown' | 'UpgradeFailed';

export interface SubscriptionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface Subscription extends KubeObject {
  spec: {
    name: string;
    source: string;
    sourceNamespace: string;
    channel?: string;
    startingCSV?: string;
    installPlanApproval?: Approval | string;
    config?: Record<string, unknown>;
  };
  status?: {
    currentCSV?: string;
    installedCSV?: string;
    installPlanRef?: ObjectReference;
    installplan?: { apiVersion?: string; kind?: string; name?: string; uuid?: string };
    installPlanGeneration?: number;
    state?: SubscriptionState | string;
    reason?: string;
    catalogHealth?: { catalogSourceRef?: ObjectReference; lastUpdated?: string; healthy?: boolean }[];
    conditions?: SubscriptionCondition[];
    lastUpdated?: string;
  };
}

/**
 * The conditions by which OLM says it has stopped moving a Subscription, so they are what a repair
 * answers: a failed InstallPlan is never run again and a failed unpack waits for a change; a failed
 * resolution is evaluated again on each change to the namespace, and may go by itself
 * (RefreshPlan.retriedByOlm in ../install/refresh.ts).
 */
export const STOPPED_CONDITION_TYPES: readonly string[] = [
  'ResolutionFailed',
  'InstallPlanFailed',
  'BundleUnpackFailed',
];

/** The Subscription's conditions that say OLM has stopped, in the order above. */
export function stoppedConditions<C extends { type: string; status: string }>(
  conditions: readonly C[] | undefined,
): C[] {
  return STOPPED_CONDITION_TYPES.flatMap((t) => (conditions ?? []).filter((c) => c.type === t && c.status === 'True'));
}

export function isManual(sub: Pick<Subscription, 'spec'>): boolean {
  return sub.spec.installPlanApproval === 'Manual';
}

export const SubscriptionConditionTypes = {
  catalogSourcesUnhealthy: 'CatalogSourcesUnhealthy',
  installPlanPending: 'InstallPlanPending',
  installPlanFailed: 'InstallPlanFailed',
  installPlanMissing: 'InstallPlanMissing',
  resolutionFailed: 'ResolutionFailed',
  bundleUnpacking: 'BundleUnpacking',
  bundleUnpackFailed: 'BundleUnpackFailed',
  packageDeprecated: 'PackageDeprecated',
  channelDeprecated: 'ChannelDeprecated',
  bundleDeprecated: 'BundleDeprecated',
  deprecated: 'Deprecated',
} as const;
