'use client';
// The outcome of each cleanup step, as the server did it: done, already gone, failed (with the
// cluster's words) or not done because an earlier step failed.
import type { CleanupResultStep } from '@/lib/api/leftovers';

const OUTCOME: Record<CleanupResultStep['outcome'], string> = {
  deleted: 'deleted',
  'already-gone': 'already gone',
  'finalizers-removed': 'finalizers removed',
  failed: 'failed',
  'not-done': 'not done',
};

export function CleanupResult({ title, steps }: { title: string; steps: CleanupResultStep[] }) {
  return (
    <section aria-label={title} className="space-y-1 text-sm">
      <h2 className="font-semibold">{title}</h2>
      <ul aria-label="Cleanup result" className="space-y-1">
        {steps.map((s, i) => (
          <li
            key={i}
            className={
              s.outcome === 'failed' ? 'text-red-800' : s.outcome === 'not-done' ? 'text-slate-500' : 'text-emerald-800'
            }
          >
            {s.action === 'delete' ? 'Delete' : 'Remove finalizers from'} {s.kind}{' '}
            {s.namespace ? `${s.namespace}/` : ''}
            {s.name}: {OUTCOME[s.outcome]}
            {s.message ? ` (${s.message})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
