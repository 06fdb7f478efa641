'use client';
// The Clusters page: every cluster the console serves as the person sees it: whether its API
// server is ready, Kubernetes' version, OLM v0 (and its version where readable) and OLM v1, its
// catalogs and their health, and what the person may do there. A cluster that does not answer is
// its row with the reason; the others are unaffected. On an Open Cluster Management hub, each
// cluster's ManagedCluster (set, conditions, claims) under its name. A table on a desktop, a block
// per cluster on a phone. Each name links to that cluster's pages (`/clusters/<name>/…`), a cluster
// the hub adds among them (served for the person whose hub view lists it). Below it, where people
// log in, the person's tokens for the other clusters.
import type { ClusterSummary } from '@/lib/api/fleet';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { ClusterName, NotAnswering } from './cluster-name';
import { ClusterTokens } from './cluster-tokens';
import { ManagedCluster } from './managed-cluster';
import { useFleetStream } from './use-fleet-stream';

const COLUMNS = ['Cluster', 'Ready', 'Kubernetes', 'OLM v0', 'OLM v1', 'Catalogs', 'Your rights'];

function Catalogs({ s }: { s: ClusterSummary }) {
  const unhealthy = s.catalogs.filter((c) => !c.healthy);
  return (
    <>
      {s.catalogs.length === 0 && !s.catalogNotes.length && <span>none</span>}
      {s.catalogs.length > 0 && (
        <span>
          {s.catalogs.length} catalog{s.catalogs.length === 1 ? '' : 's'},{' '}
          {unhealthy.length ? (
            <Badge tone="error">{unhealthy.length} not healthy</Badge>
          ) : (
            <Badge tone="ok">all healthy</Badge>
          )}
        </span>
      )}
      <ul className="mt-1 space-y-0.5 text-xs">
        {s.catalogs.map((c) => (
          <li key={`${c.kind}/${c.namespace ?? ''}/${c.name}`}>
            {c.kind === 'ClusterCatalog' ? 'ClusterCatalog' : `CatalogSource ${c.namespace}/`}
            {c.kind === 'ClusterCatalog' ? ' ' : ''}
            <span className="font-mono">{c.name}</span>:{' '}
            <span className={c.healthy ? 'text-emerald-800' : 'font-semibold text-red-800'}>{c.state}</span>
          </li>
        ))}
      </ul>
      {s.catalogNotes.map((n) => (
        <p key={n} className="text-xs text-slate-600">
          Not readable: {n}
        </p>
      ))}
    </>
  );
}

export function ClustersView() {
  const q = useFleetStream<ClusterSummary>('/api/fleet/clusters');
  if (q.error)
    return <ErrorPanel error={q.error} title="The clusters could not be read" onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Asking every cluster…</p>;
  const rows = q.data.rows;
  const down = q.data.clusters.filter((r) => !r.ok).length;
  const asking = q.data.pending.length;
  return (
    <section aria-labelledby="fleet-clusters-title" aria-busy={asking > 0} className="space-y-4">
      <h1 id="fleet-clusters-title" className="text-2xl font-bold">
        Clusters
      </h1>
      <p className="text-sm text-slate-600">
        {asking
          ? `Asking ${rows.length} clusters as you: ${rows.length - asking} answered so far`
          : `${rows.length} clusters, each asked as you`}
        {down ? `; ${down} not answering` : ''}. Each cluster&apos;s name leads to its own pages.
      </p>
      {q.data.hub?.note && (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          {q.data.hub.note}
        </p>
      )}
      <StackedTable label="Clusters" columns={COLUMNS}>
        {rows.map(({ ref, answer: r }) => (
          <StackedRow key={ref.name}>
            <StackedCell label="Cluster">
              <ClusterName cluster={ref} server link />
              {ref.managed && <ManagedCluster managed={ref.managed} server={ref.server} />}
            </StackedCell>
            {!r ? (
              <>
                <StackedCell label="Ready">
                  <span className="text-slate-600">Asking…</span>
                </StackedCell>
                {COLUMNS.slice(2).map((c) => (
                  <StackedCell key={c} label={c}>
                    <span aria-label="not known yet">…</span>
                  </StackedCell>
                ))}
              </>
            ) : !r.ok ? (
              <>
                <StackedCell label="Ready">
                  <NotAnswering error={r.error} />
                </StackedCell>
                {COLUMNS.slice(2).map((c) => (
                  <StackedCell key={c} label={c}>
                    <span aria-label="unknown">—</span>
                  </StackedCell>
                ))}
              </>
            ) : (
              <>
                <StackedCell label="Ready">
                  <span className="whitespace-nowrap">
                    <Badge tone={r.value.ready ? 'ok' : 'error'} title={r.value.readiness}>
                      {r.value.ready ? 'Ready' : 'Not ready'}
                    </Badge>
                  </span>
                  {!r.value.ready && <span className="block text-xs">{r.value.readiness}</span>}
                </StackedCell>
                <StackedCell label="Kubernetes">{r.value.kubernetesVersion ?? 'unknown'}</StackedCell>
                <StackedCell label="OLM v0">
                  {r.value.olmV0.present ? (
                    <>
                      <span className="whitespace-nowrap">
                        Installed{r.value.olmV0.version ? ` (${r.value.olmV0.version})` : ''}
                      </span>
                      {r.value.olmV0.packageserver === 'unknown' ? (
                        <span className="block text-xs text-amber-800 [overflow-wrap:anywhere]">
                          packageserver: unknown ({r.value.olmV0.packageserverNote})
                        </span>
                      ) : (
                        !r.value.olmV0.packageserver && (
                          <span className="block text-xs text-amber-800">packageserver is not serving</span>
                        )
                      )}
                      {r.value.olmV0.versionNote && (
                        <span className="block text-xs text-slate-600">
                          Version unknown: {r.value.olmV0.versionNote}
                        </span>
                      )}
                    </>
                  ) : (
                    'Not installed'
                  )}
                </StackedCell>
                <StackedCell label="OLM v1">
                  <span className="whitespace-nowrap">{r.value.olmV1.present ? 'Installed' : 'Not installed'}</span>
                </StackedCell>
                <StackedCell label="Catalogs">
                  <Catalogs s={r.value} />
                </StackedCell>
                <StackedCell label="Your rights">
                  <ul className="space-y-0.5 text-xs">
                    {r.value.rights.map((right) => (
                      <li key={right.label} title={right.reason}>
                        <span aria-hidden="true">{right.allowed ? '✓' : '✗'} </span>
                        <span className="sr-only">{right.allowed ? 'may' : 'may not'} </span>
                        {right.label}
                        {/* The console's own "you may not …" repeats the label; a cluster's reason says more. */}
                        {!right.allowed && right.reason && !right.reason.startsWith('you may not') && (
                          <span className="block text-slate-600">{right.reason}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </StackedCell>
              </>
            )}
          </StackedRow>
        ))}
      </StackedTable>
      <ClusterTokens onChange={() => void q.refetch()} />
    </section>
  );
}
