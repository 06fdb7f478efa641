'use client';
// Uninstalling an operator: first what goes and what stays (and the operator's own message),
// operands listed by namespace before anyone can choose to delete them; then the steps as the
// server did them, and on a failure exactly what remains and how to finish.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { UninstallPreview, UninstallStep } from '@/lib/api/operators';
import { apiWrite, ApiClientError } from '@/lib/client/api';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { ErrorNotice } from '../common/notice';
import { CrdRemovalPanel, crdRemovalReady } from './crd-removal';
import { leftoversHref } from './leftovers-href';

const OUTCOME: Record<UninstallStep['outcome'], string> = {
  deleted: 'deleted',
  'already-gone': 'already gone',
  failed: 'failed',
  'not-done': 'not done',
};

function Steps({ steps }: { steps: UninstallStep[] }) {
  return (
    <ul aria-label="Uninstall steps" className="space-y-1 text-sm">
      {steps.map((s, i) => (
        <li
          key={i}
          className={
            s.outcome === 'failed' ? 'text-red-800' : s.outcome === 'not-done' ? 'text-slate-500' : 'text-emerald-800'
          }
        >
          {s.kind} {s.namespace ? `${s.namespace}/` : ''}
          {s.name}: {OUTCOME[s.outcome]}
          {s.message ? ` (${s.message})` : ''}
        </li>
      ))}
    </ul>
  );
}

export function UninstallDialog({
  namespace,
  csv,
  onClose,
  onDone,
}: {
  namespace: string;
  csv: string;
  onClose: () => void;
  onDone?: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const qc = useQueryClient();
  const base = `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}/uninstall`;
  const preview = useQuery({
    queryKey: ['uninstall-preview', namespace, csv],
    queryFn: () => apiWrite<UninstallPreview>(`${base}/plan`, 'POST', {}),
    staleTime: 0,
  });
  const [operands, setOperands] = useState(false);
  const [group, setGroup] = useState(false);
  const [complete, setComplete] = useState(false);
  const [typed, setTyped] = useState('');
  const removal = useQuery({
    queryKey: ['uninstall-preview-complete', namespace, csv],
    queryFn: () => apiWrite<UninstallPreview>(`${base}/plan`, 'POST', { deleteCrds: true }),
    enabled: complete,
    staleTime: 0,
  });
  const run = useMutation({
    mutationFn: () =>
      apiWrite<{ steps: UninstallStep[] }>(base, 'POST', {
        deleteOperands: operands,
        deleteOperatorGroup: group,
        ...(complete ? { deleteCrds: true, confirmation: typed.trim() } : {}),
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['operators'] }),
  });
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const p = preview.data;
  const failedSteps =
    run.error instanceof ApiClientError
      ? (run.error.body.details as { steps?: UninstallStep[] } | undefined)?.steps
      : undefined;
  return (
    <dialog
      ref={ref}
      aria-labelledby="uninstall-title"
      onClose={onClose}
      className="m-auto w-[calc(100vw-2rem)] max-w-2xl rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      {/* Sized to the viewport, whatever the page behind it: the dialog scrolls inside, never off-screen. */}
      <div className="max-h-[calc(100dvh-2rem)] space-y-4 overflow-y-auto p-4 [overflow-wrap:anywhere] sm:p-6">
        <h2 id="uninstall-title" className="text-xl font-bold">
          Uninstall {p?.displayName ?? csv}?
        </h2>
        {preview.error && (
          <ErrorNotice error={preview.error} what="What the uninstall would remove could not be read" />
        )}
        {!p && !preview.error && <p role="status">Reading what the uninstall would remove…</p>}
        {p && !run.isSuccess && (
          <>
            {p.uninstallMessage && (
              <div role="note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
                <p className="font-semibold">Message from the operator</p>
                <p>{p.uninstallMessage}</p>
              </div>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              <section aria-labelledby="removes-title">
                <h3 id="removes-title" className="font-semibold">
                  Removed
                </h3>
                <ul className="list-disc pl-5 text-sm">
                  {[
                    ...p.removes,
                    ...(complete ? ["the operator's CustomResourceDefinitions and every instance of them"] : []),
                  ].map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              </section>
              <section aria-labelledby="stays-title">
                <h3 id="stays-title" className="font-semibold">
                  Stays
                </h3>
                <ul className="list-disc pl-5 text-sm">
                  {p.stays
                    .filter(
                      (r) =>
                        !complete || !/^the CustomResourceDefinitions |operands? \(unless you delete them\)$/.test(r),
                    )
                    .map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                </ul>
              </section>
            </div>
            {p.operandDeleteDisabled ? (
              <p className="text-sm text-slate-600">
                The operator asks consoles not to delete its operands (console.openshift.io/disable-operand-delete), so
                they stay.
              </p>
            ) : p.operands.total > 0 ? (
              <fieldset className="space-y-2 rounded border border-slate-200 p-3">
                <legend className="px-1 text-sm font-semibold">Operands ({p.operands.total})</legend>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={operands} onChange={(e) => setOperands(e.target.checked)} /> Also
                  delete these {p.operands.total} operands (first, while the operator still runs their finalizers)
                </label>
                {Object.entries(p.operands.byNamespace).map(([ns, refs]) => (
                  <div key={ns} className="text-sm">
                    <p className="font-medium">{ns || 'cluster-scoped'}</p>
                    <ul className="list-disc pl-5">
                      {refs.map((r) => (
                        <li key={`${r.kind}/${r.name}`}>
                          {r.kind} {r.name}
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </fieldset>
            ) : (
              <p className="text-sm text-slate-600">
                This operator has no operands{p.operands.problems.length ? ' that you may list' : ''}.
              </p>
            )}
            {p.operands.problems.map((m) => (
              <p key={m} className="text-xs text-amber-800">
                {m}
              </p>
            ))}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={complete}
                onChange={(e) => {
                  setComplete(e.target.checked);
                  setTyped('');
                }}
              />{' '}
              Remove completely: also delete the operator&apos;s CRDs, and with them every instance in the cluster (OLM
              never does)
            </label>
            {complete && removal.error && (
              <ErrorNotice error={removal.error} what="What a complete removal would take could not be read" />
            )}
            {complete && !removal.data && !removal.error && (
              <p role="status" className="text-sm">
                Counting every instance in the cluster…
              </p>
            )}
            {complete && removal.data?.crdRemoval && (
              <CrdRemovalPanel removal={removal.data.crdRemoval} typed={typed} onType={setTyped} />
            )}
            {p.operatorGroup?.createdByConsole && p.operatorGroup.lastOperator && (
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={group} onChange={(e) => setGroup(e.target.checked)} /> Also remove
                OperatorGroup {p.operatorGroup.name}: the console created it and no other operator uses it
              </label>
            )}
          </>
        )}
        {run.isPending && (
          <p role="status">
            Uninstalling
            {complete
              ? ': deleting every instance first, then the operator, then its CRDs'
              : operands
                ? ': deleting the operands first and waiting until they are gone'
                : ''}
            …
          </p>
        )}
        {run.isSuccess && (
          <div role="status" className="space-y-2">
            <p className="font-semibold text-emerald-800">{p?.displayName ?? csv} is uninstalled.</p>
            <Steps steps={run.data.steps} />
          </div>
        )}
        {run.error && (
          <div className="space-y-2">
            <ErrorNotice error={run.error} what="The uninstall stopped" />
            {failedSteps && <Steps steps={failedSteps} />}
            <p className="text-sm">
              <Link
                className="font-semibold text-sky-700 underline"
                href={leftoversHref(namespace, { csv, ...(p?.subscription ? { subscription: p.subscription } : {}) })}
              >
                See what is left
              </Link>{' '}
              and clean up the parts you choose.
            </p>
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          {run.isSuccess ? (
            <button
              type="button"
              autoFocus
              className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white"
              onClick={() => {
                ref.current?.close();
                onDone?.();
              }}
            >
              Done
            </button>
          ) : (
            <>
              <button
                type="button"
                className="rounded border border-slate-300 px-4 py-1.5"
                onClick={() => ref.current?.close()}
              >
                Cancel
              </button>
              <button
                type="button"
                disabled={!p || run.isPending || (complete && !crdRemovalReady(removal.data?.crdRemoval, typed))}
                onClick={() => run.mutate()}
                className="rounded bg-red-700 px-4 py-1.5 font-semibold text-white disabled:bg-slate-300"
              >
                {complete ? 'Uninstall and remove the CRDs' : 'Uninstall'}
              </button>
            </>
          )}
        </div>
      </div>
    </dialog>
  );
}
