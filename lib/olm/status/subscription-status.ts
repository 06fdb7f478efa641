// A Subscription's upgrade status in one word, as the installed-operators list shows it, and
// its conditions as a table. OLM never sets `UpgradeAvailable` and `installedCSV` does not mean
// the CSV succeeded (docs/olm/subscriptions.md#state), so the status is derived from the state,
// the referenced InstallPlan and the conditions together.
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';

export type UpgradeStatusKind =
  'up-to-date' | 'upgrade-available' | 'upgrading' | 'installing' | 'requires-approval' | 'failed' | 'unknown';

export interface UpgradeStatus {
  kind: UpgradeStatusKind;
  label: string;
  detail: string;
  /** The InstallPlans waiting for approval, for an "Approve" link. */
  pendingApproval: string[];
}

export interface UpgradeInputs {
  subscription: Subscription;
  /** InstallPlans in the namespace (only those owned by or referenced from the Subscription count). */
  installPlans?: readonly InstallPlan[];
  /** A newer CSV the catalog offers from the installed one (from the update path), if known. */
  catalogNext?: string;
}

function trueCondition(sub: Subscription, type: string) {
  return sub.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

function plansOf(sub: Subscription, plans: readonly InstallPlan[]): InstallPlan[] {
  const uid = sub.metadata?.uid;
  const ref = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  return plans.filter(
    (p) => p.metadata?.name === ref || (uid !== undefined && p.metadata?.ownerReferences?.some((o) => o.uid === uid)),
  );
}

export function subscriptionUpgradeStatus({
  subscription: sub,
  installPlans = [],
  catalogNext,
}: UpgradeInputs): UpgradeStatus {
  const state = sub.status?.state ?? '';
  const installed = sub.status?.installedCSV;
  const current = sub.status?.currentCSV;
  const plans = plansOf(sub, installPlans);
  const refName = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  const ref = plans.find((p) => p.metadata?.name === refName);
  const pendingApproval = plans
    .filter((p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved)
    .map((p) => p.metadata?.name ?? '');
  const status = (kind: UpgradeStatusKind, label: string, detail: string): UpgradeStatus => ({
    kind,
    label,
    detail,
    pendingApproval,
  });

  const resolution = trueCondition(sub, 'ResolutionFailed');
  if (resolution)
    return status(
      'failed',
      'Failed',
      `OLM cannot resolve this subscription: ${resolution.message ?? resolution.reason ?? ''}`.trim(),
    );
  const planFailed = trueCondition(sub, 'InstallPlanFailed');
  if (state === 'UpgradeFailed' || ref?.status?.phase === 'Failed' || planFailed) {
    const why =
      ref?.status?.message ||
      planFailed?.message ||
      ref?.status?.conditions?.find((c) => c.type === 'Installed')?.message ||
      '';
    return status('failed', 'Failed', `the InstallPlan${refName ? ` ${refName}` : ''} failed${why ? `: ${why}` : ''}`);
  }
  const unpackFailed = trueCondition(sub, 'BundleUnpackFailed');
  if (unpackFailed)
    return status(
      'failed',
      'Failed',
      `the bundle could not be unpacked: ${unpackFailed.message ?? unpackFailed.reason ?? ''}`.trim(),
    );

  if (pendingApproval.length > 0) {
    const n = pendingApproval.length;
    const what = installed
      ? `an upgrade to ${current ?? 'a newer version'}`
      : `the install of ${current ?? 'the operator'}`;
    return status(
      'requires-approval',
      `${n} requires approval`,
      `${what} waits for a person to approve InstallPlan ${pendingApproval.join(', ')}`,
    );
  }
  if (!installed) {
    return status(
      'installing',
      'Installing',
      current
        ? `installing ${current}`
        : trueCondition(sub, 'BundleUnpacking')
          ? 'unpacking the bundle'
          : 'waiting for OLM to resolve the subscription',
    );
  }
  if (state === 'UpgradePending' || (current !== undefined && current !== installed)) {
    return status('upgrading', 'Upgrading', `upgrading from ${installed} to ${current ?? 'a newer version'}`);
  }
  if (state === 'UpgradeAvailable' || (catalogNext !== undefined && catalogNext !== installed)) {
    return status(
      'upgrade-available',
      'Upgrade available',
      `the catalog offers ${catalogNext ?? 'a newer version'}; OLM has not created an InstallPlan for it yet`,
    );
  }
  if (state === 'AtLatestKnown')
    return status('up-to-date', 'Up to date', `${installed} is the latest version OLM knows in this channel`);
  return status('unknown', state || 'Unknown', 'OLM has not reported the state of this subscription yet');
}

export interface ConditionRow {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

/** The Subscription's conditions, problems first, then by type. */
export function subscriptionConditionRows(sub: Subscription): ConditionRow[] {
  // Every Subscription condition type OLM sets is phrased so that True is the problem
  // (CatalogSourcesUnhealthy=False is the healthy state).
  const isProblem = (s: string) => s === 'True';
  return (sub.status?.conditions ?? [])
    .map((c) => ({
      type: c.type,
      status: c.status,
      reason: c.reason ?? '',
      message: c.message ?? '',
      lastTransitionTime: c.lastTransitionTime,
    }))
    .sort((a, b) => Number(isProblem(b.status)) - Number(isProblem(a.status)) || a.type.localeCompare(b.type));
}
