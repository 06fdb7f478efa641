'use client';
// "Roll back to an earlier version", on an installed operator's Subscription tab: OLM cannot
// downgrade in place, so the console plans the documented way back (Subscription and CSV removed,
// the CRDs and instances kept, the Subscription made again at the earlier version under Manual
// approval), shows what the earlier CRDs risk, and applies it as the person once they confirm.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useClusterRouter } from '@/lib/client/cluster';
import { useState } from 'react';
import { apiGet, apiWrite } from '@/lib/client/api';
import type { Risk } from '@/lib/olm/install/rollback';
import type { RollbackResult, RollbackView } from '@/lib/api/rollback';
import { ErrorNotice } from '../common/notice';

const TONE: Record<Risk['level'], string> = {
  blocker: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  info: 'border-slate-200 bg-white text-slate-700',
};
const WORD: Record<Risk['level'], string> = { blocker: 'Blocks it', warning: 'Risk', info: 'Note' };

export function RollbackSection({ namespace, csvName }: { namespace: string; csvName: string }) {
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState('');
  const [understood, setUnderstood] = useState(false);
  const base = `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csvName)}/rollback`;
  const versions = useQuery({
    queryKey: ['rollback', namespace, csvName],
    queryFn: ({ signal }) => apiGet<RollbackView>(base, signal),
    enabled: open,
  });
  const plan = useQuery({
    queryKey: ['rollback', namespace, csvName, target],
    queryFn: () => apiWrite<RollbackView>(`${base}/plan`, 'POST', { to: target }),
    enabled: open && !!target,
  });
  const router = useClusterRouter();
  // This page is named after the CSV the rollback deletes: the person goes on where the new
  // Subscription's InstallPlan waits for them.
  const apply = useMutation({
    mutationFn: () => apiWrite<RollbackResult>(base, 'POST', { to: target }),
    onSuccess: (r) =>
      router.push(
        `/installs/${encodeURIComponent(r.subscription.namespace)}/${encodeURIComponent(r.subscription.name)}`,
      ),
  });
  const p = plan.data?.plan;
  const label = versions.data?.earlier.find((e) => e.csvName === target)?.version ?? target;

  return (
    <details
      className="rounded border border-slate-200 bg-white p-3"
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer font-semibold">Roll back to an earlier version</summary>
      <div className="mt-3 space-y-3 text-sm">
        <p className="text-slate-600">
          OLM does not downgrade an operator in place. The way back: remove its Subscription and ClusterServiceVersion
          (its CRDs and every instance stay), then subscribe again at the earlier version with Manual approval, so OLM
          installs that version once you approve it and does not upgrade again by itself.
        </p>
        {versions.error && <ErrorNotice error={versions.error} what="The earlier versions could not be listed" />}
        {versions.data && versions.data.earlier.length === 0 && (
          <p>
            No version of channel {versions.data.channel} is older than {versions.data.installed.version ?? csvName}.
          </p>
        )}
        {versions.data && versions.data.earlier.length > 0 && (
          <label className="flex flex-col gap-1">
            <span className="font-medium">Earlier version of {versions.data.channel}</span>
            <select
              className="w-64 rounded border border-slate-300 bg-white px-2 py-1.5"
              value={target}
              onChange={(e) => {
                setTarget(e.target.value);
                setUnderstood(false);
                apply.reset();
              }}
            >
              <option value="">Choose a version…</option>
              {versions.data.earlier.map((e) => (
                <option key={e.csvName} value={e.csvName}>
                  {e.version ?? e.csvName}
                </option>
              ))}
            </select>
          </label>
        )}
        {plan.error && <ErrorNotice error={plan.error} what="The rollback could not be planned" />}
        {target && !p && !plan.error && <p role="status">Planning…</p>}
        {p && (
          <section aria-label="Rollback plan" className="space-y-3">
            <ol className="list-decimal space-y-1 pl-5" aria-label="Rollback steps">
              {p.steps.map((s) => (
                <li key={`${s.action}-${s.kind}-${s.name}`}>
                  <strong>
                    {s.action === 'delete' ? 'Delete' : 'Create'} {s.kind} {s.namespace}/{s.name}
                  </strong>
                  : {s.why}
                </li>
              ))}
            </ol>
            <ul className="space-y-1" aria-label="What it risks">
              {p.risks.map((r) => (
                <li key={r.message} className={`rounded border px-2 py-1 ${TONE[r.level]}`}>
                  <span className="font-semibold">{WORD[r.level]}:</span> {r.message}
                </li>
              ))}
            </ul>
            {!p.blocked && !apply.isSuccess && (
              <div className="space-y-2">
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={understood}
                    onChange={(e) => setUnderstood(e.target.checked)}
                  />
                  <span>I understand the operator stops until I approve the InstallPlan for {label}.</span>
                </label>
                <button
                  type="button"
                  disabled={!understood || apply.isPending}
                  onClick={() => apply.mutate()}
                  className="rounded bg-red-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
                >
                  {apply.isPending ? 'Rolling back…' : `Roll back to ${label}`}
                </button>
              </div>
            )}
          </section>
        )}
        {apply.error && <ErrorNotice error={apply.error} what="The rollback did not complete" />}
        {apply.data && (
          <p role="status">
            Subscription {apply.data.subscription.name} now starts at {label}: opening its progress, where OLM&apos;s
            InstallPlan waits for your approval…
          </p>
        )}
      </div>
    </details>
  );
}
