'use client';
// An install as it happens: resolving → waiting for approval (the plan's components and Approve
// right here) → installing (CSV phase and reason) → succeeded (with "Create <Kind>" when the
// operator names an initialization resource), or the failure in OLM's words with the documented
// repair ("Refresh the Subscription"). The state comes
// from the cluster each time, so leaving and coming back shows the same thing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dump } from 'js-yaml';
import { useState } from 'react';
import { apiGet, apiWrite } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { usePermission } from '@/lib/client/permissions';
import { INSTALL_STAGES as STAGES, stageOf, type SubscriptionProgress } from '@/lib/olm/status/install-progress';
import { ErrorNotice } from '../common/notice';
import { PermissionFailureNotice } from '../common/permission-failure';
import { RefreshSubscription } from '../operators/refresh-subscription';

export function InstallProgress({ namespace, name }: { namespace: string; name: string }) {
  const key = ['subscription-progress', namespace, name];
  const qc = useQueryClient();
  const progress = useQuery({ queryKey: key, queryFn: ({ signal }) => apiGet<SubscriptionProgress>(`/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`, signal) });
  const stage = progress.data ? stageOf(progress.data) : undefined;
  // Real OLM can report the CSV Succeeded before another sync rewrites the Subscription's
  // conditions: following stops only once they no longer say a plan is installing, or the page
  // would keep showing "InstallPlanPending: Installing" under "Installed".
  const installing = progress.data?.conditions.some((c) => c.type === 'InstallPlanPending' && c.status === 'True' && c.reason === 'Installing') ?? false;
  const done = stage?.stage === 'failed' || (stage?.stage === 'succeeded' && !installing);
  const live = useLiveRefresh(key, namespace, ['subscriptions', 'installplans', 'clusterserviceversions'], !done);
  const approvePerm = usePermission(namespace, 'approveInstallPlan');
  const approve = useMutation({
    mutationFn: () => apiWrite(`/api/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(progress.data!.installPlan!.name)}/approve`, 'POST', { resourceVersion: progress.data!.installPlan!.resourceVersion, clusterServiceVersionNames: progress.data!.installPlan!.summary.csvNames }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });

  if (progress.error) return <ErrorNotice error={progress.error} what={`Subscription ${namespace}/${name} could not be read`} />;
  if (!progress.data || !stage) return <p role="status">Loading the install…</p>;
  const p = progress.data;
  const reached = stage.stage === 'failed' ? -1 : STAGES.findIndex((s) => s.key === stage.stage);

  return (
    <article className="space-y-6">
      <h1 className="text-2xl font-bold">
        Installing {p.subscription.spec.name} in {namespace}
      </h1>
      <LiveNotice state={live} inline={false} className="text-sm text-amber-800" reconnecting="Reconnecting to the cluster: what you see may be behind." />
      <ol aria-label="Install steps" className="flex flex-wrap gap-2">
        {STAGES.map((s, i) => (
          <li key={s.key} aria-current={s.key === stage.stage ? 'step' : undefined} className={`rounded-full px-3 py-1 text-sm ${s.key === stage.stage ? 'bg-sky-700 font-semibold text-white' : i < reached ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-100 text-slate-500'}`}>
            {s.label}
          </li>
        ))}
        {stage.stage === 'failed' && <li aria-current="step" className="rounded-full bg-red-700 px-3 py-1 text-sm font-semibold text-white">Failed</li>}
      </ol>
      <p role="status" aria-live="polite" className={`rounded border px-3 py-2 ${stage.stage === 'failed' ? 'border-red-300 bg-red-50 text-red-900' : stage.stage === 'succeeded' ? 'border-emerald-300 bg-emerald-50 text-emerald-900' : 'border-slate-200 bg-white'}`}>
        {stage.stage === 'succeeded' ? `Installed: ${p.csv?.name} is ready. ` : ''}
        {stage.detail}
      </p>
      {/* OLM retries a refused write as long as it is refused: the plan stays Installing, saying why. */}
      <PermissionFailureNotice message={p.installPlan?.summary.message} namespace={namespace} />
      {p.csv?.message !== p.installPlan?.summary.message && <PermissionFailureNotice message={p.csv?.message} namespace={namespace} />}

      {stage.stage === 'approval' && p.installPlan && (
        <section aria-labelledby="approve-title" className="space-y-3 rounded border border-slate-200 bg-white p-4">
          <h2 id="approve-title" className="text-lg font-semibold">
            Approve InstallPlan {p.installPlan.name}
          </h2>
          <p className="text-sm text-slate-700">It installs {p.installPlan.summary.csvNames.join(', ')} with these resources:</p>
          <ul className="max-h-64 overflow-y-auto text-sm">
            {p.installPlan.components.map((c) => (
              <li key={`${c.kind}/${c.name}`}>
                <span className="text-slate-500">{c.kind}</span> {c.name}
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-3">
            <button type="button" onClick={() => approve.mutate()} disabled={approvePerm.allowed === false || approve.isPending} className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600">
              {approve.isPending ? 'Approving…' : 'Approve'}
            </button>
            {approvePerm.allowed === false && <p className="text-sm text-slate-700">You may not approve: {approvePerm.reason}</p>}
          </div>
          {approve.error && <ErrorNotice error={approve.error} what="Approval failed" />}
        </section>
      )}

      {stage.stage === 'failed' && <RefreshSubscription namespace={namespace} name={name} onDone={() => void qc.invalidateQueries({ queryKey: key })} />}

      {stage.stage === 'succeeded' && p.csv?.initializationResource && <CreateInitResource namespace={namespace} csv={p.csv.name} resource={p.csv.initializationResource} />}

      <section aria-labelledby="conditions-title" className="space-y-2">
        <h2 id="conditions-title" className="text-lg font-semibold">
          Subscription conditions
        </h2>
        {p.conditions.length === 0 ? (
          <p className="text-sm text-slate-600">None yet.</p>
        ) : (
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="border-b p-1">Type</th>
                <th className="border-b p-1">Status</th>
                <th className="border-b p-1">Reason</th>
                <th className="border-b p-1">Message</th>
              </tr>
            </thead>
            <tbody>
              {p.conditions.map((c) => (
                <tr key={c.type}>
                  <td className="border-b p-1">{c.type}</td>
                  <td className="border-b p-1">{c.status}</td>
                  <td className="border-b p-1">{c.reason}</td>
                  <td className="border-b p-1">{c.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}

function CreateInitResource({ namespace, csv, resource }: { namespace: string; csv: string; resource: NonNullable<NonNullable<SubscriptionProgress['csv']>['initializationResource']> }) {
  const [show, setShow] = useState(false);
  const create = useMutation({ mutationFn: () => apiWrite<{ metadata?: { name?: string } }>(`/api/operands/${encodeURIComponent(namespace)}`, 'POST', { csv, object: resource.object }) });
  return (
    <section aria-labelledby="init-title" className="space-y-2 rounded border border-slate-200 bg-white p-4">
      <h2 id="init-title" className="text-lg font-semibold">
        Next: create a {resource.kind}
      </h2>
      <p className="text-sm text-slate-700">The operator asks for this resource to start working.</p>
      <div className="flex items-center gap-3">
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending || create.isSuccess} className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600">
          Create {resource.kind}
        </button>
        <button type="button" className="text-sm text-sky-700 underline" aria-expanded={show} onClick={() => setShow(!show)}>
          {show ? 'Hide YAML' : 'View YAML'}
        </button>
      </div>
      {show && <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{dump(resource.object)}</pre>}
      {create.isSuccess && <p role="status" className="text-sm text-emerald-800">Created {resource.kind} {create.data.metadata?.name} in {namespace}.</p>}
      {create.error && <ErrorNotice error={create.error} what={`Creating the ${resource.kind} failed`} />}
    </section>
  );
}
