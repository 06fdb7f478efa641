'use client';
// The backend's plan: every object the install creates, reuses or changes (viewable as YAML),
// every warning, and what blocks it.
import { dump } from 'js-yaml';
import { useState } from 'react';
import { describeConfig } from '@/lib/olm/install/operator-config-form';
import type { InstallPlanResult, PlannedObject } from '@/lib/olm/install/plan';

/** What the preview reads of a plan: OLM v1's install plan (lib/olm/v1/install-plan.ts) has the same parts. */
type PreviewedPlan = Pick<InstallPlanResult, 'objects' | 'scoped'> & {
  blockers: { message: string }[];
  warnings: { message: string }[];
};
import type { SubscriptionConfig } from '@/lib/olm/resources/subscription-config';
import { ScopedRights } from './service-account-rights';

const BADGE: Record<PlannedObject['action'], { text: string; style: string }> = {
  create: { text: 'Create', style: 'bg-sky-100 text-sky-900' },
  reuse: { text: 'Use existing', style: 'bg-slate-100 text-slate-700' },
  // Changing an existing cluster-wide object deserves more notice than making a new one.
  patch: { text: 'Change', style: 'bg-amber-100 text-amber-900' },
};

export function PlanPreview({ plan }: { plan: PreviewedPlan }) {
  const [open, setOpen] = useState<string | undefined>();
  return (
    <div className="space-y-3">
      <ol className="space-y-2" aria-label="Objects">
        {plan.objects.map((o) => {
          const key = `${o.kind}/${o.name}`;
          const id = `yaml-${o.kind}-${o.name}`.replace(/[^\w-]/g, '-');
          const labels =
            o.kind === 'Namespace' && o.action === 'create'
              ? (o.object.metadata as { labels?: Record<string, string> } | undefined)?.labels
              : undefined;
          return (
            <li key={key} className="rounded border border-slate-200 bg-white p-3">
              <div className="flex flex-wrap items-center gap-2">
                <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${BADGE[o.action].style}`}>
                  {BADGE[o.action].text}
                </span>
                <span className="font-medium">
                  {o.kind} {o.namespace ? `${o.namespace}/` : ''}
                  {o.name}
                </span>
                <button
                  type="button"
                  className="ml-auto text-sm text-sky-700 underline"
                  aria-expanded={open === key}
                  aria-controls={id}
                  onClick={() => setOpen(open === key ? undefined : key)}
                >
                  {open === key ? 'Hide YAML' : 'View YAML'}
                </button>
              </div>
              {o.change && <p className="mt-1 text-sm text-slate-700">{o.change}</p>}
              {labels && Object.keys(labels).length > 0 && (
                <p className="mt-1 text-sm text-slate-700">
                  Labels:{' '}
                  {Object.entries(labels)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')}
                </p>
              )}
              {o.kind === 'Subscription' && (o.object.spec as { config?: SubscriptionConfig } | undefined)?.config && (
                <ul aria-label="Pod configuration" className="mt-1 list-disc pl-5 text-sm text-slate-700">
                  {describeConfig((o.object.spec as { config: SubscriptionConfig }).config).map((l) => (
                    <li key={l}>{l}</li>
                  ))}
                </ul>
              )}
              {open === key && (
                <pre id={id} className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                  {dump(o.object, { lineWidth: 120, noRefs: true })}
                </pre>
              )}
            </li>
          );
        })}
      </ol>
      {plan.scoped && <ScopedRights scoped={plan.scoped} />}
      {plan.blockers.length > 0 && (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-semibold">The install cannot go ahead as chosen</p>
          <ul className="list-disc pl-5">
            {plan.blockers.map((b) => (
              <li key={b.message}>{b.message}</li>
            ))}
          </ul>
        </div>
      )}
      {plan.warnings.length > 0 && (
        <div
          role="note"
          aria-label="Warnings"
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <p className="font-semibold">Before you install</p>
          <ul className="list-disc pl-5">
            {plan.warnings.map((w) => (
              <li key={w.message}>{w.message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
