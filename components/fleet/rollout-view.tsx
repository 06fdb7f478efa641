'use client';
// A package's rollout: which version each cluster runs, and how each would reach the newest
// version its channel offers there. One section per cluster, in the fleet's order, each saying
// what that cluster answered for itself (its installs, the InstallPlan waiting there, the head of
// its channel in its own catalog and the steps to it, or why the steps are not known there); a
// cluster that did not answer is its own section with the reason. Sections stack on a phone.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { FleetRolloutResponse } from '@/lib/api/fleet-rollout';
import { apiGet } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';
import { ClusterName, NotAnswering } from './cluster-name';
import { RolloutInstallView } from './rollout-install';

/** "1.0.0 on prod-east, prod-west; 1.1.0 on staging": the versions the answering clusters run. */
function versionsLine(data: FleetRolloutResponse): string {
  const on = new Map<string, Set<string>>();
  for (const c of data.clusters)
    if (c.ok)
      for (const i of c.value.installs) {
        const v = i.version ?? 'no version yet';
        on.set(v, (on.get(v) ?? new Set()).add(c.name));
      }
  return [...on.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([v, cs]) => `${v} on ${[...cs].join(', ')}`)
    .join('; ');
}

export function RolloutView({ pkg }: { pkg: string }) {
  const q = useQuery({
    queryKey: ['fleet', 'rollout', pkg],
    queryFn: ({ signal }) => apiGet<FleetRolloutResponse>(`/api/fleet/operators/${encodeURIComponent(pkg)}`, signal),
    refetchInterval: 30_000,
  });
  const heading = (
    <>
      <p className="text-sm">
        <Link href="/fleet/operators" className="text-sky-700 underline">
          Operators across clusters
        </Link>
      </p>
      <h1 id="fleet-rollout-title" className="text-2xl font-bold break-words">
        {pkg}: rollout across clusters
      </h1>
    </>
  );
  if (q.error)
    return (
      <section aria-labelledby="fleet-rollout-title" className="space-y-4">
        {heading}
        <ErrorPanel error={q.error} title="The rollout could not be read" onRetry={() => void q.refetch()} />
      </section>
    );
  if (!q.data)
    return (
      <section aria-labelledby="fleet-rollout-title" className="space-y-4">
        {heading}
        <p role="status">Asking every cluster…</p>
      </section>
    );
  const versions = versionsLine(q.data);
  return (
    <section aria-labelledby="fleet-rollout-title" className="space-y-4">
      {heading}
      <p className="text-sm text-slate-700">
        {versions ? `Runs ${versions}.` : 'Not installed on any cluster that answered.'} Each cluster is read as you,
        and each path comes from the upgrade edges of that cluster&apos;s own catalog.
      </p>
      {q.data.clusters.map((c) => (
        <section
          key={c.name}
          aria-labelledby={`rollout-${c.name}`}
          className="rounded border border-slate-300 bg-white px-3 py-2"
        >
          <h2 id={`rollout-${c.name}`} className="text-lg">
            <ClusterName cluster={c} link />
          </h2>
          {!c.ok ? (
            <p>
              <NotAnswering error={c.error} />
            </p>
          ) : (
            <>
              {c.value.notes.map((n) => (
                <p key={n} className="text-sm text-slate-700">
                  You may not see everything here: {n}
                </p>
              ))}
              {c.value.installs.length === 0 ? (
                <p className="text-slate-700">Not installed here (as far as you may see).</p>
              ) : (
                c.value.installs.map((i) => (
                  <RolloutInstallView key={`${i.olm}/${i.namespace ?? ''}/${i.name}`} install={i} />
                ))
              )}
            </>
          )}
        </section>
      ))}
    </section>
  );
}
