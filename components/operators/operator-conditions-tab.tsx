'use client';
// The Conditions tab of an installed operator: its OperatorCondition, each condition with its
// source (the operator's own, or an administrator's override that OLM goes by instead), what OLM
// decides about upgrades, and Override / Remove override (operator-conditions-override.tsx),
// disabled with the cluster's reason for people who may not patch OperatorConditions. Live.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { OperatorConditionRow, OperatorConditionView } from '@/lib/api/operator-conditions';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { OverrideForm, OverridePlanPanel, type OverrideRequestBody } from './operator-conditions-override';

function SourceBadge({ row }: { row: OperatorConditionRow }) {
  return row.effective.source === 'override' ? (
    <Badge
      tone="warning"
      title="An administrator set this in spec.overrides; OLM goes by it instead of the operator's own condition"
    >
      Override
    </Badge>
  ) : (
    <Badge
      tone="info"
      title={
        row.operator?.from === 'spec'
          ? 'The operator wrote it in spec.conditions; OLM has not copied it into the status yet'
          : 'The operator reported it (spec.conditions, copied by OLM into status.conditions)'
      }
    >
      Operator
    </Badge>
  );
}

function Verdict({ view }: { view: OperatorConditionView }) {
  const u = view.upgrade;
  if (!u) return null;
  const reason =
    u.decidedBy === 'override'
      ? "Decided by an administrator's override."
      : u.decidedBy === 'operator'
        ? "Decided by the operator's own Upgradeable condition."
        : 'The operator reports no Upgradeable condition and there is no override, so nothing holds upgrades back.';
  return (
    <p
      aria-label="Upgrade verdict"
      className={`rounded border px-3 py-2 text-sm ${u.blocked ? 'border-amber-300 bg-amber-50' : 'border-emerald-200 bg-emerald-50'}`}
    >
      <Badge tone={u.blocked ? 'warning' : 'ok'}>{u.blocked ? 'Upgrades held back' : 'Upgrades allowed'}</Badge>{' '}
      {reason}
      {u.blocked && u.message ? ` A new version would wait Pending with OLM's message “${u.message}”.` : ''}
    </p>
  );
}

export function OperatorConditionsTab({
  namespace,
  name,
  copiedFrom,
}: {
  namespace: string;
  name: string;
  copiedFrom?: string;
}) {
  const key = ['operator', namespace, name, 'conditions'];
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<OperatorConditionView>(
        `/api/operatorconditions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
        signal,
      ),
    enabled: !copiedFrom,
  });
  const view = q.data;
  const live = useLiveRefresh(key, namespace, ['operatorconditions'], view?.state === 'present');
  const [editing, setEditing] = useState<{ type?: string } | null>(null);
  const [review, setReview] = useState<OverrideRequestBody | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (copiedFrom) {
    return (
      <p className="text-sm text-slate-600">
        A copy has no OperatorCondition: OLM keeps one for the operator itself, in{' '}
        <Link
          className="text-sky-700 underline"
          href={`/operators/${encodeURIComponent(copiedFrom)}/${encodeURIComponent(name)}?tab=conditions`}
        >
          {copiedFrom}
        </Link>
        .
      </p>
    );
  }
  if (q.error) {
    return (
      <ErrorPanel
        level={2}
        error={q.error}
        title={`OperatorCondition ${name} could not be read`}
        onRetry={() => void q.refetch()}
      />
    );
  }
  if (!view) return <p role="status">Reading the OperatorCondition…</p>;

  const denied = view.canOverride.allowed
    ? undefined
    : `You may not override conditions in ${namespace}: ${view.canOverride.reason ?? 'the cluster refused'}`;
  const busy = !!editing || !!review;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        The operator tells OLM about itself in its OperatorCondition{' '}
        <code>
          {namespace}/{name}
        </code>{' '}
        (<code>spec.conditions</code>); an administrator can override a condition (<code>spec.overrides</code>), and OLM
        then goes by the override, not by the operator. OLM acts on <strong>Upgradeable</strong> only: while it is
        False, OLM does not upgrade this operator.
      </p>
      <LiveNotice state={live} inline={false} className="text-sm text-amber-800" />
      {view.state === 'absent' && <p className="text-sm text-slate-600">{view.message}.</p>}
      {view.state === 'forbidden' && (
        <p role="note" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
          You may not read this OperatorCondition: {view.message}
        </p>
      )}
      {view.state === 'present' && (
        <>
          <Verdict view={view} />
          {view.rows.length === 0 ? (
            <p className="text-sm text-slate-600">
              The operator reports no conditions, and there is no override: OLM upgrades it when a new version is
              available.
            </p>
          ) : (
            <StackedTable
              label="Operator conditions"
              columns={[
                'Type',
                'Status',
                'Source',
                'Reason',
                'Message',
                'Last transition',
                { label: 'Actions', hidden: true },
              ]}
            >
              {view.rows.map((r) => (
                <StackedRow key={r.type}>
                  <StackedCell label="Type" className="font-medium">
                    {r.type}
                    {!r.actedOn && (
                      <span className="block text-xs font-normal text-slate-500">not acted on by OLM</span>
                    )}
                  </StackedCell>
                  <StackedCell label="Status">{r.effective.status}</StackedCell>
                  <StackedCell label="Source">
                    <SourceBadge row={r} />
                  </StackedCell>
                  <StackedCell label="Reason">{r.effective.reason}</StackedCell>
                  <StackedCell label="Message">
                    {r.effective.message}
                    {r.override && r.operator && (
                      <span className="mt-1 block text-xs text-slate-600">
                        Overridden: the operator says {r.operator.status}
                        {r.operator.reason
                          ? ` (${r.operator.reason}${r.operator.message ? `: ${r.operator.message}` : ''})`
                          : ''}
                        .
                      </span>
                    )}
                    {!r.override && r.operator?.outdated && (
                      <span className="mt-1 block text-xs text-amber-800">
                        OLM has not read the operator&apos;s latest change yet; until it does, this holds upgrades back.
                      </span>
                    )}
                  </StackedCell>
                  <StackedCell label="Last transition" className="text-xs text-slate-600">
                    {r.effective.lastTransitionTime ? <RelativeTime iso={r.effective.lastTransitionTime} /> : ''}
                  </StackedCell>
                  <StackedCell>
                    {r.override && (
                      <button
                        type="button"
                        disabled={!!denied || busy}
                        title={denied}
                        onClick={() => {
                          setDone(null);
                          setReview({
                            action: 'remove',
                            type: r.type,
                            seen: {
                              status: r.override!.status,
                              reason: r.override!.reason,
                              message: r.override!.message,
                            },
                          });
                        }}
                        className="rounded border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400"
                      >
                        Remove override
                      </button>
                    )}
                  </StackedCell>
                </StackedRow>
              ))}
            </StackedTable>
          )}
        </>
      )}

      <div className="space-y-1">
        <button
          type="button"
          disabled={!!denied || busy || view.state === 'absent'}
          aria-describedby={denied ? 'override-denied' : undefined}
          onClick={() => {
            setDone(null);
            setEditing({});
          }}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
        >
          Override a condition
        </button>
        {denied && (
          <p id="override-denied" className="text-sm text-slate-600">
            {denied}
          </p>
        )}
      </div>
      {done && (
        <p role="status" className="text-sm text-emerald-800">
          {done}
        </p>
      )}
      {editing && !review && view.state === 'present' && (
        <OverrideForm view={view} onCancel={() => setEditing(null)} onPreview={(body) => setReview(body)} />
      )}
      {review && (
        <OverridePlanPanel
          namespace={namespace}
          name={name}
          request={review}
          onCancel={() => setReview(null)}
          onDone={(text) => {
            setReview(null);
            setEditing(null);
            setDone(text);
            void q.refetch();
          }}
        />
      )}
    </div>
  );
}
