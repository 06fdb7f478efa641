'use client';
// Approvals across clusters: every InstallPlan waiting for approval on every cluster, each with
// what it changes (operator, from version to version). The person picks plans on any clusters,
// sees one combined preview of everything they are about to approve, and approves: each plan on
// its own cluster as them. Each result is reported under its cluster: approved, or refused with
// the cluster's or OLM's reason (the rest are approved regardless). A cluster that did not answer
// is said so with its reason.
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { FleetApproval, FleetApproveResponse, FleetPlanChange, PerCluster } from '@/lib/api/fleet';
import { apiWrite } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { ClusterName, NotAnswering } from './cluster-name';
import { useFleetStream } from './use-fleet-stream';

const PRIMARY =
  'rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600';
type Selected = { cluster: string; plan: FleetApproval };
const keyOf = (cluster: string, p: FleetApproval) => `${cluster}/${p.namespace}/${p.name}`;

function changeText(c: FleetPlanChange): string {
  const who = c.package ?? c.subscription ?? c.toCsv;
  const to = c.toVersion ?? c.toCsv;
  if (c.fromCsv) return `${who}: ${c.fromVersion ?? c.fromCsv} → ${to}`;
  return c.subscription ? `${who}: install ${to}` : `${who}: ${to}, a dependency`;
}

function PlanLabel({ cluster, plan }: { cluster: PerCluster<unknown>; plan: FleetApproval }) {
  return (
    <>
      <span className="block font-medium">{plan.changes.map(changeText).join('; ')}</span>
      <span className="block text-xs text-slate-600">
        InstallPlan{' '}
        {cluster.home ? (
          <Link className="underline" href={`/installplans/${plan.namespace}/${plan.name}`}>
            {plan.namespace}/{plan.name}
          </Link>
        ) : (
          `${plan.namespace}/${plan.name}`
        )}
      </span>
    </>
  );
}

export function ApprovalsAcrossView() {
  const q = useFleetStream<{ approvals: FleetApproval[]; notes: string[] }>('/api/fleet/approvals');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [previewing, setPreviewing] = useState(false);
  const approve = useMutation({
    mutationFn: (items: Selected[]) =>
      apiWrite<FleetApproveResponse>('/api/fleet/approvals/approve', 'POST', {
        plans: items.map(({ cluster, plan }) => ({
          cluster,
          namespace: plan.namespace,
          name: plan.name,
          resourceVersion: plan.resourceVersion,
          clusterServiceVersionNames: plan.clusterServiceVersionNames,
        })),
      }),
    onSuccess: () => {
      setPreviewing(false);
      setChosen(new Set());
      q.refetch();
    },
  });
  if (q.error)
    return (
      <ErrorPanel
        error={q.error}
        title="Approvals across clusters could not be read"
        onRetry={() => void q.refetch()}
      />
    );
  if (!q.data) return <p role="status">Asking every cluster…</p>;
  const clusters = q.data.rows;
  const answered = q.data.clusters;
  const all: Selected[] = answered.flatMap((c) =>
    c.ok ? c.value.approvals.map((plan) => ({ cluster: c.name, plan })) : [],
  );
  const selected = all.filter((s) => chosen.has(keyOf(s.cluster, s.plan)));
  const toggle = (k: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });
  const byCluster = (items: Selected[]) =>
    [...new Set(items.map((s) => s.cluster))].map((name) => ({ name, items: items.filter((s) => s.cluster === name) }));

  return (
    <section aria-labelledby="fleet-approvals-title" aria-busy={q.data.pending.length > 0} className="space-y-4">
      <h1 id="fleet-approvals-title" className="text-2xl font-bold">
        Approvals across clusters
      </h1>
      <p className="text-sm text-slate-600">
        {all.length} InstallPlan{all.length === 1 ? '' : 's'} waiting for approval across {clusters.length} clusters.
        Approving a plan lets OLM install everything in it; each is approved on its own cluster as you.
      </p>
      {approve.data && (
        <div role="status" className="space-y-1 rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
          <p className="font-semibold">Results</p>
          <ul className="space-y-1">
            {approve.data.results.map((r) => (
              <li key={`${r.cluster}/${r.namespace}/${r.name}`}>
                <span className="font-semibold">{r.cluster}</span>: InstallPlan {r.namespace}/{r.name}{' '}
                {r.ok ? (
                  <span className="text-emerald-800">approved ({r.approved.join(', ')})</span>
                ) : (
                  <span className="text-red-800">
                    refused ({r.error.reason}): {r.error.message}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {approve.error && <ErrorNotice error={approve.error} what="Nothing was approved" />}
      {clusters.map(({ ref, answer: c }) => (
        <section key={ref.name} aria-labelledby={`fleet-approvals-${ref.name}`} className="space-y-2">
          <h2 id={`fleet-approvals-${ref.name}`} className="text-lg font-semibold">
            <ClusterName cluster={ref} />
          </h2>
          {!c ? (
            <p className="text-sm text-slate-600">Asking…</p>
          ) : !c.ok ? (
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
              {c.value.approvals.length === 0 ? (
                <p className="text-sm text-slate-600">Nothing waits for approval.</p>
              ) : (
                <ul className="space-y-2">
                  {c.value.approvals.map((plan) => {
                    const k = keyOf(c.name, plan);
                    const id = `approve-${k.replace(/[^A-Za-z0-9-]/g, '-')}`;
                    return (
                      <li key={k} className="flex items-start gap-2 rounded border border-slate-200 px-3 py-2">
                        <input
                          id={id}
                          type="checkbox"
                          className="mt-1 h-4 w-4"
                          checked={chosen.has(k)}
                          disabled={previewing || approve.isPending}
                          onChange={() => toggle(k)}
                        />
                        <label htmlFor={id} className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                          <PlanLabel cluster={c} plan={plan} />
                        </label>
                      </li>
                    );
                  })}
                </ul>
              )}
            </>
          )}
        </section>
      ))}
      {all.length > 0 && !previewing && (
        <button
          type="button"
          disabled={selected.length === 0}
          onClick={() => {
            approve.reset();
            setPreviewing(true);
          }}
          className={PRIMARY}
        >
          Review {selected.length} approval{selected.length === 1 ? '' : 's'}
        </button>
      )}
      {previewing && (
        <section
          aria-labelledby="fleet-approvals-preview"
          className="space-y-3 rounded border border-amber-300 bg-amber-50 px-3 py-3"
        >
          <h2 id="fleet-approvals-preview" className="text-lg font-semibold">
            You are about to approve {selected.length} InstallPlan{selected.length === 1 ? '' : 's'} on{' '}
            {byCluster(selected).length} cluster{byCluster(selected).length === 1 ? '' : 's'}
          </h2>
          <ul className="space-y-2 text-sm">
            {byCluster(selected).map((g) => (
              <li key={g.name}>
                <span className="font-semibold">{g.name}</span>
                <ul className="ml-4 list-disc">
                  {g.items.map((s) =>
                    s.plan.changes.map((ch) => (
                      <li key={`${s.plan.name}/${ch.toCsv}`}>
                        {changeText(ch)} <span className="text-xs text-slate-600">(InstallPlan {s.plan.name})</span>
                      </li>
                    )),
                  )}
                </ul>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={approve.isPending}
              onClick={() => approve.mutate(selected)}
              className={PRIMARY}
            >
              {approve.isPending ? 'Approving…' : `Approve ${selected.length}`}
            </button>
            <button
              type="button"
              disabled={approve.isPending}
              onClick={() => setPreviewing(false)}
              className="rounded border border-slate-300 px-3 py-1.5 text-sm"
            >
              Back
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
