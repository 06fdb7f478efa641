// The default sources API's answers (`/api/operatorhub…`), shared by the route handlers that make
// them and the Catalogs page. Types only.
import type {
  DefaultSourceState,
  HubSourceStatus,
  HubSwitch,
  SubscriptionRef,
  SwitchPlan,
} from '../olm/catalog/operator-hub-config';
import type { CatalogHealth } from '../olm/status/catalog-health';
import type { Allowed } from './catalog-sources';

export type { HubSwitch, SubscriptionRef };

export interface DefaultSourceRow extends DefaultSourceState {
  /** CatalogSource openshift-marketplace/<name> as it is now (absent once the operator deleted it). */
  catalogSource?: { managed: boolean; health: CatalogHealth };
  /** Subscriptions that install from it. */
  subscriptions: SubscriptionRef[];
}

export interface OperatorHubView {
  /**
   * `served`: the cluster serves config.openshift.io/v1 operatorhubs (OpenShift); `absent`: it
   * does not (upstream OLM has no switch for its catalogs).
   */
  api: 'served' | 'absent';
  /** OperatorHub `cluster`: read, missing, or not readable by the person (with the reason). */
  state?: 'present' | 'absent' | 'forbidden';
  message?: string;
  resourceVersion?: string;
  disableAllDefaultSources?: boolean;
  sources: DefaultSourceRow[];
  /** Entries of spec.sources that name no default source, with what the operator reported. */
  otherEntries: { name: string; disabled: boolean; reported?: HubSourceStatus }[];
  /** Why the Subscriptions or CatalogSources could not all be read. */
  problems: string[];
  /** `update operatorhubs.config.openshift.io`, by SelfSubjectAccessReview. */
  canChange: Allowed;
}

export interface OperatorHubPlan extends SwitchPlan {
  change: HubSwitch;
  /** The resourceVersion the plan was made on. */
  resourceVersion?: string;
  warnings: string[];
  allowed: Allowed;
}

export interface OperatorHubApplied {
  plan: OperatorHubPlan;
  resourceVersion?: string;
}
