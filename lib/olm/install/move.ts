// Moving an operator to a namespace of its own, so that its upgrades stop sharing InstallPlans
// with the other operators of its namespace (OLM resolves a namespace as a whole and writes one
// plan for it, docs/olm/install-plans.md#one-plan-per-namespace). OLM has no move: the Subscription and CSV go
// (CRDs and operands stay: OLM never deletes them), and a Subscription to the same package,
// channel and catalog is made in the new namespace, starting at the version installed now, with
// an OperatorGroup there that keeps the operator watching what it watched if its install modes
// allow that. Pure: the server gathers the facts as the person.
import { isCopiedCsv, type ClusterServiceVersion, type InstallMode } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../resources/subscription';
import { planOperatorGroup } from '../install-modes/wizard';
import { CREATED_BY_LABEL, operatorGroupName, type PlannedObject } from './plan';

export interface MoveFacts {
  subscription: Subscription;
  csv?: ClusterServiceVersion;
  /** What the operator's OperatorGroup targets now (status.namespaces; '' is all namespaces). */
  targets: string[];
  to: string;
  toExists: boolean | 'unknown';
  toGroups: OperatorGroup[];
  toSubscriptions: Subscription[];
  /** The other operators whose changes share the source namespace's plans. */
  sharing: string[];
  /** The source namespace's InstallPlans waiting for approval, with the CSVs they name. */
  waitingPlans: { name: string; csvNames: string[] }[];
  denied: {
    createNamespace?: string;
    createOperatorGroup?: string;
    createSubscription?: string;
    deleteSubscription?: string;
    deleteCsv?: string;
  };
}

export interface MovePlan {
  from: string;
  to: string;
  /** Namespace and OperatorGroup to create or reuse in the new namespace. */
  objects: PlannedObject[];
  /** The Subscription made in the new namespace. */
  subscription?: Subscription;
  /** What is deleted in the old namespace, in order. */
  deletes: { kind: 'Subscription' | 'InstallPlan' | 'ClusterServiceVersion'; name: string }[];
  targets: string[];
  warnings: string[];
  blockers: string[];
}

const describe = (targets: readonly string[]) => (targets[0] === '' ? 'all namespaces' : targets.join(', '));

/** The targets that keep the operator watching what it watches now, from `to`, if its modes allow. */
function keepTargets(
  from: string,
  to: string,
  targets: string[],
  modes: readonly InstallMode[],
): { targets: string[] } | { error: string } {
  const supports = (t: InstallMode['type']) => modes.some((m) => m.type === t && m.supported);
  if (targets[0] === '')
    return supports('AllNamespaces') ? { targets: [''] } : { error: 'it does not support AllNamespaces' };
  const watched = targets.filter((t) => t !== '');
  // Watching only its own namespace: from elsewhere that is a SingleNamespace install of `from`.
  if (watched.length === 1 && watched[0] === from)
    return supports('SingleNamespace')
      ? { targets: [from] }
      : supports('OwnNamespace')
        ? {
            error: `it supports only watching its own namespace (OwnNamespace), so in ${to} it would watch ${to} instead of ${from}`,
          }
        : { error: 'it supports no mode that keeps it watching the same namespace' };
  if (watched.length === 1)
    return supports('SingleNamespace') ? { targets: watched } : { error: 'it does not support SingleNamespace' };
  return supports('MultiNamespace') ? { targets: watched } : { error: 'it does not support MultiNamespace' };
}

export function planMove(f: MoveFacts): MovePlan {
  const from = f.subscription.metadata?.namespace ?? '';
  const name = f.subscription.metadata?.name ?? '';
  const warnings: string[] = [];
  const blockers: string[] = [];
  const objects: PlannedObject[] = [];
  const base = {
    from,
    to: f.to,
    objects,
    deletes: [] as MovePlan['deletes'],
    targets: [] as string[],
    warnings,
    blockers,
  };
  if (f.to === from) return { ...base, blockers: [`${from} is where ${name} is now: pick another namespace`] };
  const installed = f.subscription.status?.installedCSV;
  if (installed && (!f.csv || isCopiedCsv(f.csv)))
    return {
      ...base,
      blockers: [`${name}'s installed version ${installed} is not in ${from}: look again once OLM has caught up`],
    };
  const csv = installed ? f.csv : undefined;

  // Not installed yet: nothing watches anything, so an own-namespace group moves as one.
  const kept = csv
    ? keepTargets(from, f.to, f.targets, csv.spec.installModes ?? [])
    : { targets: f.targets.length === 1 && f.targets[0] === from ? [f.to] : f.targets };
  if ('error' in kept) blockers.push(`${name} cannot keep watching ${describe(f.targets)} from ${f.to}: ${kept.error}`);
  const targets = 'targets' in kept ? kept.targets : [];

  if (f.toExists === true || (f.toExists === 'unknown' && f.denied.createNamespace))
    objects.push({
      action: 'reuse',
      kind: 'Namespace',
      name: f.to,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: f.to } },
    });
  else {
    objects.push({
      action: 'create',
      kind: 'Namespace',
      name: f.to,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: f.to } },
    });
    if (f.denied.createNamespace)
      blockers.push(`namespace ${f.to} does not exist and you may not create it: ${f.denied.createNamespace}`);
  }
  if (targets.length) {
    // Without an installed CSV its install modes are not known here: OLM judges the group then.
    const anyMode = (['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'] as const).map((type) => ({
      type,
      supported: true,
    }));
    const og = planOperatorGroup(f.toGroups, f.to, targets, csv?.spec.installModes ?? anyMode, operatorGroupName(f.to));
    if (og.action === 'conflict') blockers.push(og.message);
    else {
      const group =
        og.action === 'create'
          ? {
              ...og.operatorGroup,
              metadata: { ...og.operatorGroup.metadata, labels: { [CREATED_BY_LABEL]: 'olm-console' } },
            }
          : og.operatorGroup;
      objects.push({
        action: og.action,
        kind: 'OperatorGroup',
        name: group.metadata?.name ?? '',
        namespace: f.to,
        object: group as Record<string, unknown>,
      });
      if (og.action === 'create' && f.denied.createOperatorGroup)
        blockers.push(
          `namespace ${f.to} has no OperatorGroup and you may not create one: ${f.denied.createOperatorGroup}`,
        );
    }
  }
  const pkg = f.subscription.spec.name;
  if (f.toSubscriptions.some((s) => s.spec.name === pkg)) blockers.push(`${f.to} already has a Subscription to ${pkg}`);
  if (f.toSubscriptions.some((s) => s.metadata?.name === name))
    blockers.push(`${f.to} already has a Subscription named ${name}`);
  for (const [what, why] of [
    ['create Subscriptions in ' + f.to, f.denied.createSubscription],
    [`delete Subscription ${from}/${name}`, f.denied.deleteSubscription],
    ...(csv ? [[`delete ClusterServiceVersion ${from}/${installed}`, f.denied.deleteCsv]] : []),
  ] as const) {
    if (why) blockers.push(`you may not ${what}: ${why}`);
  }

  const { startingCSV, ...spec } = f.subscription.spec;
  const subscription: Subscription = {
    apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
    kind: 'Subscription',
    metadata: {
      name,
      namespace: f.to,
      ...(f.subscription.metadata?.labels
        ? {
            labels: Object.fromEntries(
              Object.entries(f.subscription.metadata.labels).filter(([k]) => !k.startsWith('operators.coreos.com/')),
            ),
          }
        : {}),
    },
    // The version running now first, so the move changes where, not what.
    spec: { ...spec, ...(installed ? { startingCSV: installed } : startingCSV ? { startingCSV } : {}) },
  };

  if (installed) {
    warnings.push(
      `${name} stops while it moves: its Deployment goes with ${installed} and comes back in ${f.to} once OLM installs ${installed} there${(spec.installPlanApproval ?? 'Automatic') === 'Manual' ? ' — under Manual approval, once someone approves the first InstallPlan of ' + f.to : ''}.`,
    );
    warnings.push(
      `Its CRDs and their instances stay (OLM never deletes them); from ${f.to} it watches ${describe(targets.length ? targets : f.targets)}.`,
    );
  } else {
    warnings.push(
      `${name} is not installed yet: its Subscription is made in ${f.to} as it is, and from there it will watch ${describe(targets)}.`,
    );
  }
  // OLM keeps a waiting plan as it is when one of its Subscriptions goes (conformance: "one of two
  // Subscriptions sharing a waiting Manual plan deleted"): approving it would still install the
  // moved operator's CSV here. Deleted, it is planned again without it.
  const current = f.subscription.status?.currentCSV;
  const stale = f.waitingPlans.filter((p) => p.csvNames.some((n) => n === current || n === installed));
  for (const p of stale)
    warnings.push(
      `InstallPlan ${p.name} waits with ${p.csvNames.join(', ')}: OLM keeps a waiting plan as it is when a Subscription goes, so approving it would still install ${current ?? name} here; it is deleted, and OLM plans ${from} again without ${name}.`,
    );
  if (f.sharing.length)
    warnings.push(
      `${from}'s InstallPlans then carry only ${f.sharing.join(', ')}, and approving ${name}'s upgrades no longer approves theirs.`,
    );
  const manualThere = f.toSubscriptions
    .filter((s) => s.spec.installPlanApproval === 'Manual')
    .map((s) => s.metadata?.name ?? '');
  if (f.toSubscriptions.length)
    warnings.push(
      `${f.to} already has ${f.toSubscriptions.map((s) => s.metadata?.name).join(', ')}: OLM plans ${name} together with ${f.toSubscriptions.length === 1 ? 'it' : 'them'} there${manualThere.length ? ` (Manual: ${manualThere.join(', ')})` : ''}; a namespace of its own is one with no other Subscription.`,
    );
  if ((spec.installPlanApproval ?? 'Automatic') === 'Automatic')
    warnings.push(
      `With Automatic approval OLM then upgrades it in ${f.to} to the channel's head, as it would have in ${from}.`,
    );

  return {
    ...base,
    targets,
    subscription,
    deletes: [
      { kind: 'Subscription', name },
      ...stale.map((p) => ({ kind: 'InstallPlan' as const, name: p.name })),
      ...(installed ? [{ kind: 'ClusterServiceVersion' as const, name: installed }] : []),
    ],
  };
}
