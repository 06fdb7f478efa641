'use client';
// Approvals across clusters: every InstallPlan waiting for approval and every OLM v1 version
// change waiting (a ClusterExtension pinned below a newer version its channels offer) on every
// cluster. The person picks any of them on any clusters, sees one combined preview
// (approvals-preview.tsx), and approves: each on its own cluster as them. Each result is reported
// under its cluster: made, or refused with the cluster's or OLM's reason (the rest are made
// regardless). A cluster that did not answer is said so with its reason; one that lets the person
// read only some namespaces says which. The page is live: each cluster's row is read again as soon
// as its InstallPlans or ClusterExtension versions change (someone approves elsewhere, a new plan
// appears), so a chosen item approved meanwhile drops out rather than being approved twice.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ClusterApprovals, FleetApproveResponse } from '@/lib/api/fleet';
import { apiWrite } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { itemKey, ItemLabel, type ApprovalItem } from './approval-items';
import { ApprovalsPreview } from './approvals-preview';
import { ApprovalResults } from './approval-results';
import { ClusterNotLive, LiveSummary } from './approvals-live';
import { ClusterName, NotAnswering } from './cluster-name';
import { useCandidatePath } from './use-candidate-path';
import { useFleetStream } from './use-fleet-stream';

export const APPROVAL_EVENTS = '/api/fleet/approvals/events';

const PRIMARY =
  'rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600';

function itemsOf(cluster: string, v: ClusterApprovals): ApprovalItem[] {
  return [
    ...v.approvals.map((plan) => ({ kind: 'plan' as const, cluster, plan })),
    ...v.versionChanges.map((change) => ({ kind: 'version' as const, cluster, change })),
  ];
}

export function ApprovalsAcrossView() {
  const q = useFleetStream<ClusterApprovals>(useCandidatePath('/api/fleet/approvals'), { live: APPROVAL_EVENTS });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [previewing, setPreviewing] = useState(false);
  const approve = useMutation({
    mutationFn: (items: ApprovalItem[]) =>
      apiWrite<FleetApproveResponse>('/api/fleet/approvals/approve', 'POST', {
        plans: items.flatMap((i) =>
          i.kind === 'plan'
            ? [
                {
                  cluster: i.cluster,
                  namespace: i.plan.namespace,
                  name: i.plan.name,
                  resourceVersion: i.plan.resourceVersion,
                  clusterServiceVersionNames: i.plan.clusterServiceVersionNames,
                },
              ]
            : [],
        ),
        versionChanges: items.flatMap((i) =>
          i.kind === 'version'
            ? [
                {
                  cluster: i.cluster,
                  name: i.change.name,
                  version: i.change.to.version,
                  seen: i.change.resourceVersion ?? '',
                },
              ]
            : [],
        ),
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
  const live = q.data.live;
  const all = q.data.clusters.flatMap((c) => (c.ok ? itemsOf(c.name, c.value) : []));
  const plans = all.filter((i) => i.kind === 'plan').length;
  const versions = all.length - plans;
  const selected = all.filter((i) => chosen.has(itemKey(i)));
  const toggle = (k: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });

  return (
    <section aria-labelledby="fleet-approvals-title" aria-busy={q.data.pending.length > 0} className="space-y-4">
      <h1 id="fleet-approvals-title" className="text-2xl font-bold">
        Approvals across clusters
      </h1>
      <p className="text-sm text-slate-600">
        {plans} InstallPlan{plans === 1 ? '' : 's'} waiting for approval and {versions} OLM v1 version change
        {versions === 1 ? '' : 's'} waiting across {clusters.length} clusters. Approving a plan lets OLM install
        everything in it; approving a version change sets the extension to that version. Each is made on its own cluster
        as you.
      </p>
      <LiveSummary live={live} clusters={clusters.length} />
      {approve.data && <ApprovalResults answer={approve.data} />}
      {approve.error && <ErrorNotice error={approve.error} what="Nothing was approved" />}
      {clusters.map(({ ref, answer: c }) => (
        <section key={ref.name} aria-labelledby={`fleet-approvals-${ref.name}`} className="space-y-2">
          <h2 id={`fleet-approvals-${ref.name}`} className="text-lg font-semibold">
            <ClusterName cluster={ref} />
          </h2>
          <ClusterNotLive live={live} cluster={ref.name} />
          {!c ? (
            <p className="text-sm text-slate-600">Asking…</p>
          ) : !c.ok ? (
            <p>
              <NotAnswering error={c.error} />
            </p>
          ) : (
            <>
              {c.value.namespaces && (
                <p className="text-sm text-slate-700">
                  You may not list InstallPlans in every namespace here, so they were read in{' '}
                  {c.value.namespaces.length
                    ? `the namespaces you may use: ${c.value.namespaces.join(', ')}`
                    : 'none: no namespace you have used in this browser lets you work there'}
                  .
                </p>
              )}
              {c.value.notes.map((n) => (
                <p key={n} className="text-sm text-slate-700 [overflow-wrap:anywhere]">
                  You may not see everything here: {n}
                </p>
              ))}
              {itemsOf(c.name, c.value).length === 0 ? (
                <p className="text-sm text-slate-600">Nothing waits for approval.</p>
              ) : (
                <ul className="space-y-2">
                  {itemsOf(c.name, c.value).map((item) => {
                    const k = itemKey(item);
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
                          <ItemLabel cluster={c} item={item} />
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
        <ApprovalsPreview
          items={selected}
          pending={approve.isPending}
          onApprove={(items) => approve.mutate(items)}
          onBack={() => setPreviewing(false)}
        />
      )}
    </section>
  );
}
