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
  installPlan?: {
    name: string;
    resourceVersion?: string;
    summary: InstallPlanSummary;
    components: { kind: string; name: string; status: string }[];
  };
  csv?: {
    name: string;
    phase: string;
    reason: string;
    message?: string;
    status: CsvDisplayStatus;
    initializationResource?: CsvDescription['initializationResource'];
    /** The CRDs the operator owns: what someone can create once it runs. */
    ownedApis?: OwnedApi[];
    conditions: { phase?: string; reason?: string; message?: string; lastTransitionTime?: string }[];
  };
}

export interface OwnedApi {
  group: string;
  version: string;
  kind: string;
  /** The resource's plural, for the create form's address. */
  plural: string;
  displayName?: string;
}

/** The owned CRDs of a CSV's description (aggregated APIs have no form to create them). */
export function ownedApisOf(desc: Pick<CsvDescription, 'providedApis'>): OwnedApi[] {
  return desc.providedApis
    .filter((a) => a.crd)
    .map((a) => ({
      group: a.group,
      version: a.version,
      kind: a.kind,
      plural: a.name.slice(0, a.name.indexOf('.')),
      ...(a.displayName ? { displayName: a.displayName } : {}),
    }));
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
  if (p.installPlan?.summary.phase === 'Failed')
    return { stage: 'failed', detail: p.installPlan.summary.message ?? 'the InstallPlan failed' };
  if (p.csv?.phase === 'Succeeded') return { stage: 'succeeded', detail: p.csv.status.detail };
  if (failedCondition) return { stage: 'failed', detail: `${failedCondition.reason}: ${failedCondition.message}` };
  if (p.installPlan?.summary.needsApproval)
    return { stage: 'approval', detail: `InstallPlan ${p.installPlan.name} waits for approval` };
  if (p.csv || p.installPlan?.summary.phase === 'Installing' || p.installPlan?.summary.approved) {
    return {
      stage: 'installing',
      detail: p.csv
        ? `${p.csv.name}: ${p.csv.phase || 'created'}${p.csv.reason ? ` (${p.csv.reason})` : ''}${p.csv.message ? ` — ${p.csv.message}` : ''}`
        : `InstallPlan ${p.installPlan?.name ?? ''} is ${p.installPlan?.summary.label.toLowerCase() ?? 'running'}${
            // Why OLM has not run it yet (InstallCheckFailed: the OperatorGroup not yet synced) or
            // what it retries (a refused write): otherwise the page says "installing" for minutes.
            p.installPlan?.summary.message ? `; OLM says: ${p.installPlan.summary.message}` : ''
          }`,
    };
  }
  return { stage: 'resolving', detail: p.upgrade.detail || 'OLM is resolving the bundle and its dependencies' };
}

/**
 * After an install succeeded, the InstallPlan already waiting for approval (Manual) for the next
 * version: OLM resolves the next upgrade as soon as the install is done, which is why the
 * Subscription then says InstallPlanPending=True (RequiresApproval) although nothing is installing.
 */
export function waitingUpgrade(p: SubscriptionProgress): { plan: string; csvNames: string[] } | undefined {
  if (p.csv?.phase !== 'Succeeded') return undefined;
  const plan = p.installPlan;
  if (plan?.summary.needsApproval && !plan.summary.csvNames.includes(p.csv.name)) {
    return { plan: plan.name, csvNames: plan.summary.csvNames };
  }
  const other = p.upgrade.pendingApproval.find((n) => n !== plan?.name);
  return other ? { plan: other, csvNames: [] } : undefined;
}
