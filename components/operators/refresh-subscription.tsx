'use client';
// "Refresh the Subscription", for one OLM has stopped moving (a failed InstallPlan, a failed bundle
// unpack, a failed resolution): the documented repair, planned first — why it fails in OLM's words,
// each deletion (failed plans, unpack Job and ConfigMap, the CSV; CRDs and instances stay) and the
// same Subscription made again —, then applied as the person.
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiWrite } from '@/lib/client/api';
import type { RefreshView } from '@/lib/api/resubscribe';
import type { ResubscribeResult } from '@/lib/api/resubscribe';
import { ErrorNotice } from '../common/notice';

export function RefreshSubscription({
  namespace,
  name,
  onDone,
}: {
  namespace: string;
  name: string;
  onDone: () => void;
}) {
  const url = `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/refresh`;
  const q = useQuery({
    queryKey: ['refresh', namespace, name],
    queryFn: () => apiWrite<RefreshView>(`${url}/plan`, 'POST', {}),
  });
  const apply = useMutation({ mutationFn: () => apiWrite<ResubscribeResult>(url, 'POST'), onSuccess: onDone });
  const p = q.data?.plan;
  if (q.error) return <ErrorNotice error={q.error} what="The repair could not be planned" />;
  if (!p || !p.failing.length) return null;
  return (
    <section aria-labelledby="refresh-title" className="space-y-2 rounded border border-red-200 bg-white p-4 text-sm">
      <h2 id="refresh-title" className="text-lg font-semibold">
        Refresh the Subscription
      </h2>
      <p>
        {p.retriedByOlm
          ? 'OLM resolves the namespace again whenever its Subscriptions, operators or catalogs change, ' +
            'so this may clear by itself:'
          : 'OLM does not retry this by itself:'}
      </p>
      <ul className="list-disc pl-5 text-red-900">
        {p.failing.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <p>
        {p.retriedByOlm
          ? 'If it stays, the documented repair, once the cause is fixed (a catalog that answers, a version it has):'
          : 'The documented repair, once the cause is fixed (an image that can be pulled, a catalog that answers):'}
      </p>
      <ol aria-label="Repair steps" className="list-decimal pl-5">
        {p.steps.map((s) => (
          <li key={`${s.action}-${s.kind}-${s.name}`}>
            <strong>
              {s.action === 'delete' ? 'Delete' : 'Create'} {s.kind} {s.namespace}/{s.name}
            </strong>
            : {s.why}
          </li>
        ))}
      </ol>
      {p.notes.length > 0 && (
        <ul className="list-disc pl-5 text-slate-700">
          {p.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {p.blockers.length > 0 && (
        <ul className="list-disc pl-5 text-slate-700">
          {p.blockers.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      )}
      {!apply.isSuccess && (
        <button
          type="button"
          disabled={p.blockers.length > 0 || apply.isPending}
          onClick={() => apply.mutate()}
          className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {apply.isPending ? 'Refreshing…' : 'Refresh the Subscription'}
        </button>
      )}
      {apply.data && (
        <p role="status" className="text-emerald-800">
          Refreshed: {apply.data.steps.map((s) => `${s.step} (${s.outcome})`).join('; ')}. OLM resolves it afresh.
        </p>
      )}
      {apply.error && <ErrorNotice error={apply.error} what="The refresh did not complete" />}
    </section>
  );
}
