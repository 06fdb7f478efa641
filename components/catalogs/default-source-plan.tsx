'use client';
// One switch of OperatorHub `cluster`, reviewed before it is applied: the server's plan (each
// default source whose state changes, what the marketplace operator then does to its
// CatalogSource, the Subscriptions that install from it, the exact merge patch), then the update as
// the person at the resourceVersion the page loaded.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { HubSwitch, OperatorHubApplied, OperatorHubPlan } from '@/lib/api/operator-hub';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice, Warning } from '../common/notice';
import { YamlBlock } from '../common/yaml-block';

export function switchTitle(sw: HubSwitch): string {
  return sw.kind === 'all'
    ? `${sw.disabled ? 'Disable' : 'Enable'} all default sources`
    : `${sw.disabled ? 'Disable' : 'Enable'} ${sw.name}`;
}

export function DefaultSourcePlan({
  change,
  seen,
  onCancel,
  onApplied,
}: {
  change: HubSwitch;
  seen: string;
  onCancel: () => void;
  onApplied: (res: OperatorHubApplied) => void;
}) {
  const plan = useQuery({
    queryKey: ['operatorhub-plan', change, seen],
    queryFn: () => apiWrite<OperatorHubPlan>('/api/operatorhub/plan', 'POST', { change }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => apiWrite<OperatorHubApplied>('/api/operatorhub', 'PATCH', { change, seen }),
    onSuccess: onApplied,
  });
  const p = plan.data;
  const title = switchTitle(change);
  return (
    <section aria-label={`Review: ${title}`} className="space-y-3 rounded border border-slate-300 bg-slate-50 p-3">
      <h3 className="font-semibold">Review: {title}</h3>
      {plan.error && <ErrorNotice error={plan.error} what="The change could not be planned" />}
      {!p && !plan.error && <p role="status">Finding the Subscriptions that depend on it…</p>}
      {p && (
        <>
          {p.effects.length > 0 && (
            <ul aria-label="What the marketplace operator does" className="space-y-2 text-sm">
              {p.effects.map((e) => (
                <li
                  key={e.name}
                  className={`rounded border px-3 py-2 ${e.catalogSource === 'deleted' ? 'border-red-200 bg-red-50' : 'border-sky-200 bg-sky-50'}`}
                >
                  <p>{e.text}</p>
                  {e.subscriptions.length > 0 && (
                    <ul aria-label={`Subscriptions from ${e.name}`} className="mt-1 list-disc pl-5">
                      {e.subscriptions.map((s) => (
                        <li key={`${s.namespace}/${s.name}`}>
                          <Link
                            className="text-sky-700 underline"
                            href={`/installs/${encodeURIComponent(s.namespace)}/${encodeURIComponent(s.name)}`}
                          >
                            {s.namespace}/{s.name}
                          </Link>{' '}
                          ({s.package})
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
          {p.warnings.length > 0 && (
            <Warning title={p.noChange ? 'Nothing changes' : 'Also'}>
              <ul className="list-disc space-y-1 pl-5">
                {p.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Warning>
          )}
          {!p.allowed.allowed && <p className="text-sm text-red-900">You may not change it: {p.allowed.reason}</p>}
          <p className="text-sm text-slate-700">
            Sent to the cluster as you: an update of OperatorHub cluster at the resourceVersion you loaded ({seen}), its
            spec changed as this merge patch says:
          </p>
          <YamlBlock object={p.patch} label="OperatorHub change" />
        </>
      )}
      {apply.error && <ErrorNotice error={apply.error} what="OperatorHub was not changed" />}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || p.noChange || !p.allowed.allowed || apply.isPending}
          onClick={() => apply.mutate()}
          className={`rounded px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600 ${p?.effects.some((e) => e.catalogSource === 'deleted') ? 'bg-red-700' : 'bg-sky-700'}`}
        >
          {apply.isPending ? 'Applying…' : title}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
      </div>
    </section>
  );
}
