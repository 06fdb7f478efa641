// Where an install stands, from the Subscription, its InstallPlan and the CSV: the steps a
// progress view shows (resolving, approval, installing, succeeded) or the failure in OLM's words.
import type { CsvDescription } from '../resources/csv-description';
import { stoppedConditions, type Subscription } from '../resources/subscription';
import type { CsvDisplayStatus } from './csv-status';
import type { InstallPlanSummary } from './install-plan-status';
import type { ConditionRow, UpgradeStatus } from './subscription-status';

export interface SubscriptionProgress {
  subscription: Subscription;
  conditions: ConditionRow[];
  upgrade: UpgradeStatus;
  installPlan?: { name: string; resourceVersion?: string; summary: InstallPlanSummary; components: { kind: string; name: string; status: string }[] };
  csv?: { name: string; phase: string; reason: string; message?: string; status: CsvDisplayStatus; initializationResource?: CsvDescription['initializationResource']; conditions: { phase?: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

export type Stage = 'resolving' | 'approval' | 'installing' | 'succeeded' | 'failed';

export const INSTALL_STAGES: { key: Stage; label: string }[] = [
  { key: 'resolving', label: 'Resolving' },
  { key: 'approval', label: 'Approval' },
  { key: 'installing', label: 'Installing' },
  { key: 'succeeded', label: 'Succeeded' },
];

export function stageOf(p: SubscriptionProgress): { stage: Stage; detail: string } {
  const failedCondition = stoppedConditions(p.conditions)[0];
  if (p.csv?.phase === 'Failed') return { stage: 'failed', detail: `${p.csv.reason}: ${p.csv.message ?? ''}` };
  if (p.installPlan?.summary.phase === 'Failed') return { stage: 'failed', detail: p.installPlan.summary.message ?? 'the InstallPlan failed' };
  if (p.csv?.phase === 'Succeeded') return { stage: 'succeeded', detail: p.csv.status.detail };
  if (failedCondition) return { stage: 'failed', detail: `${failedCondition.reason}: ${failedCondition.message}` };
  if (p.installPlan?.summary.needsApproval) return { stage: 'approval', detail: `InstallPlan ${p.installPlan.name} waits for approval` };
  if (p.csv || p.installPlan?.summary.phase === 'Installing' || p.installPlan?.summary.approved) {
    return { stage: 'installing', detail: p.csv ? `${p.csv.name}: ${p.csv.phase || 'created'}${p.csv.reason ? ` (${p.csv.reason})` : ''}${p.csv.message ? ` — ${p.csv.message}` : ''}` : `InstallPlan ${p.installPlan?.name ?? ''} is ${p.installPlan?.summary.label.toLowerCase() ?? 'running'}` };
  }
  return { stage: 'resolving', detail: p.upgrade.detail || 'OLM is resolving the bundle and its dependencies' };
}

