// The cluster settings API's answers (`/api/olmconfig…`), shared by the route handlers that make
// them and the cluster settings page. Types only.
import type { Condition } from '../olm/resources/common';
import type { CopiedCsvEffect } from '../olm/resources/olm-config-effect';
import type { Allowed } from './operator-conditions';

export type { CopiedCsvEffect };

export interface CopiedCsvEvent {
  namespace: string;
  csv: string;
  type?: string;
  message?: string;
  lastTimestamp?: string;
}

export interface OlmConfigView {
  /** `absent`: OLM has not created OLMConfig `cluster` (copies then stay enabled). */
  state: 'present' | 'absent' | 'forbidden';
  message?: string;
  resourceVersion?: string;
  disableCopiedCSVs: boolean;
  condition?: Condition;
  /** The condition in words: where OLM is with the setting. */
  explanation: { state: 'disabled' | 'disabling' | 'enabled' | 'restoring' | 'pending'; text: string };
  /** What switching to the other value does, counted now; why not, when the person may not list CSVs or namespaces. */
  effect?: CopiedCsvEffect;
  effectProblem?: string;
  /** The DisabledCopiedCSVs events OLM records on each operator whose copies it removed (when the person may list events). */
  events?: { count: number; items: CopiedCsvEvent[] };
  /** `update olmconfigs` cluster-wide. */
  canChange: Allowed;
}

export interface OlmConfigPlan {
  /** The value the change sets, and the exact change to OLMConfig `cluster`. */
  disableCopiedCSVs: boolean;
  noChange: boolean;
  change: { spec: { features: { disableCopiedCSVs: boolean } } };
  effect?: CopiedCsvEffect;
  effectProblem?: string;
  warnings: string[];
}

export interface OlmConfigApplied {
  plan: OlmConfigPlan;
  resourceVersion?: string;
  view: OlmConfigView;
}
