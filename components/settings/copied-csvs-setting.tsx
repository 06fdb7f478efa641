'use client';
// OLMConfig `disableCopiedCSVs`: the setting as a switch named for what it does, "Copied CSVs", on
// when OLM copies (the field's double negative stays out of the label; disabled with the cluster's reason for
// people who may not update OLMConfig), its DisabledCopiedCSVs condition in words, and, before
// anyone switches, the effect counted now: how many Copied CSVs go, or come back. Switching is plan
// then apply: the server's plan (effect, warnings, the exact change), then the update as the
// person; the condition then follows live as OLM acts.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { CopiedCsvEffect, OlmConfigApplied, OlmConfigPlan, OlmConfigView } from '@/lib/api/olm-config';
import { apiWrite } from '@/lib/client/api';
import { Badge } from '../common/badges';
import { ErrorNotice, Warning } from '../common/notice';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { YamlBlock } from '../common/yaml-block';
import { FACTS_GRID } from '../common/facts-grid';

const STATE_TONE: Record<OlmConfigView['explanation']['state'], string> = {
  enabled: 'ok',
  disabled: 'ok',
  disabling: 'progressing',
  restoring: 'progressing',
  pending: 'neutral',
};

function EffectCounts({ effect }: { effect: CopiedCsvEffect }) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        Copied CSVs in the cluster now: <strong>{effect.present}</strong> ({effect.ofAllNamespacesOperators} of
        operators installed for all namespaces, {effect.unaffected} of operators watching chosen namespaces, which this
        setting does not touch){effect.namespaceCount !== undefined ? `; ${effect.namespaceCount} namespaces` : ''}.
      </p>
      {effect.operators.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sky-700">
            Operators installed for all namespaces ({effect.operators.length})
          </summary>
          <ul className="mt-1 list-disc pl-5">
            {effect.operators.map((o) => (
              <li key={`${o.namespace}/${o.name}`}>
                <Link
                  className="text-sky-700 underline"
                  href={`/operators/${encodeURIComponent(o.namespace)}/${encodeURIComponent(o.name)}`}
                >
                  {o.namespace}/{o.name}
                </Link>
                : {o.copies} {o.copies === 1 ? 'copy' : 'copies'}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function effectHeadline(effect: CopiedCsvEffect): string {
  if (effect.disableCopiedCSVs)
    return `Turning copied CSVs off removes ${effect.removes ?? 0} copied CSV${effect.removes === 1 ? '' : 's'}`;
  return effect.restores === undefined
    ? 'Turning copied CSVs on brings copies back into every namespace'
    : `Turning copied CSVs on brings back ${effect.restores} copied CSV${effect.restores === 1 ? '' : 's'}`;
}

function PlanPanel({
  view,
  to,
  onCancel,
  onApplied,
}: {
  view: OlmConfigView;
  to: boolean;
  onCancel: () => void;
  onApplied: (res: OlmConfigApplied) => void;
}) {
  const plan = useQuery({
    queryKey: ['olmconfig-plan', to],
    queryFn: () => apiWrite<OlmConfigPlan>('/api/olmconfig/plan', 'POST', { disableCopiedCSVs: to }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () =>
      apiWrite<OlmConfigApplied>('/api/olmconfig', 'PATCH', { disableCopiedCSVs: to, seen: view.disableCopiedCSVs }),
    onSuccess: onApplied,
  });
  const p = plan.data;
  return (
    <section aria-labelledby="copied-plan-title" className="space-y-3 rounded-lg border border-slate-300 bg-white p-4">
      <h3 id="copied-plan-title" className="font-semibold">
        Review: turn copied CSVs {to ? 'off' : 'on'}
      </h3>
      {plan.error && <ErrorNotice error={plan.error} what="The change could not be planned" />}
      {!p && !plan.error && <p role="status">Counting the copies…</p>}
      {p && (
        <>
          {p.effect ? (
            <div
              aria-label="Effect of the change"
              className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm"
            >
              <p className="font-semibold">{effectHeadline(p.effect)}</p>
              <p>{p.effect.summary}</p>
            </div>
          ) : (
            <p className="text-sm text-amber-800">{p.effectProblem}</p>
          )}
          <Warning title={p.noChange ? 'Nothing to change' : 'Before you switch'}>
            <ul className="list-disc space-y-1 pl-5">
              {p.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Warning>
          {!p.noChange && (
            <>
              <p className="text-sm text-slate-700">
                Sent to the cluster as you: an update of OLMConfig cluster at the resourceVersion just read, changing
                only
              </p>
              <YamlBlock object={p.change} label="OLMConfig change" />
            </>
          )}
        </>
      )}
      {apply.error && <ErrorNotice error={apply.error} what="OLMConfig was not changed" />}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || p.noChange || apply.isPending}
          onClick={() => apply.mutate()}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {apply.isPending ? 'Applying…' : `Turn copied CSVs ${to ? 'off' : 'on'}`}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
      </div>
    </section>
  );
}

export function CopiedCsvsSetting({ view, onChanged }: { view: OlmConfigView; onChanged: () => void }) {
  const [reviewing, setReviewing] = useState<boolean | null>(null);
  const [applied, setApplied] = useState<string | null>(null);
  const denied = view.canChange.allowed
    ? undefined
    : `You may not change OLM's cluster settings: ${view.canChange.reason ?? 'the cluster refused'}`;
  const off = view.disableCopiedCSVs;
  const switchState =
    view.state === 'forbidden'
      ? { word: 'unknown', effect: 'The setting cannot be read.' }
      : off
        ? { word: 'Off', effect: 'Operators installed for all namespaces are listed only where they are installed.' }
        : { word: 'On', effect: 'Operators installed for all namespaces are listed in every namespace.' };
  const c = view.condition;
  return (
    <section aria-labelledby="copied-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
      <div>
        <h2 id="copied-title" className="text-lg font-semibold">
          Copied CSVs
        </h2>
        <p className="text-sm text-slate-700">
          OLM copies the ClusterServiceVersion of an operator into every namespace it watches, so that people there see
          it listed. For operators installed for all namespaces that is one copy per namespace;{' '}
          <code>spec.features.disableCopiedCSVs</code> turns those copies off. The operators keep watching every
          namespace; operators watching chosen namespaces keep their copies.
        </p>
      </div>

      {view.state !== 'present' && (
        <p role="note" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
          {view.state === 'forbidden'
            ? `You may not read OLMConfig cluster: ${view.message ?? ''}`
            : `${view.message}.`}
        </p>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          // A switch whose state cannot be read is no switch: a disabled button with the reason.
          role={view.state === 'forbidden' ? undefined : 'switch'}
          aria-checked={view.state === 'forbidden' ? undefined : !off}
          aria-labelledby="copied-switch-label"
          aria-describedby={denied ? 'copied-denied' : undefined}
          disabled={!!denied || view.state !== 'present' || reviewing !== null}
          onClick={() => {
            setApplied(null);
            setReviewing(!off);
          }}
          className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-50 ${off ? 'bg-slate-500' : 'bg-sky-700'}`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${off ? 'translate-x-0.5' : 'translate-x-5'}`}
          />
        </button>
        <span className="text-sm">
          <span id="copied-switch-label" className="font-medium">
            Copied CSVs
          </span>
          : <strong>{switchState.word}</strong>
          <span className="block text-slate-600">{switchState.effect}</span>
        </span>
      </div>
      {denied && (
        <p id="copied-denied" className="text-sm text-slate-600">
          {denied}
        </p>
      )}

      {view.state !== 'forbidden' && (
        <dl className={`${FACTS_GRID.medium} text-sm`}>
          <dt className="text-slate-600">Where OLM is</dt>
          <dd>
            <Badge tone={STATE_TONE[view.explanation.state]}>{view.explanation.state}</Badge> {view.explanation.text}
          </dd>
          <dt className="text-slate-600">Condition</dt>
          <dd aria-label="DisabledCopiedCSVs condition">
            {c ? (
              <>
                <strong>DisabledCopiedCSVs={c.status}</strong> ({c.reason}): {c.message}
                {c.lastTransitionTime && (
                  <span className="block text-xs text-slate-600">
                    since <RelativeTime iso={c.lastTransitionTime} />
                  </span>
                )}
              </>
            ) : (
              'not reported yet'
            )}
          </dd>
        </dl>
      )}

      {view.effect && (
        <div className="space-y-2">
          <EffectCounts effect={view.effect} />
          <p aria-label="Effect of switching" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
            <strong>{effectHeadline(view.effect)}.</strong> {view.effect.summary}
          </p>
        </div>
      )}
      {view.effectProblem && <p className="text-sm text-amber-800">{view.effectProblem}.</p>}

      {reviewing !== null && (
        <PlanPanel
          view={view}
          to={reviewing}
          onCancel={() => setReviewing(null)}
          onApplied={(res) => {
            setReviewing(null);
            setApplied(
              `Applied as you: disableCopiedCSVs is ${res.plan.disableCopiedCSVs}. OLM is acting on it; the condition above follows live.`,
            );
            onChanged();
          }}
        />
      )}
      {applied && (
        <p role="status" className="text-sm text-emerald-800">
          {applied}
        </p>
      )}

      <section aria-labelledby="copied-events-title" className="space-y-1">
        <h3 id="copied-events-title" className="font-semibold">
          DisabledCopiedCSVs events
        </h3>
        {!view.events ? (
          <p className="text-sm text-slate-600">You may not list events cluster-wide.</p>
        ) : view.events.count === 0 ? (
          <p className="text-sm text-slate-600">
            None: OLM records one on each operator whose copies it removed, and deletes it when copies come back.
          </p>
        ) : (
          <StackedTable label="DisabledCopiedCSVs events" columns={['Operator', 'Type', 'Message', 'Last seen']}>
            {view.events.items.map((e) => (
              <StackedRow key={`${e.namespace}/${e.csv}/${e.lastTimestamp ?? ''}`}>
                <StackedCell label="Operator">
                  {e.namespace}/{e.csv}
                </StackedCell>
                <StackedCell label="Type">{e.type}</StackedCell>
                <StackedCell label="Message">{e.message}</StackedCell>
                <StackedCell label="Last seen" className="text-xs text-slate-600">
                  {e.lastTimestamp ? <RelativeTime iso={e.lastTimestamp} /> : ''}
                </StackedCell>
              </StackedRow>
            ))}
          </StackedTable>
        )}
        {view.events && view.events.count > view.events.items.length && (
          <p className="text-xs text-slate-600">
            Showing the latest {view.events.items.length} of {view.events.count}.
          </p>
        )}
      </section>
    </section>
  );
}
