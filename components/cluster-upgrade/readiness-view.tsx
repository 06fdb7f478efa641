'use client';
// Cluster-upgrade readiness: every installed operator against an OpenShift minor, what blocks the
// cluster's upgrade (olm.maxOpenShiftVersion, with OLM's own message) or the operator's own
// (Upgradeable=False, deprecations), and for each maxOpenShiftVersion blocker the hops OLM would
// take to the first version that clears it, linked to the operator's graph.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import { TARGET_VERSION, type ReadinessReport } from '@/lib/api/cluster-upgrade';
import { apiGet } from '@/lib/client/api';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';

const KIND_TEXT = {
  maxOpenShiftVersion: 'Blocks the cluster upgrade',
  upgradeable: 'Holds its own upgrades',
  deprecated: 'Deprecated',
} as const;

export function ReadinessView() {
  const [input, setInput] = useState('');
  const [target, setTarget] = useState<string | undefined>();
  // Said once the person asks to check (not while typing "4."): the server's own rule, known here.
  const [refused, setRefused] = useState<string | undefined>();
  const q = useQuery({
    queryKey: ['cluster-upgrade', target],
    queryFn: ({ signal }) =>
      apiGet<ReadinessReport>(`/api/cluster-upgrade${target ? `?target=${encodeURIComponent(target)}` : ''}`, signal),
    refetchInterval: 15_000,
  });
  const r = q.data;
  const blocking = r?.rows.filter((row) => row.blockers.some((b) => b.kind === 'maxOpenShiftVersion')) ?? [];
  return (
    <article className="space-y-5">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">Cluster upgrade readiness</h1>
        <p className="text-sm text-slate-700">
          OLM on OpenShift refuses a minor upgrade while an installed operator says, in{' '}
          <code>olm.maxOpenShiftVersion</code>, that it does not run on it (ClusterOperator{' '}
          <code>operator-lifecycle-manager</code>, <code>Upgradeable=False</code>). Here every installed operator is
          checked against a version, with the way out OLM can take.
        </p>
      </header>
      <form
        className="flex flex-wrap items-end gap-2 text-sm"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const t = input.trim();
          if (t && !TARGET_VERSION.test(t)) {
            setRefused(t);
            document.getElementById('upgrade-target')?.focus();
            return;
          }
          setRefused(undefined);
          setTarget(t || undefined);
        }}
      >
        <label className="flex flex-col">
          <span className="font-medium">Target OpenShift version</span>
          <input
            id="upgrade-target"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder={r?.target ?? '4.19'}
            aria-invalid={!!refused}
            aria-describedby={refused ? 'upgrade-target-problem' : undefined}
            className={`w-32 rounded border px-2 py-1 ${refused ? 'border-red-700' : 'border-slate-300'}`}
          />
        </label>
        <button type="submit" className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white">
          Check
        </button>
        {refused && (
          <p id="upgrade-target-problem" className="basis-full text-red-800">
            “{refused}” is not a minor version: give the major and minor number only, such as 4.19 (not 4.19.2 or
            v4.19). Nothing was checked.
          </p>
        )}
      </form>
      {q.error && (
        <ErrorPanel
          level={2}
          error={q.error}
          title="Readiness could not be read"
          onRetry={() => void q.refetch()}
          back={[{ href: '/operators', label: 'Installed Operators' }]}
        />
      )}
      {!r && !q.error && <p role="status">Checking every installed operator…</p>}
      {r && (
        <>
          <p role="status" className="text-sm">
            This cluster runs {r.cluster.kind === 'openshift' ? 'OpenShift' : 'Kubernetes'} {r.cluster.version}.{' '}
            {r.target
              ? blocking.length
                ? `${blocking.length} operator${blocking.length === 1 ? ' blocks' : 's block'} an upgrade to ${r.target}.`
                : `No operator blocks an upgrade to ${r.target}.`
              : 'Give the OpenShift version to check against: this cluster reports none.'}
          </p>
          {r.olmMessage && (
            <div
              role="note"
              aria-label="OLM's message"
              className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm"
            >
              <p className="font-semibold">
                {r.cluster.kind === 'openshift'
                  ? 'What OLM says on the ClusterOperator'
                  : 'What OLM on OpenShift would say on its ClusterOperator'}
              </p>
              <pre className="whitespace-pre-wrap text-xs [overflow-wrap:anywhere]">{r.olmMessage}</pre>
            </div>
          )}
          {r.problems.map((p) => (
            <p key={p} className="text-sm text-amber-800">
              {p}.
            </p>
          ))}
          <StackedTable
            label="Installed operators"
            columns={['Operator', 'Runs on OpenShift up to', 'Blockers', 'Way out']}
          >
            {r.rows.map((row) => (
              <StackedRow key={`${row.namespace}/${row.csv}`}>
                <StackedCell label="Operator">
                  <Link
                    className="text-sky-700 underline"
                    href={`/operators/${encodeURIComponent(row.namespace)}/${encodeURIComponent(row.csv)}`}
                  >
                    {row.displayName ?? row.package} {row.version ?? ''}
                  </Link>
                  {/* The CSV's name is what OLM's message and the hops below name. */}
                  <span className="block text-xs text-slate-600 [overflow-wrap:anywhere]">
                    {row.csv} in {row.namespace}
                  </span>
                </StackedCell>
                <StackedCell label="Runs up to">{row.maxOpenShiftVersion ?? 'not limited'}</StackedCell>
                <StackedCell label="Blockers">
                  {row.blockers.length === 0 ? (
                    <Badge tone="ok">None</Badge>
                  ) : (
                    <ul className="space-y-1">
                      {row.blockers.map((b) => (
                        <li key={b.kind + b.message}>
                          <Badge tone={b.kind === 'maxOpenShiftVersion' ? 'error' : 'warning'}>
                            {KIND_TEXT[b.kind]}
                          </Badge>{' '}
                          {b.message}
                        </li>
                      ))}
                    </ul>
                  )}
                </StackedCell>
                <StackedCell label="Way out">
                  {row.wayOut ? (
                    <span>
                      Upgrade to <strong>{row.wayOut.version ?? row.wayOut.to}</strong> on {row.wayOut.channel}:{' '}
                      {row.wayOut.hops.length} InstallPlan{row.wayOut.hops.length === 1 ? '' : 's'} (
                      {row.wayOut.hops.join(' → ')}).{' '}
                      <Link
                        className="text-sky-700 underline"
                        href={`/operators/${encodeURIComponent(row.namespace)}/${encodeURIComponent(row.csv)}?tab=subscription`}
                      >
                        Subscription
                      </Link>
                    </span>
                  ) : row.noWayOut ? (
                    <span className="text-slate-700">{row.noWayOut}</span>
                  ) : null}
                </StackedCell>
              </StackedRow>
            ))}
          </StackedTable>
        </>
      )}
    </article>
  );
}
