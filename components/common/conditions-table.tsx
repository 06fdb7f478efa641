// Kubernetes conditions as a table: type, status, reason, message, last transition (stacked rows
// where the table has little room; the time in words, exact on hover).
import { RelativeTime } from './relative-time';
import { StackedCell, StackedRow, StackedTable } from './stacked-table';

export interface ConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  phase?: string;
}

interface Props {
  rows: ConditionLike[];
  label: string;
  first?: 'Type' | 'Phase';
}

export function ConditionsTable({ rows, label, first = 'Type' }: Props) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">None reported.</p>;
  const columns = [first, ...(first === 'Type' ? ['Status'] : []), 'Reason', 'Message', 'Last transition'];
  return (
    <StackedTable label={label} columns={columns}>
      {rows.map((c, i) => (
        <StackedRow key={i}>
          <StackedCell label={first} className="font-medium">
            {first === 'Type' ? c.type : c.phase}
          </StackedCell>
          {first === 'Type' && <StackedCell label="Status">{c.status}</StackedCell>}
          <StackedCell label="Reason">{c.reason}</StackedCell>
          <StackedCell label="Message">{c.message}</StackedCell>
          <StackedCell label="Last transition" className="text-xs text-slate-600">
            {c.lastTransitionTime ? <RelativeTime iso={c.lastTransitionTime} /> : ''}
          </StackedCell>
        </StackedRow>
      ))}
    </StackedTable>
  );
}
