// What the Approvals page says of being kept up to date (use-fleet-events.ts): for the page, how
// many clusters are followed live; for a cluster that is not, why, and that it is read on a timer
// instead. A person about to approve should know whether the row in front of them can be stale.
import type { FleetLive } from './use-fleet-events';

const WHY: Record<string, string> = {
  retrying: 'its watch is reconnecting',
  refused: 'the cluster does not let you watch InstallPlans in every namespace',
  unwatched: 'you follow as many clusters live as one person may',
};

export function LiveSummary({ live, clusters }: { live?: FleetLive; clusters: number }) {
  const watching = live ? Object.values(live).filter((l) => l.state === 'watching').length : 0;
  return (
    <p className="text-sm text-slate-600" data-testid="approvals-live">
      {!live
        ? 'Every cluster is read again every 30 seconds.'
        : watching === clusters
          ? 'Live: a change on any cluster shows here as it happens.'
          : `Live on ${watching} of ${clusters} clusters: a change there shows as it happens; the others are read again every 30 seconds.`}
    </p>
  );
}

/** Under a cluster not followed live: why, and how it is kept up to date instead. */
export function ClusterNotLive({ live, cluster }: { live?: FleetLive; cluster: string }) {
  const l = live?.[cluster];
  if (!l || l.state === 'watching') return null;
  return (
    <p className="text-sm text-slate-600 [overflow-wrap:anywhere]" title={l.message}>
      Not followed live ({WHY[l.state]}): read again every 30 seconds.
    </p>
  );
}
