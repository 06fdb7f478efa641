// The OperatorCondition API's answers (`/api/operatorconditions…`), shared by the route handlers
// that make them and the operator page's Conditions tab. Types only.
import type { OperatorConditionRow, OverridePlan, UpgradeVerdict } from '../olm/resources/operator-condition-overrides';

export type { OperatorConditionRow, OverridePlan, UpgradeVerdict };

/** Whether the person may do something, by SelfSubjectAccessReview, with the cluster's reason. */
export interface Allowed {
  allowed: boolean;
  reason?: string;
}

export interface OperatorConditionView {
  namespace: string;
  /** The CSV's name, which is also the OperatorCondition's. */
  name: string;
  /** `absent`: OLM keeps none for this CSV (a copy, or a CSV OLM has not reconciled); `forbidden`: the person may not read it. */
  state: 'present' | 'absent' | 'forbidden';
  /** Why it is absent or cannot be read. */
  message?: string;
  resourceVersion?: string;
  generation?: number;
  rows: OperatorConditionRow[];
  upgrade?: UpgradeVerdict;
  /** `patch operatorconditions` in the namespace: what setting or removing an override takes. */
  canOverride: Allowed;
}

export interface OperatorConditionsList {
  namespace: string | null;
  operatorConditions: { namespace: string; name: string; rows: OperatorConditionRow[]; upgrade: UpgradeVerdict }[];
}

export interface OverrideApplied {
  plan: OverridePlan;
  /** The resourceVersion the patch was sent with, and the one written. */
  sentAt: string;
  resourceVersion?: string;
  view: OperatorConditionView;
}
