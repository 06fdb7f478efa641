// What the rollback routes answer: the installed version, the earlier ones a rollback may go
// back to, and the plan for one.
import type { RollbackPlan } from '../olm/install/rollback';
import type { ResubscribeResult } from './resubscribe';

export interface RollbackView {
  installed: { csvName: string; version?: string };
  subscription: string;
  channel?: string;
  earlier: { csvName: string; version?: string }[];
  /** Absent until a target is chosen. */
  plan?: RollbackPlan;
  target?: string;
}

/** A rollback is carried out as a resubscription at the earlier version. */
export type RollbackResult = ResubscribeResult;
