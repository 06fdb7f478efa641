'use client';
// The objects OLM v1 would apply in a move, each either taken over from OLM v0 (it installed the
// object for this CSV: it exists, and gets Helm's marks) or new (v1 creates it). An existing object
// it may not take over is a reason the move cannot go ahead, listed with the others.
import type { MigrationObjectView } from '@/lib/api/olm-v1-migration';
import { Badge } from '../common/badges';

const where = (o: { kind: string; name: string; namespace?: string }) =>
  `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

export function MigrationObjects({ objects }: { objects: MigrationObjectView[] }) {
  const adopted = objects.filter((o) => o.fate === 'adopt').length;
  return (
    <section aria-label="What OLM v1 would apply" className="space-y-1">
      <p className="font-medium">
        What OLM v1 would apply: {adopted} taken over from OLM v0, {objects.length - adopted} new
      </p>
      <ul className="space-y-1 text-xs text-slate-700 [overflow-wrap:anywhere]">
        {objects.map((o) => (
          <li key={where(o)} className="flex flex-wrap items-baseline gap-2">
            {o.fate === 'adopt' ? (
              <Badge tone="info" title="OLM v0 installed it for this operator; OLM v1 takes it over">
                taken over
              </Badge>
            ) : (
              <Badge tone="neutral" title="It does not exist; OLM v1 creates it">
                new
              </Badge>
            )}
            <span>{where(o)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
