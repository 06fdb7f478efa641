// The objects the extension installed (found by v1's owner-name label, as the person), each with
// its health, under one verdict; kinds the person may not list are named, not guessed.
import type { ExtensionDetails } from '@/lib/api/olm-v1-extensions';
import { Badge } from '../../common/badges';
import { StackedCell, StackedRow, StackedTable } from '../../common/stacked-table';

const TONE = { healthy: 'ok', progressing: 'progressing', degraded: 'error' } as const;

export function ExtensionObjects({ details: d }: { details: ExtensionDetails }) {
  return (
    <section aria-labelledby="ext-objects" className="space-y-2">
      <h2 id="ext-objects" className="text-lg font-semibold">
        What it installed
      </h2>
      <p className="text-sm">
        <strong>{d.verdict.state}.</strong> {d.verdict.detail}
      </p>
      {d.unread.length > 0 && (
        <p className="text-sm text-slate-600">
          Not readable with your rights: {d.unread.map((u) => u.kind).join(', ')}.
        </p>
      )}
      {d.objects.length > 0 && (
        <StackedTable label={`Objects installed by ${d.name}`} columns={['Kind', 'Name', 'Namespace', 'Health']}>
          {d.objects.map((o) => (
            <StackedRow key={`${o.kind}/${o.namespace ?? ''}/${o.name}`}>
              <StackedCell label="Kind">{o.kind}</StackedCell>
              <StackedCell label="Name" className="[overflow-wrap:anywhere]">
                {o.name}
              </StackedCell>
              <StackedCell label="Namespace">{o.namespace ?? '(cluster)'}</StackedCell>
              <StackedCell label="Health">
                <Badge tone={TONE[o.health]}>{o.health}</Badge>{' '}
                <span className="text-xs text-slate-600">{o.detail}</span>
              </StackedCell>
            </StackedRow>
          ))}
        </StackedTable>
      )}
    </section>
  );
}
