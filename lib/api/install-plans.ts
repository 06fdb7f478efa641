// `GET /api/installplans/<ns>/<name>` and the approve/deny answers. Types only.
import type { InstallPlan, Step } from '../olm/resources/install-plan';
import type { InstallPlanSummary, StepGroupName, StepManifest } from '../olm/status/install-plan-status';
import type { PlanPart } from '../olm/status/plan-parts';

export type { PlanPart };

export interface InstallPlanDetails {
  plan: InstallPlan;
  summary: InstallPlanSummary;
  /** Every Subscription the plan belongs to (colocated operators share one plan). */
  subscriptions: string[];
  denied?: { at?: string; by?: string };
  stepGroups: { group: StepGroupName; done: number; steps: (Step & { manifest: StepManifest })[] }[];
  /** Each operator's part of the plan: whose install, upgrade or dependency approving it approves. */
  parts: PlanPart[];
}

export interface DenyAnswer {
  summary: InstallPlanSummary;
  explanation: string;
}
