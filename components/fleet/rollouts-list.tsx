'use client';
// The console's rollouts on the hub (the home cluster as an Open Cluster Management hub), read as
// the person: each with its package, OLM v0 or v1, OCM's own conditions and, since those never
// name one, every cluster OCM timed out and whether that holds the rollout, in the words of the
// rollout's page (the list's answer carries them: no rollout is read one by one), linking to its
// waves; and what the person may not read.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { RolloutList } from '@/lib/api/fleet-rollouts';
import { apiGet } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { rowTimeoutWords } from './timeout-words';

export function RolloutsList() {
  const q = useQuery({
    queryKey: ['fleet', 'rollouts'],
    queryFn: ({ signal }) => apiGet<RolloutList>('/api/fleet/rollouts', signal),
    refetchInterval: 30_000,
  });
  return (
    <section aria-labelledby="rollouts-title" className="space-y-4">
      <h1 id="rollouts-title" className="text-2xl font-bold">
        Rollouts
      </h1>
      <p className="text-sm text-slate-700">
        Operators rolled out by this console through the Open Cluster Management hub: a canary first, then waves, each
        wave once the one before is healthy.
      </p>
      <p>
        <Link href="/fleet/rollouts/new" className="font-semibold text-sky-700 underline">
          New rollout
        </Link>
      </p>
      {q.error ? (
        <ErrorPanel error={q.error} title="The rollouts could not be read" onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <p role="status">Reading the hub…</p>
      ) : q.data.rollouts.length === 0 ? (
        <p>No rollouts on the hub (that you may see).</p>
      ) : (
        <>
          {q.data.notes.map((n) => (
            <p key={n} className="text-sm text-slate-700">
              You may not see everything here: {n}
            </p>
          ))}
          <StackedTable label="Rollouts" columns={['Rollout', 'Package', 'OLM', 'State']}>
            {q.data.rollouts.map((r) => (
              <StackedRow key={`${r.namespace}/${r.name}`}>
                <StackedCell label="Rollout" className="@min-3xl:whitespace-nowrap">
                  <Link
                    className="text-sky-700 underline"
                    href={`/fleet/rollouts/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}`}
                  >
                    {r.namespace}/{r.name}
                  </Link>
                </StackedCell>
                <StackedCell label="Package">{r.package ?? 'unknown'}</StackedCell>
                <StackedCell label="OLM">{r.olm ?? 'unknown'}</StackedCell>
                <StackedCell label="State">
                  Hub: {r.conditions.map((c) => `${c.type} ${c.status}${c.reason ? ` (${c.reason})` : ''}`).join('; ')}
                  {r.timedOut?.map((t) => (
                    <p key={t.cluster} className="mt-1 border-l-4 border-amber-500 pl-2 text-amber-900">
                      {rowTimeoutWords(t)}
                    </p>
                  ))}
                </StackedCell>
              </StackedRow>
            ))}
          </StackedTable>
        </>
      )}
    </section>
  );
}
