// What the refresh and resubscribe routes answer: the refresh plan, and each step's outcome.
import type { RefreshPlan } from '../olm/install/refresh';

export interface ResubscribeResult {
  subscription: { namespace: string; name: string };
  steps: { step: string; outcome: 'done' | 'failed' | 'undone' | 'already gone'; message?: string }[];
}

export interface RefreshView {
  plan: RefreshPlan;
}
