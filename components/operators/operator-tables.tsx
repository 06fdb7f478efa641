// The operator page's InstallPlans and Events tabs: a table each, stacked rows on a narrow
// screen, times in words with the exact one on hover.
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { OperatorDetails } from '@/lib/api/operators';
import { Badge, installPlanHref } from '../common/badges';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';

type PlanRow = OperatorDetails['installPlans'][number];

function planTone(p: PlanRow): string {
  if (p.summary.needsApproval) return 'warning';
  if (p.summary.phase === 'Failed') return 'error';
  return p.summary.done ? 'ok' : 'info';
}

export function InstallPlansTable({ namespace, plans }: { namespace: string; plans: PlanRow[] }) {
  if (plans.length === 0) return <p className="text-sm text-slate-600">No InstallPlans in {namespace}.</p>;
  return (
    <StackedTable label="InstallPlans" columns={['Name', 'Phase', 'Approval', 'Installs', 'Created']}>
      {plans.map((p) => (
        <StackedRow key={p.name}>
          <StackedCell label="Name">
            <Link className="text-sky-700 underline" href={installPlanHref(namespace, p.name)}>
              {p.name}
            </Link>
          </StackedCell>
          <StackedCell label="Phase">
            <Badge tone={planTone(p)}>{p.summary.label}</Badge>
          </StackedCell>
          <StackedCell label="Approval">
            {p.summary.manual ? 'Manual' : 'Automatic'}
            {p.summary.approved ? ', approved' : ''}
          </StackedCell>
          <StackedCell label="Installs">{p.summary.csvNames.join(', ')}</StackedCell>
          <StackedCell label="Created" className="text-xs text-slate-600">
            {p.createdAt ? <RelativeTime iso={p.createdAt} /> : ''}
          </StackedCell>
        </StackedRow>
      ))}
    </StackedTable>
  );
}

export function EventsTable({ events }: { events: OperatorDetails['events'] }) {
  if (events.length === 0) return <p className="text-sm text-slate-600">No events about these objects.</p>;
  return (
    <StackedTable label="Events" columns={['Type', 'Reason', 'Object', 'Message', 'Last seen']}>
      {events.map((e, i) => (
        <StackedRow key={i}>
          <StackedCell label="Type">{e.type}</StackedCell>
          <StackedCell label="Reason">{e.reason}</StackedCell>
          <StackedCell label="Object">{e.object}</StackedCell>
          <StackedCell label="Message">
            {e.message}
            {e.count && e.count > 1 ? ` (×${e.count})` : ''}
          </StackedCell>
          <StackedCell label="Last seen" className="text-xs text-slate-600">
            {e.lastTimestamp ? <RelativeTime iso={e.lastTimestamp} /> : ''}
          </StackedCell>
        </StackedRow>
      ))}
    </StackedTable>
  );
}
