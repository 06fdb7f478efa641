'use client';
// The confirmation both deleting and disabling a catalog show: the server's plan first (the
// Subscriptions that install from it and what OLM then does to them, and whether the person may),
// then the change as the person, or nothing at all.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { CatalogSourcePlan, CatalogSourceRow } from '@/lib/api/catalog-sources';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice, Warning } from '../common/notice';
import { PlanSubscriptions } from './plan-subscriptions';

const TONES = {
  red: { box: 'border-red-200 bg-red-50/40', button: 'bg-red-700' },
  amber: { box: 'border-amber-200 bg-amber-50/40', button: 'bg-amber-700' },
};

export interface CatalogChange {
  action: 'delete' | 'disable';
  /** "Delete", "Disable": the heading's and the button's verb. */
  verb: string;
  /** "Deleting", "Disabling": while it is sent, and in "… could not be planned". */
  doing: string;
  /** "deleted", "disabled": in "The catalog source was not …". */
  done: string;
  tone: keyof typeof TONES;
  warningTitle: string;
  /** The change itself, sent once the person confirms. */
  apply: () => Promise<unknown>;
  /** What the page says when it is done. */
  message: string;
}

export function ConfirmCatalogChange({
  row,
  change,
  onDone,
  onCancel,
}: {
  row: CatalogSourceRow;
  change: CatalogChange;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const plan = useQuery({
    queryKey: ['catalogsource-plan', change.action, row.namespace, row.name, row.generation],
    queryFn: () =>
      apiWrite<CatalogSourcePlan>('/api/catalogsources/plan', 'POST', {
        action: change.action,
        namespace: row.namespace,
        name: row.name,
        seen: String(row.generation ?? ''),
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const apply = useMutation({ mutationFn: change.apply, onSuccess: () => onDone(change.message) });
  const p = plan.data;
  const what = `${change.verb} catalog source`;
  const tone = TONES[change.tone];
  return (
    <section aria-label={`${what} ${row.namespace}/${row.name}`} className={`space-y-3 rounded border p-3 ${tone.box}`}>
      <h3 className="font-semibold">
        {what} {row.namespace}/{row.name}?
      </h3>
      {plan.error && <ErrorNotice error={plan.error} what={`${change.doing} could not be planned`} />}
      {!p && !plan.error && <p role="status">Finding the Subscriptions that use it…</p>}
      {p && (
        <>
          <Warning title={change.warningTitle}>
            <ul className="list-disc space-y-1 pl-5">
              {p.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Warning>
          <PlanSubscriptions plan={p} />
          {!p.allowed.allowed && (
            <p className="text-sm text-slate-700">
              You may not {change.verb.toLowerCase()} it: {p.allowed.reason}
            </p>
          )}
        </>
      )}
      {apply.error && <ErrorNotice error={apply.error} what={`The catalog source was not ${change.done}`} />}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || !p.allowed.allowed || apply.isPending}
          onClick={() => apply.mutate()}
          className={`rounded px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600 ${tone.button}`}
        >
          {apply.isPending ? `${change.doing}…` : what}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Keep it
        </button>
      </div>
    </section>
  );
}
