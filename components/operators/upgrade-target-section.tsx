'use client';
// "Upgrade up to a version", on a Manual Subscription's tab: pick a version on the update path,
// see the hops OLM will take (one InstallPlan each), set it as the target; the console's approver
// approves each plan on the way and stops there, and this section follows it live, with the reason
// whenever a plan waits — or why it refuses a target not set through the console. Cancel at any time.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, apiWrite } from '@/lib/client/api';
import { usePermission } from '@/lib/client/permissions';
import type { UpgradeTargetView } from '@/lib/api/upgrade-target';
import { ErrorNotice } from '../common/notice';
import { RelativeTime } from '../common/relative-time';

const short = (csv: string, pkg: string) => (csv.startsWith(`${pkg}.v`) ? csv.slice(pkg.length + 2) : csv);

/** A target the approver will not act on: set by hand, altered, copied or too old. */
function RefusedNotice({ reason }: { reason: string }) {
  return (
    <p role="alert" className="text-red-800">
      Refused: the approver approves nothing for this target, because {reason}. Cancel it, and set a target here if one
      is wanted.
    </p>
  );
}

export function UpgradeTargetSection({ namespace, name, pkg }: { namespace: string; name: string; pkg: string }) {
  const url = `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/upgrade-target`;
  const key = ['upgrade-target', namespace, name];
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<UpgradeTargetView>(url, signal),
    refetchInterval: 3000,
  });
  const perm = usePermission(namespace, 'approveInstallPlan');
  const [choice, setChoice] = useState('');
  const qc = useQueryClient();
  const done = (v: UpgradeTargetView) => qc.setQueryData(key, v);
  const set = useMutation({
    mutationFn: () => apiWrite<UpgradeTargetView>(url, 'PUT', { target: choice }),
    onSuccess: done,
  });
  const cancel = useMutation({
    mutationFn: () => apiWrite<UpgradeTargetView>(url, 'DELETE'),
    onSuccess: (v) => {
      setChoice('');
      done(v);
    },
  });

  if (q.error) return <ErrorNotice error={q.error} what="The upgrade target could not be read" />;
  const v = q.data;
  if (!v) return null;
  const label = (csv: string) => short(csv, pkg);
  const chosenIndex = v.path.findIndex((s) => s.to === choice);
  const preview = chosenIndex >= 0 ? v.path.slice(0, chosenIndex + 1) : [];
  const why = !v.approverConfigured
    ? 'No approver is configured for this console: the cluster administrator sets OLM_CONSOLE_UPGRADE_APPROVER (docs/deploy.md, "Environment").'
    : perm.allowed === false
      ? `You may not approve InstallPlans in ${namespace}, so you may not set a target that approves them for you: ${perm.reason ?? 'the cluster refused'}`
      : undefined;
  const cancelButton = (
    <button
      type="button"
      onClick={() => cancel.mutate()}
      disabled={cancel.isPending || perm.allowed === false}
      className="rounded border border-slate-300 px-3 py-1.5 font-semibold text-slate-800 disabled:text-slate-400"
    >
      Cancel the target
    </button>
  );

  return (
    <section aria-labelledby="target-title" className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm">
      <h3 id="target-title" className="font-semibold">
        Upgrade up to a version
      </h3>
      {v.subscription.approval !== 'Manual' ? (
        <p className="text-slate-600">
          With Automatic approval OLM goes to the channel head by itself; a target needs Manual approval.
        </p>
      ) : v.target ? (
        <div className="space-y-2">
          <p>
            {v.refused ? 'A target of' : 'Upgrading up to'} <strong>{label(v.target.csv)}</strong>,{' '}
            {v.refused ? 'said to be set by' : 'set by'} {v.target.setBy}
            {v.target.setAt ? (
              <>
                {' '}
                <RelativeTime iso={v.target.setAt} />
              </>
            ) : (
              ''
            )}
            . Installed: {v.subscription.installedCSV ? label(v.subscription.installedCSV) : 'nothing yet'}.
          </p>
          {v.refused && <RefusedNotice reason={v.refused} />}
          {v.hops && v.hops.length > 0 && (
            <ol aria-label="Hops to the target" className="list-decimal pl-5">
              {v.hops.map((h) => (
                <li key={h.to}>
                  {label(h.from)} → <strong>{label(h.to)}</strong>{' '}
                  <span className="text-slate-600">(one InstallPlan, {h.via.join(', ')})</span>
                </li>
              ))}
            </ol>
          )}
          {v.verdict && (
            <p role="status" className={v.verdict.action === 'wait' ? 'text-amber-900' : 'text-emerald-800'}>
              {v.verdict.action === 'approve'
                ? `InstallPlan ${v.verdict.plan} is on the way: the approver approves it within seconds.`
                : v.verdict.action === 'reached'
                  ? `${label(v.target.csv)} is installed: the target is reached.`
                  : `Waiting: ${v.verdict.reason}.`}
            </p>
          )}
          {cancelButton}
        </div>
      ) : v.refused ? (
        <div className="space-y-2">
          <RefusedNotice reason={v.refused} />
          {cancelButton}
        </div>
      ) : v.path.length === 0 ? (
        <p className="text-slate-600">
          {v.pathProblem
            ? `No upgrade path: ${v.pathProblem}.`
            : 'The installed version is the newest OLM can reach on this channel.'}
        </p>
      ) : (
        <div className="space-y-2">
          <p className="text-slate-600">
            Pick how far to go: each InstallPlan on the way is approved for you, and the ones past it wait for approval
            as usual. A plan that also carries another operator&apos;s upgrade waits, with the reason.
          </p>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Target version</span>
            <select
              className="w-64 rounded border border-slate-300 bg-white px-2 py-1.5"
              value={choice}
              onChange={(e) => setChoice(e.target.value)}
              disabled={!!why}
            >
              <option value="">Choose a version…</option>
              {v.path.map((s) => (
                <option key={s.to} value={s.to}>
                  {label(s.to)}
                </option>
              ))}
            </select>
          </label>
          {preview.length > 0 && (
            <p aria-label="Predicted hops">
              OLM takes {preview.length === 1 ? 'one InstallPlan' : `${preview.length} InstallPlans`}:{' '}
              {[preview[0]!.from, ...preview.map((s) => s.to)].map(label).join(' → ')}, and stops.
            </p>
          )}
          {why && <p className="text-slate-600">{why}</p>}
          <button
            type="button"
            disabled={!choice || !!why || set.isPending}
            onClick={() => set.mutate()}
            className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Upgrade up to {choice ? label(choice) : '…'}
          </button>
        </div>
      )}
      {set.error && <ErrorNotice error={set.error} what="The target was not set" />}
      {cancel.error && <ErrorNotice error={cancel.error} what="The target was not cancelled" />}
    </section>
  );
}
