// What the leftover-cleanup routes answer: the plan with the keys its apply sends back, and
// each step's outcome.
import type { CleanupPlan, CleanupStep } from '../olm/install/leftovers-plan';

/** A plan as the routes answer it: each step with the key the apply must be sent back (`seen`). */
export type PlannedCleanup = Omit<CleanupPlan, 'steps'> & { steps: (CleanupStep & { key: string })[] };

export interface CleanupResultStep {
  action: CleanupStep['action'];
  kind: string;
  name: string;
  namespace?: string;
  outcome: 'deleted' | 'already-gone' | 'finalizers-removed' | 'failed' | 'not-done';
  message?: string;
}
