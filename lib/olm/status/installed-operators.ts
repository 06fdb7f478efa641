// The Installed Operators list: one row per operator, from CSVs and Subscriptions. Copied CSVs
// are never rows of their own in the all-namespaces view: a source row carries how many copies
// OLM keeps (its OperatorGroup's targets, or every namespace), so thousands of copies cost a
// number, not a list. In one namespace a copy is a row saying where it comes from.
import { halfGone } from '../install/leftovers';
import {
  isCopiedCsv,
  operatorNamespaceOf,
  targetNamespacesOf,
  type ClusterServiceVersion,
} from '../resources/cluster-service-version';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { csvDisplayStatus, type CsvDisplayStatus } from './csv-status';
import { subscriptionDeprecation, type Deprecation } from './deprecation';
import { subscriptionUpgradeStatus, type UpgradeStatus } from './subscription-status';

export interface InstalledOperatorRow {
  /** `namespace/csv` (or `namespace/subscription` while nothing is installed yet). */
  key: string;
  namespace: string;
  csvName?: string;
  displayName: string;
  version?: string;
  provider?: string;
  subscription?: {
    name: string;
    package: string;
    channel?: string;
    approval: string;
    catalog: { name: string; namespace: string };
  };
  /** `all`, or the namespaces the operator watches; undefined while OLM has not said. */
  managedNamespaces?: 'all' | string[];
  status: CsvDisplayStatus;
  upgrade?: UpgradeStatus;
  /** What the catalog deprecates of the package, channel or bundle, from the Subscription's conditions. */
  deprecation?: Deprecation;
  lastUpdated?: string;
  /** In a namespace view: this row is OLM's copy of an operator installed in `from`. */
  copiedFrom?: string;
  /** Copies OLM keeps in the namespaces the operator watches (0 when copies are disabled). */
  copies: { count: number; disabled: boolean };
  /** An operator half gone (a failed uninstall, a CSV deleted by hand), in words: see what is left. */
  halfGone?: string;
}

export interface InstalledOperatorsInput {
  csvs: readonly ClusterServiceVersion[];
  subscriptions: readonly Subscription[];
  installPlans: readonly InstallPlan[];
  /** How many namespaces the cluster has, for the copies of all-namespaces operators. */
  namespaceCount?: number;
  copiesDisabled: boolean;
}

function nsName(o: { metadata?: { namespace?: string; name?: string } }): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function copyCount(csv: ClusterServiceVersion, input: InstalledOperatorsInput): number {
  if (input.copiesDisabled) return 0;
  const targets = targetNamespacesOf(csv);
  if (!targets) return 0;
  if (targets.length === 1 && targets[0] === '') return Math.max(0, (input.namespaceCount ?? 1) - 1);
  return targets.filter((t) => t && t !== csv.metadata?.namespace).length;
}

export function installedOperators(input: InstalledOperatorsInput): InstalledOperatorRow[] {
  const subsByCsv = new Map<string, Subscription>();
  for (const s of input.subscriptions) {
    const ns = s.metadata?.namespace ?? '';
    for (const name of [s.status?.currentCSV, s.status?.installedCSV]) if (name) subsByCsv.set(`${ns}/${name}`, s);
  }
  const plansByNs = new Map<string, InstallPlan[]>();
  for (const p of input.installPlans) {
    const ns = p.metadata?.namespace ?? '';
    plansByNs.set(ns, [...(plansByNs.get(ns) ?? []), p]);
  }
  // A CSV being replaced stays until its successor succeeds; the successor is the row.
  const replaced = new Set<string>();
  for (const c of input.csvs) if (c.spec.replaces) replaced.add(`${c.metadata?.namespace ?? ''}/${c.spec.replaces}`);

  const rows: InstalledOperatorRow[] = [];
  const covered = new Set<Subscription>();
  for (const csv of input.csvs) {
    const key = nsName(csv);
    if (replaced.has(key)) continue;
    const ns = csv.metadata?.namespace ?? '';
    const copied = isCopiedCsv(csv);
    const sub = copied ? undefined : subsByCsv.get(key);
    if (sub) covered.add(sub);
    const targets = targetNamespacesOf(csv);
    rows.push({
      key,
      namespace: ns,
      csvName: csv.metadata?.name,
      displayName: csv.spec.displayName || csv.metadata?.name || '',
      version: csv.spec.version,
      provider: csv.spec.provider?.name,
      ...(sub ? { subscription: subscriptionFacts(sub) } : {}),
      managedNamespaces:
        targets === undefined ? undefined : targets.length === 1 && targets[0] === '' ? 'all' : targets,
      status: csvDisplayStatus(csv),
      ...(sub
        ? { upgrade: subscriptionUpgradeStatus({ subscription: sub, installPlans: plansByNs.get(ns) ?? [] }) }
        : {}),
      ...deprecationOf(sub),
      lastUpdated: csv.status?.lastUpdateTime ?? sub?.status?.lastUpdated,
      ...(copied ? { copiedFrom: operatorNamespaceOf(csv) } : {}),
      copies: copied
        ? { count: 0, disabled: input.copiesDisabled }
        : { count: copyCount(csv, input), disabled: input.copiesDisabled },
      ...withHalfGone(halfGone(csv, sub)),
    });
  }
  // Subscriptions whose CSV is not there yet: the operator is being installed.
  for (const sub of input.subscriptions) {
    if (covered.has(sub)) continue;
    const ns = sub.metadata?.namespace ?? '';
    const upgrade = subscriptionUpgradeStatus({ subscription: sub, installPlans: plansByNs.get(ns) ?? [] });
    rows.push({
      key: nsName(sub),
      namespace: ns,
      csvName: sub.status?.currentCSV,
      displayName: sub.spec.name,
      subscription: subscriptionFacts(sub),
      status: {
        phase: 'Installing',
        reason: sub.status?.state ?? '',
        label: 'Installing',
        detail: upgrade.detail,
        severity: 'progressing',
      },
      upgrade,
      ...deprecationOf(sub),
      lastUpdated: sub.status?.lastUpdated,
      copies: { count: 0, disabled: input.copiesDisabled },
      ...withHalfGone(halfGone(undefined, sub)),
    });
  }
  return rows.sort((a, b) => a.displayName.localeCompare(b.displayName) || a.namespace.localeCompare(b.namespace));
}

function withHalfGone(why: string | undefined): { halfGone?: string } {
  return why ? { halfGone: why } : {};
}

function deprecationOf(sub: Subscription | undefined): { deprecation?: Deprecation } {
  const d = sub && subscriptionDeprecation(sub);
  return d ? { deprecation: d } : {};
}

function subscriptionFacts(sub: Subscription): NonNullable<InstalledOperatorRow['subscription']> {
  return {
    name: sub.metadata?.name ?? '',
    package: sub.spec.name,
    channel: sub.spec.channel,
    approval: sub.spec.installPlanApproval === 'Manual' ? 'Manual' : 'Automatic',
    catalog: { name: sub.spec.source, namespace: sub.spec.sourceNamespace },
  };
}
