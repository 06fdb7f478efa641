// One waiting approval of the fleet, OLM v0 or v1, as the Approvals page lists, previews and
// reports it: an InstallPlan (each operator's part: from which version to which) or a
// ClusterExtension's version change (what it runs, what holds it there, the version one upgrade
// away that approving sets).
import Link from 'next/link';
import type { FleetApproval, FleetClusterRef, FleetPlanChange } from '@/lib/api/fleet';
import type { FleetVersionChange } from '@/lib/api/fleet-approvals';

export type ApprovalItem =
  | { kind: 'plan'; cluster: string; plan: FleetApproval }
  | { kind: 'version'; cluster: string; change: FleetVersionChange };

export const itemKey = (i: ApprovalItem) =>
  i.kind === 'plan'
    ? `${i.cluster}/InstallPlan/${i.plan.namespace}/${i.plan.name}`
    : `${i.cluster}/ClusterExtension/${i.change.name}`;

export function changeText(c: FleetPlanChange): string {
  const who = c.package ?? c.subscription ?? c.toCsv;
  const to = c.toVersion ?? c.toCsv;
  if (c.fromCsv) return `${who}: ${c.fromVersion ?? c.fromCsv} → ${to}`;
  if (c.subscription) return `${who}: install ${to}`;
  return c.change === 'unclaimed'
    ? `${who}: ${to}, named by no Subscription yet (OLM writes the plan first)`
    : `${who}: ${to}, a dependency`;
}

export function versionText(c: FleetVersionChange): string {
  return `${c.package}: ${c.installed.version} → ${c.to.version}`;
}

/** What holds the extension where it is, and how far its channels go. */
function heldBy(c: FleetVersionChange): string {
  const held = c.constraint?.match(/^[0-9]/) ? `pinned to ${c.constraint}` : `held by the range ${c.constraint}`;
  const channels = c.channels.length ? `, channels ${c.channels.join(', ')}` : '';
  const newest = c.newest
    ? `; newest on offer ${c.newest.version}, through ${c.newest.path.join(' → ')} (one upgrade at a time)`
    : '';
  return `${held}${channels}${newest}`;
}

export function ItemLabel({ cluster, item }: { cluster: FleetClusterRef; item: ApprovalItem }) {
  if (item.kind === 'plan') {
    const { plan } = item;
    return (
      <>
        <span className="block font-medium">{plan.changes.map(changeText).join('; ')}</span>
        <span className="block text-xs text-slate-600">
          InstallPlan{' '}
          {cluster.home ? (
            <Link className="underline" href={`/installplans/${plan.namespace}/${plan.name}`}>
              {plan.namespace}/{plan.name}
            </Link>
          ) : (
            `${plan.namespace}/${plan.name}`
          )}
        </span>
      </>
    );
  }
  const c = item.change;
  return (
    <>
      <span className="block font-medium">{versionText(c)}</span>
      <span className="block text-xs text-slate-600">
        ClusterExtension{' '}
        {cluster.home ? (
          <Link className="underline" href={`/clusterextensions/${encodeURIComponent(c.name)}`}>
            {c.name}
          </Link>
        ) : (
          c.name
        )}{' '}
        (OLM v1), {heldBy(c)}
      </span>
    </>
  );
}
