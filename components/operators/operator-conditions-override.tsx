'use client';
// Overriding an operator's condition, plan then apply: the form (type, status, reason, message,
// with the warning of what an Upgradeable=True override bypasses), then the plan from the server
// (what OLM will decide, what the override bypasses, the exact merge patch sent as the person),
// then the write. Also used to remove an override.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { OperatorConditionView, OverrideApplied, OverridePlan } from '@/lib/api/operator-conditions';
import { apiWrite } from '@/lib/client/api';
import {
  CONDITION_REASON_PATTERN,
  UPGRADEABLE,
  type ConditionStatus,
  type SeenOverride,
} from '@/lib/olm/resources/operator-condition-overrides';
import { Badge } from '../common/badges';
import { ErrorNotice, Warning } from '../common/notice';
import { YamlBlock } from '../common/yaml-block';

export type OverrideRequestBody =
  | { action: 'set'; type: string; status: ConditionStatus; reason: string; message: string; seen: SeenOverride }
  | { action: 'remove'; type: string; seen: SeenOverride };

const STATUSES: ConditionStatus[] = ['True', 'False', 'Unknown'];

export function OverrideForm({
  view,
  onCancel,
  onPreview,
}: {
  view: OperatorConditionView;
  onCancel: () => void;
  onPreview: (body: OverrideRequestBody) => void;
}) {
  const [type, setType] = useState(UPGRADEABLE);
  const [status, setStatus] = useState<ConditionStatus>('True');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState('');
  const row = view.rows.find((r) => r.type === type.trim());
  const operatorSays = row?.operator;
  const reasonBad = reason !== '' && !CONDITION_REASON_PATTERN.test(reason);
  const types = [...new Set([UPGRADEABLE, ...view.rows.map((r) => r.type)])];
  return (
    <form
      aria-label="Override a condition"
      className="space-y-3 rounded-lg border border-slate-300 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        const o = row?.override;
        onPreview({
          action: 'set',
          type: type.trim(),
          status,
          reason: reason.trim(),
          message,
          seen: o ? { status: o.status, reason: o.reason, message: o.message } : null,
        });
      }}
    >
      <h3 className="font-semibold">Override a condition</h3>
      <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
        <label htmlFor="override-type" className="text-sm font-medium text-slate-700">
          Condition type
        </label>
        <div>
          <input
            id="override-type"
            list="override-types"
            value={type}
            onChange={(e) => setType(e.target.value)}
            required
            className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
          />
          <datalist id="override-types">
            {types.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          {operatorSays && (
            <p className="mt-1 text-xs text-slate-600">
              The operator says {operatorSays.status}
              {operatorSays.reason
                ? ` (${operatorSays.reason}${operatorSays.message ? `: ${operatorSays.message}` : ''})`
                : ''}
              .
            </p>
          )}
          {type.trim() !== UPGRADEABLE && type.trim() !== '' && (
            <p className="mt-1 text-xs text-slate-600">
              OLM acts only on Upgradeable; an override of another type is recorded, nothing more.
            </p>
          )}
        </div>
        <span className="text-sm font-medium text-slate-700" id="override-status-label">
          Status
        </span>
        <div role="radiogroup" aria-labelledby="override-status-label" className="flex gap-4 text-sm">
          {STATUSES.map((s) => (
            <label key={s} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="override-status"
                value={s}
                checked={status === s}
                onChange={() => setStatus(s)}
              />{' '}
              {s}
            </label>
          ))}
        </div>
        <label htmlFor="override-reason" className="text-sm font-medium text-slate-700">
          Reason
        </label>
        <div>
          <input
            id="override-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            placeholder="KnownIssue"
            aria-invalid={reasonBad}
            aria-describedby="override-reason-hint"
            className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
          />
          <p id="override-reason-hint" className={`mt-1 text-xs ${reasonBad ? 'text-red-800' : 'text-slate-600'}`}>
            One CamelCase word, as Kubernetes conditions require (letters, digits, &quot;_&quot;, &quot;,&quot;,
            &quot;:&quot;; starting with a letter).
          </p>
        </div>
        <label htmlFor="override-message" className="text-sm font-medium text-slate-700">
          Message
        </label>
        <textarea
          id="override-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          required
          rows={2}
          placeholder="What you know that the operator does not, for whoever reads this later"
          className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
      </div>
      {type.trim() === UPGRADEABLE && status === 'True' && (
        <Warning title="This bypasses the operator's own safety check">
          With an Upgradeable=True override, OLM upgrades this operator even when the operator says an upgrade is not
          safe
          {operatorSays?.status === 'False'
            ? ` — as it does now (${operatorSays.reason ?? 'no reason given'}${operatorSays.message ? `: ${operatorSays.message}` : ''})`
            : ''}
          . OLM stops reading the operator&apos;s Upgradeable condition until you remove the override.
        </Warning>
      )}
      {type.trim() === UPGRADEABLE && status !== 'True' && (
        <Warning title="Upgrades will wait">
          OLM does not upgrade this operator while an Upgradeable override is {status}, whatever the operator says.
        </Warning>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={reasonBad || !reason.trim() || !message.trim() || !type.trim()}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          Preview override
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
      </div>
    </form>
  );
}

function Upgrades({ blocked }: { blocked: boolean }) {
  return <Badge tone={blocked ? 'warning' : 'ok'}>{blocked ? 'held back' : 'allowed'}</Badge>;
}

export function OverridePlanPanel({
  namespace,
  name,
  request,
  onCancel,
  onDone,
}: {
  namespace: string;
  name: string;
  request: OverrideRequestBody;
  onCancel: () => void;
  onDone: (text: string) => void;
}) {
  const base = `/api/operatorconditions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
  const plan = useQuery({
    queryKey: ['override-plan', namespace, name, request],
    queryFn: () => apiWrite<OverridePlan & { resourceVersion?: string }>(`${base}/plan`, 'POST', request),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => apiWrite<OverrideApplied>(base, 'PATCH', request),
    onSuccess: (res) => {
      const row = res.view.rows.find((r) => r.type === request.type);
      onDone(
        request.action === 'set'
          ? `Override set as you: ${request.type} is ${row?.effective.status ?? request.status}, from the override. Upgrades are ${res.view.upgrade?.blocked ? 'held back' : 'allowed'}.`
          : `Override removed as you: OLM goes by the operator's own ${request.type} condition again. Upgrades are ${res.view.upgrade?.blocked ? 'held back' : 'allowed'}.`,
      );
    },
  });
  const p = plan.data;
  const verb = request.action === 'set' ? 'Apply override' : 'Remove override';
  return (
    <section
      aria-labelledby="override-plan-title"
      className="space-y-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <h3 id="override-plan-title" className="font-semibold">
        {request.action === 'set'
          ? `Review: override ${request.type} to ${request.status}`
          : `Review: remove the ${request.type} override`}
      </h3>
      {plan.error && <ErrorNotice error={plan.error} what="The change could not be planned" />}
      {!p && !plan.error && <p role="status">Planning the change…</p>}
      {p && (
        <>
          {p.warnings.length > 0 && (
            <Warning title={p.noChange ? 'Nothing to change' : 'What this does'}>
              <ul className="list-disc space-y-1 pl-5">
                {p.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Warning>
          )}
          {!p.noChange && (
            <>
              <p className="text-sm">
                Upgrades now: <Upgrades blocked={p.upgrade.before.blocked} />, afterwards:{' '}
                <Upgrades blocked={p.upgrade.after.blocked} />
                {p.after
                  ? ` (${p.after.type}=${p.after.effective.status}, from the ${p.after.effective.source === 'override' ? 'override' : 'operator'})`
                  : ''}
                .
              </p>
              <p className="text-sm text-slate-700">
                Sent to the cluster as you: this JSON merge patch of OperatorCondition {namespace}/{name}. It carries
                the resourceVersion the console reads just before writing (shown: the one read for this plan), so
                nothing written meanwhile is overwritten; if someone else changed this override meanwhile, nothing is
                written and you are told.
              </p>
              <YamlBlock
                object={{ metadata: { resourceVersion: p.resourceVersion }, ...p.patch }}
                label="Override patch"
              />
            </>
          )}
        </>
      )}
      {apply.error && (
        <ErrorNotice
          error={apply.error}
          what={request.action === 'set' ? 'The override was not set' : 'The override was not removed'}
        />
      )}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || p.noChange || apply.isPending}
          onClick={() => apply.mutate()}
          className={`rounded px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600 ${request.action === 'set' && request.type === UPGRADEABLE && request.status === 'True' ? 'bg-amber-700' : 'bg-sky-700'}`}
        >
          {apply.isPending ? 'Applying…' : verb}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
      </div>
    </section>
  );
}
