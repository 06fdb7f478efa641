'use client';
// An install as it happens: resolving → waiting for approval (the plan's components and Approve
// right here; after Approve the focus goes to the status line) → installing (CSV phase and reason)
// → succeeded (what next: the operator's page, its create forms, the next upgrade if one already
// waits), or the failure in OLM's words with the documented repair ("Refresh the Subscription").
// The state comes from the cluster each time, so leaving and coming back shows the same thing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiGet, apiWrite } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { usePermission } from '@/lib/client/permissions';
import {
  INSTALL_STAGES as STAGES,
  stageOf,
  type Stage,
  type SubscriptionProgress,
} from '@/lib/olm/status/install-progress';
import { ConditionsTable } from '../common/conditions-table';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { PermissionFailureNotice } from '../common/permission-failure';
import { RefreshSubscription } from '../operators/refresh-subscription';
import { InstallHeadline } from './install-headline';
import { InstallNextSteps } from './install-next-steps';

const HEADLINE: Record<Stage, string> = {
  resolving: 'Installing',
  approval: 'Installing',
  installing: 'Installing',
  succeeded: 'Installed',
  failed: 'Could not install',
};
const RESOURCES = 'max-h-64 overflow-y-auto text-sm [overflow-wrap:anywhere]';

export function InstallProgress({ namespace, name }: { namespace: string; name: string }) {
  const key = ['subscription-progress', namespace, name];
  const qc = useQueryClient();
  const progress = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<SubscriptionProgress>(
        `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
        signal,
      ),
  });
  const stage = progress.data ? stageOf(progress.data) : undefined;
  // Followed whatever the stage. After success: real OLM can report the CSV Succeeded before another
  // sync rewrites the Subscription's conditions, and under Manual approval it plans the next upgrade
  // right after the install, which the page then explains. After a failure: OLM resolves the
  // namespace again on every change, so a ResolutionFailed may be gone a second later (seen on real
  // OLM while a dependency's Subscription was being made) or after someone's fix elsewhere.
  const watched = ['subscriptions', 'installplans', 'clusterserviceversions'];
  const live = useLiveRefresh(key, namespace, watched);
  const approvePerm = usePermission(namespace, 'approveInstallPlan');
  const approve = useMutation({
    mutationFn: () =>
      apiWrite(
        `/api/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(progress.data!.installPlan!.name)}/approve`,
        'POST',
        {
          resourceVersion: progress.data!.installPlan!.resourceVersion,
          clusterServiceVersionNames: progress.data!.installPlan!.summary.csvNames,
        },
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  // Approve removes the section it is in: the focus goes to the line that says what happens now.
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (approve.isSuccess) status.current?.focus();
  }, [approve.isSuccess]);

  if (progress.error) {
    return (
      <ErrorPanel
        error={progress.error}
        title={`The install of ${name} in ${namespace} could not be read`}
        notFound={
          `There is no Subscription ${name} in ${namespace}: ` +
          'the operator may have been uninstalled, or the install never started.'
        }
        onRetry={() => void progress.refetch()}
        back={[
          {
            href: `/operators?namespace=${encodeURIComponent(namespace)}`,
            label: `Installed Operators in ${namespace}`,
          },
          { href: '/operatorhub', label: 'Browse OperatorHub' },
        ]}
      />
    );
  }
  if (!progress.data || !stage) return <p role="status">Loading the install…</p>;
  const p = progress.data;
  const reached = stage.stage === 'failed' ? -1 : STAGES.findIndex((s) => s.key === stage.stage);

  return (
    <article className="space-y-6">
      <InstallHeadline verb={HEADLINE[stage.stage]} subscription={p.subscription} namespace={namespace} />
      <LiveNotice
        state={live}
        inline={false}
        className="text-sm text-amber-800"
        reconnecting="Reconnecting to the cluster: what you see may be behind."
      />
      <ol aria-label="Install steps" className="flex flex-wrap gap-2">
        {STAGES.map((s, i) => (
          <li
            key={s.key}
            aria-current={s.key === stage.stage ? 'step' : undefined}
            className={`rounded-full px-3 py-1 text-sm ${s.key === stage.stage ? 'bg-sky-700 font-semibold text-white' : i < reached ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-100 text-slate-600'}`}
          >
            {s.label}
          </li>
        ))}
        {stage.stage === 'failed' && (
          <li aria-current="step" className="rounded-full bg-red-700 px-3 py-1 text-sm font-semibold text-white">
            Failed
          </li>
        )}
      </ol>
      <p
        ref={status}
        tabIndex={-1}
        role="status"
        aria-live="polite"
        className={`rounded border px-3 py-2 [overflow-wrap:anywhere] ${stage.stage === 'failed' ? 'border-red-300 bg-red-50 text-red-900' : stage.stage === 'succeeded' ? 'border-emerald-300 bg-emerald-50 text-emerald-900' : 'border-slate-200 bg-white'}`}
      >
        {stage.stage === 'succeeded' ? `Installed: ${p.csv?.name} is ready. ` : ''}
        {stage.detail}
      </p>
      {/* OLM retries a refused write as long as it is refused: the plan stays Installing, saying why. */}
      <PermissionFailureNotice message={p.installPlan?.summary.message} namespace={namespace} />
      {p.csv?.message !== p.installPlan?.summary.message && (
        <PermissionFailureNotice message={p.csv?.message} namespace={namespace} />
      )}

      {stage.stage === 'approval' && p.installPlan && (
        <section aria-labelledby="approve-title" className="space-y-3 rounded border border-slate-200 bg-white p-4">
          <h2 id="approve-title" className="text-lg font-semibold">
            Approve InstallPlan {p.installPlan.name}
          </h2>
          <p className="text-sm text-slate-700">
            It installs {p.installPlan.summary.csvNames.join(', ')} with these resources:
          </p>
          {/* Focusable: a long list scrolls, and a keyboard must be able to scroll it. */}
          <ul tabIndex={0} aria-label="Resources the plan creates" className={RESOURCES}>
            {p.installPlan.components.map((c) => (
              <li key={`${c.kind}/${c.name}`}>
                <span className="text-slate-500">{c.kind}</span> {c.name}
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-3">
            <button
              type="button"
              onClick={() => approve.mutate()}
              disabled={approvePerm.allowed === false || approve.isPending}
              className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
            >
              {approve.isPending ? 'Approving…' : 'Approve'}
            </button>
            {approvePerm.allowed === false && (
              <p className="text-sm text-slate-700">You may not approve: {approvePerm.reason}</p>
            )}
          </div>
          {approve.error && <ErrorNotice error={approve.error} what="Approval failed" />}
        </section>
      )}

      {stage.stage === 'failed' && (
        <RefreshSubscription
          namespace={namespace}
          name={name}
          onDone={() => void qc.invalidateQueries({ queryKey: key })}
        />
      )}

      {stage.stage === 'succeeded' && p.csv && <InstallNextSteps namespace={namespace} progress={p} />}

      <section aria-labelledby="conditions-title" className="space-y-2">
        <h2 id="conditions-title" className="text-lg font-semibold">
          Subscription conditions
        </h2>
        {p.conditions.length === 0 ? (
          <p className="text-sm text-slate-600">None yet.</p>
        ) : (
          <ConditionsTable rows={p.conditions} label="Subscription conditions" />
        )}
      </section>
    </article>
  );
}
