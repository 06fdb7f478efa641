'use client';
// "What is left" of an operator an uninstall did not finish: each part (Subscription, CSV,
// InstallPlans, the console's OperatorGroup, CRDs, their instances, finalizers holding them) with
// why it stays, a checkbox for those the person may clean up (refused ones say why), the exact
// steps previewed, then applied as the person with the outcome of each step.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { LeftoverPart, Leftovers } from '@/lib/olm/install/leftovers';
import { apiGet, apiWrite, ApiClientError } from '@/lib/client/api';
import type { CleanupResultStep, PlannedCleanup } from '@/lib/api/leftovers';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { CleanupResult } from './leftovers-result';

const KIND_LABEL: Record<LeftoverPart['kind'], string> = {
  Subscription: 'Subscription',
  ClusterServiceVersion: 'ClusterServiceVersion',
  InstallPlan: 'InstallPlan',
  OperatorGroup: 'OperatorGroup',
  CustomResourceDefinition: 'CRD',
  Instances: 'Instances of',
  Finalizers: 'Remove finalizers from instances of',
};

function PartRow({
  part,
  checked,
  onChange,
}: {
  part: LeftoverPart;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const label = `${KIND_LABEL[part.kind]} ${part.name}`;
  return (
    <li className="space-y-1 border-b border-slate-100 py-2">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          checked={checked}
          disabled={!!part.refused}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`why-${part.id}`}
        />
        <span>
          <span className="font-medium">{label}</span> <span className="text-sm text-slate-600">({part.state})</span>
        </span>
      </label>
      <div id={`why-${part.id}`} className="pl-6 text-sm">
        <ul className="list-disc pl-5 text-slate-700">
          {part.why.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        {part.kind === 'Instances' && part.instances && part.instances.items.length > 0 && (
          <p className="text-slate-600">
            {part.instances.items
              .slice(0, 20)
              .map((i) => `${i.namespace ? `${i.namespace}/` : ''}${i.name}${i.deletionTimestamp ? ' (deleting)' : ''}`)
              .join(', ')}
            {part.instances.items.length > 20 ? ` and ${part.instances.items.length - 20} more` : ''}
          </p>
        )}
        {part.refused && <p className="text-amber-900">Cannot be cleaned up here: {part.refused}</p>}
      </div>
    </li>
  );
}

export function LeftoversView({
  namespace,
  subscription,
  csv,
}: {
  namespace: string;
  subscription?: string;
  csv?: string;
}) {
  const qc = useQueryClient();
  const anchor = { ...(subscription ? { subscription } : {}), ...(csv ? { csv } : {}) };
  const query = new URLSearchParams(anchor).toString();
  const base = `/api/leftovers/${encodeURIComponent(namespace)}`;
  const key = ['leftovers', namespace, subscription ?? '', csv ?? ''];
  const left = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<{ leftovers: Leftovers }>(`${base}?${query}`, signal),
    staleTime: 0,
  });
  const [chosen, setChosen] = useState<string[]>([]);
  const plan = useMutation({
    mutationFn: (parts: string[]) => apiWrite<{ plan: PlannedCleanup }>(`${base}/plan`, 'POST', { ...anchor, parts }),
  });
  const apply = useMutation({
    mutationFn: (p: { parts: string[]; seen: string[] }) =>
      apiWrite<{ steps: CleanupResultStep[] }>(base, 'POST', { ...anchor, ...p }),
    onSettled: () => {
      plan.reset();
      setChosen([]);
      void qc.invalidateQueries({ queryKey: key });
      void qc.invalidateQueries({ queryKey: ['operators'] });
    },
  });
  const l = left.data?.leftovers;
  // A preview is for the choice it was made for; changing the choice asks for a new one.
  const previewed =
    plan.data && plan.variables && plan.variables.join('\n') === chosen.join('\n') ? plan.data.plan : undefined;
  const toggle = (id: string, on: boolean) => {
    setChosen((c) => (on ? [...c, id].sort() : c.filter((x) => x !== id)));
    apply.reset();
  };
  const failedSteps =
    apply.error instanceof ApiClientError
      ? (apply.error.body.details as { steps?: CleanupResultStep[] } | undefined)?.steps
      : undefined;

  return (
    <section aria-labelledby="leftovers-title" className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href={`/operators?namespace=${encodeURIComponent(namespace)}`}>
          Installed Operators
        </Link>{' '}
        / What is left
      </nav>
      <h1 id="leftovers-title" className="text-2xl font-bold">
        What is left of {l?.displayName || csv || subscription} in {namespace}
      </h1>
      {left.error && (
        <ErrorPanel
          level={2}
          error={left.error}
          title="What is left could not be read"
          onRetry={() => void left.refetch()}
          back={[
            {
              href: `/operators?namespace=${encodeURIComponent(namespace)}`,
              label: `Installed Operators in ${namespace}`,
            },
          ]}
        />
      )}
      {!l && !left.error && <p role="status">Reading what is left…</p>}
      {l && l.empty && (
        <p role="status" className="rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-900">
          Nothing of this operator is left in {namespace}.
        </p>
      )}
      {l && !l.empty && (
        <>
          <p className="text-sm text-slate-700">
            Choose what to clean up. Nothing is deleted before you have seen the exact steps. CRDs, their instances and
            the OperatorGroup are never removed by OLM; choose them only if nothing else needs them.
          </p>
          <ul aria-label="What is left" className="rounded border border-slate-200 bg-white px-3">
            {l.parts.map((p) => (
              <PartRow key={p.id} part={p} checked={chosen.includes(p.id)} onChange={(v) => toggle(p.id, v)} />
            ))}
          </ul>
          {l.notes.map((n) => (
            <p key={n} className="text-sm text-amber-800">
              {n}
            </p>
          ))}
          <div className="flex gap-3">
            <button
              type="button"
              disabled={chosen.length === 0 || plan.isPending}
              onClick={() => plan.mutate(chosen)}
              className="rounded border border-sky-700 px-4 py-1.5 font-semibold text-sky-800 disabled:border-slate-200 disabled:text-slate-400"
            >
              Preview the cleanup
            </button>
          </div>
        </>
      )}
      {plan.error && <ErrorNotice error={plan.error} what="The cleanup could not be planned" />}
      {previewed && (
        <section
          aria-labelledby="cleanup-preview-title"
          className="space-y-2 rounded border border-red-200 bg-red-50/40 p-4 text-sm"
        >
          <h2 id="cleanup-preview-title" className="text-lg font-semibold">
            The cleanup, step by step
          </h2>
          {previewed.added.length > 0 && (
            <p>Also included: {previewed.added.map((a) => `${a.part.replace(':', ' ')} (${a.because})`).join('; ')}.</p>
          )}
          {previewed.blockers.length > 0 && (
            <ul role="alert" className="list-disc pl-5 text-red-900">
              {previewed.blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          )}
          {previewed.steps.length > 0 && (
            <ol aria-label="Cleanup steps" className="list-decimal pl-5">
              {previewed.steps.map((s) => (
                <li key={s.key}>
                  <strong>
                    {s.action === 'delete'
                      ? 'Delete'
                      : `Remove finalizer${(s.finalizers?.length ?? 0) > 1 ? 's' : ''} ${s.finalizers?.join(', ')} from`}{' '}
                    {s.kind} {s.namespace ? `${s.namespace}/` : ''}
                    {s.name}
                  </strong>
                  : {s.why}
                </li>
              ))}
            </ol>
          )}
          {previewed.notes.length > 0 && (
            <ul className="list-disc pl-5 text-slate-700">
              {previewed.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
          <button
            type="button"
            disabled={previewed.blockers.length > 0 || previewed.steps.length === 0 || apply.isPending}
            onClick={() => apply.mutate({ parts: previewed.chosen, seen: previewed.steps.map((s) => s.key) })}
            className="rounded bg-red-700 px-4 py-1.5 font-semibold text-white disabled:bg-slate-300"
          >
            {apply.isPending
              ? 'Cleaning up…'
              : `Clean up (${previewed.steps.length} step${previewed.steps.length === 1 ? '' : 's'})`}
          </button>
        </section>
      )}
      {apply.data && <CleanupResult title="Cleaned up" steps={apply.data.steps} />}
      {apply.error && (
        <div className="space-y-2">
          <ErrorNotice error={apply.error} what="The cleanup stopped" />
          {failedSteps && <CleanupResult title="Where it stopped" steps={failedSteps} />}
        </div>
      )}
    </section>
  );
}
