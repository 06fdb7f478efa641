// An OperatorCondition as a person reads it, and an administrator's change to its overrides, by
// OLM's rules (docs/olm/operator-conditions.md#upgradeable):
//
// - The operator writes `spec.conditions`; OLM's OperatorCondition controller copies them into
//   `status.conditions` with `observedGeneration` (operatorcondition_controller.go).
// - An administrator writes `spec.overrides`. OLM's upgrade check
//   (pkg/controller/operators/olm/operatorconditions.go, isOperatorUpgradeable) looks at the
//   overrides first: an `Upgradeable` override decides (True lets the upgrade through, any other
//   status holds it back), and the operator's own condition is not read at all. Only without one does `status.conditions` count (False, or an
//   outdated observedGeneration, holds the upgrade back).
// - OLM v0 acts on `Upgradeable` only; other types are recorded and shown, nothing more.
// - The OpenShift docs ("Managing Operator conditions", olm-managing-operatorconditions): an
//   override is for an operator that reports its state wrongly; `spec.overrides` is absent until
//   an administrator adds it.
// - Both arrays are metav1.Condition: type, status, reason (CamelCase), message and
//   lastTransitionTime are all required by the CRD's schema.
import { findCondition, type Condition } from './common';
import { upgradeBlock, type OperatorCondition } from './operator-condition';

export const UPGRADEABLE = 'Upgradeable';

/** metav1.Condition's own limits, as the CRD's schema checks them. */
export const CONDITION_TYPE_PATTERN =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
export const CONDITION_REASON_PATTERN = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
export const CONDITION_TYPE_MAX = 316;
export const CONDITION_REASON_MAX = 1024;
export const CONDITION_MESSAGE_MAX = 32768;

export type ConditionStatus = Condition['status'];
export type ConditionSource = 'override' | 'operator';

export interface OperatorConditionRow {
  type: string;
  /** What OLM goes by: the override when there is one, else the operator's own condition. */
  effective: Condition & { source: ConditionSource };
  /** The operator's condition: from status (what OLM reads) or, before OLM copied it, from spec. */
  operator?: Condition & { from: 'status' | 'spec'; outdated: boolean };
  override?: Condition;
  /** OLM v0 acts on this type (Upgradeable only). */
  actedOn: boolean;
}

function operatorCondition(oc: OperatorCondition, type: string): OperatorConditionRow['operator'] {
  const status = findCondition(oc.status?.conditions, type);
  const generation = oc.metadata?.generation;
  // OLM compares observedGeneration < generation (operatorconditions.go).
  if (status)
    return {
      ...status,
      from: 'status',
      outdated:
        status.observedGeneration !== undefined && generation !== undefined && status.observedGeneration < generation,
    };
  const spec = findCondition(oc.spec?.conditions, type);
  return spec ? { ...spec, from: 'spec', outdated: true } : undefined;
}

/** Every condition type the object mentions (overrides, status, spec), Upgradeable first. */
export function operatorConditionRows(oc: OperatorCondition): OperatorConditionRow[] {
  const types = new Set<string>();
  for (const list of [oc.spec?.overrides, oc.status?.conditions, oc.spec?.conditions])
    for (const c of list ?? []) if (c?.type) types.add(c.type);
  return [...types]
    .sort((a, b) => (a === UPGRADEABLE ? -1 : b === UPGRADEABLE ? 1 : a.localeCompare(b)))
    .map((type) => {
      const override = findCondition(oc.spec?.overrides, type);
      const operator = operatorCondition(oc, type);
      const effective = override
        ? { ...override, source: 'override' as const }
        : { ...strip(operator!), source: 'operator' as const };
      return {
        type,
        effective,
        ...(operator ? { operator } : {}),
        ...(override ? { override } : {}),
        actedOn: type === UPGRADEABLE,
      };
    });
}

function strip(c: Condition & { from?: unknown; outdated?: unknown }): Condition {
  const { type, status, reason, message, lastTransitionTime, observedGeneration } = c;
  return {
    type,
    status,
    ...(reason !== undefined ? { reason } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(lastTransitionTime ? { lastTransitionTime } : {}),
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
  };
}

/** Whether OLM would upgrade this operator now, and what decides it. */
export interface UpgradeVerdict {
  blocked: boolean;
  message?: string;
  decidedBy: ConditionSource | 'none';
}

export function upgradeVerdict(oc: OperatorCondition): UpgradeVerdict {
  const b = upgradeBlock(oc);
  const decidedBy = findCondition(oc.spec?.overrides, UPGRADEABLE)
    ? 'override'
    : findCondition(oc.status?.conditions, UPGRADEABLE)
      ? 'operator'
      : 'none';
  return b.blocked ? { blocked: true, message: b.message, decidedBy } : { blocked: false, decidedBy };
}

export type OverrideChange =
  | { action: 'set'; type: string; status: ConditionStatus; reason: string; message: string }
  | { action: 'remove'; type: string };

/** The override of `type` the person saw before deciding (null: none). */
export type SeenOverride = { status: ConditionStatus; reason?: string; message?: string } | null;

/**
 * Someone else changed the override this change is about since the person looked: say what it is
 * now. Overrides of other types, the operator's conditions and OLM's status writes are no conflict
 * (the change is made on the object as it is now, and keeps them).
 */
export function overrideConflict(oc: OperatorCondition, type: string, seen: SeenOverride): string | undefined {
  const now = findCondition(oc.spec?.overrides, type);
  const same =
    seen === null
      ? !now
      : !!now &&
        now.status === seen.status &&
        (now.reason ?? '') === (seen.reason ?? '') &&
        (now.message ?? '') === (seen.message ?? '');
  if (same) return undefined;
  const describe = (c: SeenOverride | Condition | undefined) =>
    c ? `${c.status}${c.reason ? ` (${c.reason})` : ''}` : 'none';
  return `the ${type} override of OperatorCondition ${oc.metadata?.namespace ?? ''}/${oc.metadata?.name ?? ''} was changed meanwhile: it is now ${describe(now)}, you saw ${describe(seen ?? undefined)}; look again and decide`;
}

export interface OverridePlan {
  change: OverrideChange;
  /** Nothing to write: the override is already exactly so, or there is none to remove. */
  noChange: boolean;
  /** `spec.overrides` after the change. */
  overrides: Condition[];
  /** The JSON merge patch the console sends (plus the resourceVersion it read, against lost updates). */
  patch: { spec: { overrides: Condition[] | null } };
  /** The row of that type before and after. */
  before?: OperatorConditionRow;
  after?: OperatorConditionRow;
  upgrade: { before: UpgradeVerdict; after: UpgradeVerdict };
  /** What the change bypasses or brings back, in words. */
  warnings: string[];
}

function describeCondition(c: Condition | undefined): string {
  if (!c) return 'no condition';
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : c.message ? ` (${c.message})` : ''}`;
}

/** Words for what setting or removing an override does, from OLM's upgrade check. */
export function overrideWarnings(oc: OperatorCondition, change: OverrideChange): string[] {
  const csv = oc.metadata?.name ?? 'this CSV';
  const operator = operatorCondition(oc, change.type);
  const lifetime = `The override belongs to the OperatorCondition of ${csv}: once OLM replaces ${csv} with a new version, the new version's OperatorCondition starts without it.`;
  if (change.type !== UPGRADEABLE) {
    return change.action === 'set'
      ? [
          `OLM v0 acts only on ${UPGRADEABLE}: an override of ${change.type} is recorded on the OperatorCondition for whoever reads it, but changes nothing OLM does.`,
        ]
      : [`OLM v0 acts only on ${UPGRADEABLE}: removing the ${change.type} override changes nothing OLM does.`];
  }
  if (change.action === 'remove') {
    if (!operator)
      return [
        "OLM goes back to the operator's own Upgradeable condition; the operator reports none, so OLM upgrades it when a new version is available.",
      ];
    if (operator.outdated)
      return [
        `OLM goes back to the operator's own condition, ${describeCondition(operator)}, which is older than the OperatorCondition's latest change: until OLM reads it again, upgrades wait.`,
      ];
    return operator.status === 'False'
      ? [
          `OLM goes back to the operator's own condition, ${describeCondition(operator)}: upgrades of ${csv} wait again until the operator says it is safe.`,
        ]
      : [
          `OLM goes back to the operator's own condition, ${describeCondition(operator)}: it upgrades ${csv} when a new version is available, and holds back whenever the operator says it is not safe.`,
        ];
  }
  if (change.status === 'True') {
    const said =
      operator?.status === 'False'
        ? `The operator says it is not safe to upgrade now: ${describeCondition(operator)}. With this override OLM upgrades it anyway, as soon as a new version is available${operator.reason ? ' — in the middle of what the operator is protecting' : ''}.`
        : `The operator does not say now that an upgrade is unsafe, but from now on OLM no longer reads the operator's ${UPGRADEABLE} condition: if it later says an upgrade is not safe (a migration, a backup running), OLM upgrades anyway.`;
    return [
      `An ${UPGRADEABLE}=True override bypasses the operator's own safety check. ${said}`,
      'Use it only when you know the operator reports its state wrongly, and remove it once the upgrade is done.',
      lifetime,
    ];
  }
  const held = `OLM will not upgrade ${csv}, whatever the operator says: a new version waits Pending (OperatorConditionNotUpgradeable) with your message, until you remove or change the override.`;
  if (change.status === 'False') return [held, lifetime];
  // isOperatorUpgradeable lets an upgrade through only for an override that is True.
  return [
    `OLM lets an upgrade through only for an ${UPGRADEABLE} override that is True; Unknown holds it back like False. ${held}`,
    lifetime,
  ];
}

/**
 * The plan for one change of `spec.overrides`, on the object as it is now: the other overrides
 * are kept; a set keeps the override's lastTransitionTime when its status does not change
 * (as meta.SetStatusCondition does), else it is `now`.
 */
export function planOverrideChange(oc: OperatorCondition, change: OverrideChange, now: Date): OverridePlan {
  const current = oc.spec?.overrides ?? [];
  const existing = findCondition(current, change.type);
  let overrides: Condition[];
  let noChange: boolean;
  if (change.action === 'set') {
    const next: Condition = {
      type: change.type,
      status: change.status,
      reason: change.reason,
      message: change.message,
      lastTransitionTime:
        existing && existing.status === change.status && existing.lastTransitionTime
          ? existing.lastTransitionTime
          : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    noChange =
      !!existing &&
      existing.status === next.status &&
      existing.reason === next.reason &&
      existing.message === next.message;
    overrides = existing ? current.map((c) => (c.type === change.type ? next : c)) : [...current, next];
  } else {
    noChange = !existing;
    overrides = current.filter((c) => c.type !== change.type);
  }
  if (noChange) overrides = current;
  const after: OperatorCondition = { ...oc, spec: { ...oc.spec, overrides } };
  const rowOf = (o: OperatorCondition) => operatorConditionRows(o).find((r) => r.type === change.type);
  const before = rowOf(oc);
  const afterRow = rowOf(after);
  return {
    change,
    noChange,
    overrides,
    patch: { spec: { overrides: overrides.length ? overrides : null } },
    ...(before ? { before } : {}),
    ...(afterRow ? { after: afterRow } : {}),
    upgrade: { before: upgradeVerdict(oc), after: upgradeVerdict(after) },
    warnings: noChange
      ? [
          change.action === 'set'
            ? `The ${change.type} override is already exactly so: nothing to change.`
            : `There is no ${change.type} override to remove.`,
        ]
      : overrideWarnings(oc, change),
  };
}
