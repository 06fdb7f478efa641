// What an InstallPlan's status says as OLM's catalog operator writes it: its shape, its
// conditions (with both time stamps), and the words of the errors a step returns
// (step_ensurer.go). Used by the catalog operator (catalog-operator.ts).
import type { PlanStep } from './install-steps';
import { now } from './operator-base';
import type { ServiceAccountRef } from './scoped';

export type PlanCond = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
};
export type PlanStatus = {
  phase?: string;
  plan?: PlanStep[];
  bundleLookups?: unknown[];
  conditions?: PlanCond[];
  message?: string;
  startTime?: string;
  attenuatedServiceAccountRef?: ServiceAccountRef;
};

/** An error ExecutePlan returns, in step_ensurer.go's words; `forbidden` when the API server refused the account. */
export class PlanStepError extends Error {
  constructor(
    message: string,
    readonly forbidden: boolean,
  ) {
    super(message);
  }
}

/** step_ensurer.go's words for a create that failed. */
export function createPrefix(kind: string, name: string): string {
  switch (kind) {
    case 'ClusterServiceVersion':
      return `error creating csv ${name}`;
    case 'Subscription':
      return `error creating subscription ${name}`;
    case 'ServiceAccount':
      return `error creating service account: ${name}`;
    case 'Role':
      return `error creating role ${name}`;
    case 'RoleBinding':
      return `error creating rolebinding ${name}`;
    case 'ClusterRole':
      return `error creating clusterrole ${name}`;
    case 'ClusterRoleBinding':
      return `error creating clusterrolebinding ${name}`;
    case 'Service':
      return `error updating service: ${name}`;
    case 'ConfigMap':
      return `error updating configmap: ${name}`;
    default:
      return `error creating unstructured object ${name}`;
  }
}

/** …and for an update of one that was there. */
export function updatePrefix(kind: string, name: string): string {
  switch (kind) {
    case 'Role':
      return `error updating role ${name}`;
    case 'RoleBinding':
      return `error updating rolebinding ${name}`;
    case 'ClusterRole':
      return `error updating clusterrole ${name}`;
    case 'ClusterRoleBinding':
      return `error updating clusterrolebinding ${name}`;
    case 'Service':
      return `error updating service: ${name}`;
    case 'ConfigMap':
      return `error updating configmap: ${name}`;
    default:
      return `error updating unstructured object ${name}`;
  }
}

/**
 * An InstallPlan condition as OLM's InstallPlanStatus.SetCondition writes it: both time stamps are
 * the moment of writing (ConditionMet / ConditionFailed), and the transition time is kept only
 * while the status stays the same (whatever the reason).
 */
export function planCondition(
  conds: PlanCond[] | undefined,
  c: Omit<PlanCond, 'lastUpdateTime' | 'lastTransitionTime'>,
): PlanCond[] {
  const t = now();
  const list = [...(conds ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const prev = i >= 0 ? list[i] : undefined;
  const next = {
    ...c,
    lastUpdateTime: t,
    lastTransitionTime: prev && prev.status === c.status ? (prev.lastTransitionTime ?? t) : t,
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}
