'use client';
// Moving one operator of a shared plan to a namespace of its own: the namespace chosen, the move
// planned by the server (what is made there, what goes here, the Subscription there, what blocks
// it), then applied as the person, with each step's outcome and the way to the install there.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useDeferredValue, useState } from 'react';
import { apiWrite } from '@/lib/client/api';
import type { MovePlan } from '@/lib/olm/install/move';
import { ErrorNotice, Warning } from '../common/notice';

const dnsOk = (n: string) => /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n) && n.length <= 63;

export type MoveResult = {
  subscription: { namespace: string; name: string };
  steps: { step: string; outcome: string; message?: string }[];
};

/** Where a move stands, kept by the page: the move deletes the plan the page shows, and the
 * page may stop showing this form (plan gone, or no longer shared) before the answer comes. */
export type MoveState =
  | { subscription: string; to: string; state: 'moving' }
  | { subscription: string; to: string; state: 'moved'; result: MoveResult }
  | { subscription: string; to: string; state: 'failed'; error: Error };

/** What a move did, step by step, and the way to the install in its new namespace. */
export function MoveOutcome({ move }: { move: MoveState }) {
  if (move.state === 'moving')
    return (
      <p role="status">
        Moving {move.subscription} to {move.to}…
      </p>
    );
  if (move.state === 'failed') return <ErrorNotice error={move.error} what="The move failed" />;
  const r = move.result;
  return (
    <div role="status" className="space-y-1 rounded border border-emerald-300 bg-emerald-50 p-3">
      <p className="font-semibold">
        Moved: {move.subscription} is now subscribed in {r.subscription.namespace}.
      </p>
      <ul className="list-disc pl-5">
        {r.steps.map((s) => (
          <li key={s.step}>
            {s.step}: {s.outcome}
            {s.message ? ` (${s.message})` : ''}
          </li>
        ))}
      </ul>
      <Link
        className="text-sky-700 underline"
        href={`/installs/${encodeURIComponent(r.subscription.namespace)}/${encodeURIComponent(r.subscription.name)}`}
      >
        Follow the install in {r.subscription.namespace}
      </Link>
    </div>
  );
}

export function MoveOperator({
  namespace,
  subscription,
  onCancel,
  onMove,
}: {
  namespace: string;
  subscription: string;
  onCancel: () => void;
  /** Told of each change of the move's state, so the page can show it once this form is gone. */
  onMove: (m: MoveState) => void;
}) {
  const [to, setTo] = useState(`${subscription}-operator`.slice(0, 63));
  const target = useDeferredValue(to);
  const base = `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(subscription)}/move`;
  const plan = useQuery({
    queryKey: ['move-plan', namespace, subscription, target],
    queryFn: () => apiWrite<MovePlan>(`${base}/plan`, 'POST', { to: target }),
    enabled: dnsOk(target),
    placeholderData: (prev) => prev,
  });
  // The options' callbacks (not mutate's) still run when this form is gone before the answer.
  const move = useMutation({
    mutationFn: (dest: string) => apiWrite<MoveResult>(base, 'POST', { to: dest }),
    onMutate: (dest) => onMove({ subscription, to: dest, state: 'moving' }),
    onSuccess: (result, dest) => onMove({ subscription, to: dest, state: 'moved', result }),
    onError: (error, dest) => onMove({ subscription, to: dest, state: 'failed', error }),
  });
  const p = plan.data && plan.data.to === to ? plan.data : undefined;
  return (
    <section
      aria-label={`Move ${subscription} to its own namespace`}
      className="space-y-3 rounded border border-slate-300 bg-white p-3"
    >
      <h3 className="font-semibold">Move {subscription} to a namespace of its own</h3>
      <label className="flex max-w-md flex-col">
        <span className="font-medium">New namespace</span>
        <input
          value={to}
          onChange={(e) => setTo(e.target.value.trim())}
          aria-invalid={!dnsOk(to)}
          className="rounded border border-slate-300 px-2 py-1.5"
        />
        {!dnsOk(to) && (
          <span className="mt-1 text-xs text-red-800">
            A namespace name is lowercase letters, digits and &quot;-&quot;, at most 63 characters.
          </span>
        )}
      </label>
      {plan.error && <ErrorNotice error={plan.error} what="The move could not be planned" />}
      {dnsOk(to) && !p && !plan.error && <p role="status">Planning…</p>}
      {p && (
        <>
          <ol aria-label="Move steps" className="list-decimal space-y-0.5 pl-5">
            {p.objects.map((o) => (
              <li key={`${o.kind}/${o.name}`}>
                {o.action === 'create' ? 'Create' : 'Use'} {o.kind} {o.namespace ? `${o.namespace}/` : ''}
                {o.name}
                {o.kind === 'OperatorGroup'
                  ? ` (watching ${p.targets[0] === '' ? 'all namespaces' : p.targets.join(', ')})`
                  : ''}
              </li>
            ))}
            {p.deletes.map((d) => (
              <li key={d.name}>
                Delete {d.kind} {p.from}/{d.name}
              </li>
            ))}
            {p.subscription && (
              <li>
                Create Subscription {p.to}/{p.subscription.metadata?.name} (channel {p.subscription.spec.channel},{' '}
                {p.subscription.spec.installPlanApproval ?? 'Automatic'} approval
                {p.subscription.spec.startingCSV ? `, starting at ${p.subscription.spec.startingCSV}` : ''})
              </li>
            )}
          </ol>
          {p.warnings.length > 0 && (
            <Warning title="What happens">
              <ul className="list-disc space-y-1 pl-5">
                {p.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Warning>
          )}
          {p.blockers.length > 0 && (
            <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
              <p className="font-semibold">The move cannot go ahead</p>
              <ul className="list-disc pl-5">
                {p.blockers.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || p.blockers.length > 0 || move.isPending}
          onClick={() => move.mutate(to)}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {move.isPending ? 'Moving…' : `Move to ${to}`}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
      </div>
    </section>
  );
}
