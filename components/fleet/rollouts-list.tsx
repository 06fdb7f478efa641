'use client';
// The console's rollouts on the hub (the home cluster as an Open Cluster Management hub), read as
// the person: each with its package, OLM v0 or v1 and OCM's own conditions, linking to its waves.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { RolloutSummary } from '@/lib/api/fleet-rollouts';
import { apiGet } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';

export function RolloutsList() {
  const q = useQuery({
    queryKey: ['fleet', 'rollouts'],
    queryFn: ({ signal }) => apiGet<{ rollouts: RolloutSummary[] }>('/api/fleet/rollouts', signal),
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
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col">Rollout</th>
              <th scope="col">Package</th>
              <th scope="col">OLM</th>
              <th scope="col">Hub&apos;s conditions</th>
            </tr>
          </thead>
          <tbody>
            {q.data.rollouts.map((r) => (
              <tr key={`${r.namespace}/${r.name}`} className="border-t border-slate-200">
                <td>
                  <Link
                    className="text-sky-700 underline"
                    href={`/fleet/rollouts/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}`}
                  >
                    {r.namespace}/{r.name}
                  </Link>
                </td>
                <td>{r.package ?? 'unknown'}</td>
                <td>{r.olm ?? 'unknown'}</td>
                <td>
                  {r.conditions.map((c) => `${c.type} ${c.status}${c.reason ? ` (${c.reason})` : ''}`).join('; ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
