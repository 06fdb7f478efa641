'use client';
// Operators across clusters: one row per package, a column per cluster. Each cell is that
// cluster's installs of the package as the cluster reported them (OLM v0: version, channel,
// approval, health, OLM's upgrade state; OLM v1: the ClusterExtension's version and state), and an
// install whose version differs from the version most of the fleet runs says so. A cluster that
// did not answer is named above the table with its reason, and its column says so in every row,
// never left looking like "not installed". A block per package on a phone.
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { FleetInstall } from '@/lib/api/fleet';
import { type ClusterInstalls, fleetOperatorRows } from '@/lib/api/fleet-operator-rows';
import { Badge, upgradeTone } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { hubPageState } from '../shell/nav-items';
import { ClusterName, NotAnswering } from './cluster-name';
import { useFleetIndex } from './fleet-index';
import { useCandidatePath } from './use-candidate-path';
import { useFleetStream } from './use-fleet-stream';

function Install({ i, common }: { i: FleetInstall; common?: string }) {
  return (
    <div className="mb-1.5 last:mb-0">
      <span className="font-semibold">{i.version ?? 'no version yet'}</span>{' '}
      <span className="text-xs text-slate-600">
        {i.olm === 'v1' ? `OLM v1 ClusterExtension ${i.name}` : `in ${i.namespace}`}
      </span>
      {i.drift && common && (
        <span className="block">
          <Badge tone="warning">differs from {common}</Badge>
        </span>
      )}
      <span className="flex flex-wrap gap-1 pt-0.5">
        <Badge tone={i.health.severity === 'progressing' ? 'progressing' : i.health.severity} title={i.health.detail}>
          {i.health.label}
        </Badge>
        {i.upgrade && i.upgrade.kind !== 'up-to-date' && (
          <Badge tone={upgradeTone(i.upgrade.kind)} title={i.upgrade.detail}>
            {i.upgrade.label}
          </Badge>
        )}
        {i.deprecated && <Badge tone="warning">Deprecated</Badge>}
      </span>
      {i.olm === 'v0' && (
        <span className="block text-xs text-slate-600">
          {i.channel ? `channel ${i.channel}` : 'default channel'}
          {i.approval ? `, ${i.approval === 'Manual' ? 'manual' : 'automatic'} approval` : ''}
        </span>
      )}
    </div>
  );
}

/** The rollout form for a package, by OLM v1 where every install of it is v1's. */
function rolloutHref(pkg: string, installs: Record<string, FleetInstall[]>): string {
  const all = Object.values(installs).flat();
  const v1 = all.length > 0 && all.every((i) => i.olm === 'v1');
  return `/fleet/rollouts/new?package=${encodeURIComponent(pkg)}${v1 ? '&olm=v1' : ''}`;
}

export function OperatorsAcrossView() {
  // Each cluster's installs arrive on their own; the rows (and the most common version drift is
  // measured from) are rebuilt from the clusters that answered so far, and say so until all have.
  const q = useFleetStream<ClusterInstalls>(useCandidatePath('/api/fleet/operators'));
  // A package rolls out from here only where the home cluster is a hub the person may read.
  const index = useFleetIndex();
  const hub = hubPageState(index.data, index.isError).shown === 'yes';
  if (q.error)
    return (
      <ErrorPanel
        error={q.error}
        title="Operators across clusters could not be read"
        onRetry={() => void q.refetch()}
      />
    );
  if (!q.data) return <p role="status">Asking every cluster…</p>;
  const clusters = q.data.rows.map((r) => r.ref);
  const answers = new Map(q.data.clusters.map((c) => [c.name, c]));
  const operators = fleetOperatorRows(q.data.clusters);
  const asking = q.data.pending.length;
  const down = q.data.clusters.filter((c) => !c.ok);
  const notes = q.data.clusters.flatMap((c) => (c.ok ? c.value.notes.map((n) => ({ cluster: c.name, note: n })) : []));
  const partial = q.data.clusters.flatMap((c) =>
    c.ok && c.value.namespaces ? [{ cluster: c.name, in: c.value.namespaces }] : [],
  );
  const drifting = operators.filter((o) => Object.values(o.installs).some((l) => l.some((i) => i.drift))).length;
  return (
    <section aria-labelledby="fleet-operators-title" aria-busy={asking > 0} className="space-y-4">
      <h1 id="fleet-operators-title" className="text-2xl font-bold">
        Operators across clusters
      </h1>
      <p className="text-sm text-slate-600">
        {operators.length} package{operators.length === 1 ? '' : 's'} installed across {clusters.length} clusters
        {drifting ? `; ${drifting} at different versions on different clusters` : ''}. Each cluster is read as you.
        {asking ? ` Still asking ${asking} of them; the most common versions may change as they answer.` : ''}
      </p>
      {down.length > 0 && (
        <ul role="alert" className="space-y-1 rounded border border-red-300 bg-red-50 px-3 py-2">
          {down.map((c) => (
            <li key={c.name}>
              {c.name}: {!c.ok && <NotAnswering error={c.error} />}
            </li>
          ))}
        </ul>
      )}
      {partial.length > 0 && (
        <ul className="space-y-1 text-sm text-slate-700">
          {partial.map((p) => (
            <li key={p.cluster}>
              On {p.cluster} you may not list operators in every namespace, so they were read in{' '}
              {p.in.length ? `the namespaces you may use: ${p.in.join(', ')}` : 'none you have used in this browser'}.
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <ul className="space-y-1 text-sm text-slate-700">
          {notes.map((n) => (
            <li key={`${n.cluster}:${n.note}`}>
              On {n.cluster} you may not see everything: {n.note}
            </li>
          ))}
        </ul>
      )}
      {operators.length === 0 ? (
        <p>
          {asking
            ? 'No operators yet on the clusters that answered so far.'
            : 'No operators are installed on the clusters that answered.'}
        </p>
      ) : (
        <StackedTable label="Operators across clusters" columns={['Package', ...clusters.map((c) => c.name)]}>
          {operators.map((o) => (
            <StackedRow key={o.package}>
              <StackedCell label="Package">
                <Link
                  href={`/fleet/operators/${encodeURIComponent(o.package)}`}
                  className="font-semibold text-sky-700 underline"
                >
                  {o.package}
                </Link>
                {o.commonVersion && <span className="block text-xs text-slate-600">most run {o.commonVersion}</span>}
                {hub && (
                  <Link
                    href={rolloutHref(o.package, o.installs)}
                    className="block text-xs text-sky-700 underline"
                    aria-label={`Roll out ${o.package}`}
                  >
                    Roll out
                  </Link>
                )}
              </StackedCell>
              {clusters.map((c) => {
                const list = o.installs[c.name];
                const answer = answers.get(c.name);
                return (
                  <StackedCell key={c.name} label={c.name}>
                    {!answer ? (
                      <span className="text-slate-600">asking…</span>
                    ) : !answer.ok ? (
                      <span className="text-sm text-red-800">not answering</span>
                    ) : list?.length ? (
                      list.map((i) => (
                        <Install key={`${i.olm}/${i.namespace ?? ''}/${i.name}`} i={i} common={o.commonVersion} />
                      ))
                    ) : (
                      <span className="text-slate-600">not installed</span>
                    )}
                  </StackedCell>
                );
              })}
            </StackedRow>
          ))}
        </StackedTable>
      )}
      <p className="text-xs text-slate-600">
        Clusters:{' '}
        {clusters.map((c, n) => (
          <span key={c.name}>
            {n > 0 && ', '}
            <ClusterName cluster={c} link />
          </span>
        ))}
      </p>
    </section>
  );
}
