'use client';
// What a move to OLM v1 did, step by step: done, failed (with the cluster's words), not run, or
// undone by the rollback; and what the rollback could not put back.
import type { MigrationResult, MigrationStepOutcome } from '@/lib/api/olm-v1-migration';

const WORD: Record<MigrationStepOutcome['state'], string> = {
  done: 'Done',
  failed: 'Failed',
  'not-run': 'Not run',
  undone: 'Undone',
  'undo-failed': 'Could not be undone',
};

export function MigrationOutcome({ result }: { result: MigrationResult }) {
  return (
    <section aria-label="Move result" className="space-y-2" role="status">
      <p
        className={`rounded border px-2 py-1 ${result.ok ? 'border-emerald-300 bg-emerald-50 text-emerald-950' : 'border-red-300 bg-red-50 text-red-900'}`}
      >
        {result.ok
          ? `Moved: ClusterExtension ${result.extension} is Installed and manages the operator.`
          : 'The move failed and was rolled back.'}
        {result.message ? ` ${result.message}` : ''}
      </p>
      <ol className="list-decimal space-y-1 pl-5" aria-label="What each step did">
        {result.steps.map((s) => (
          <li key={s.id}>
            <span className="font-medium">{WORD[s.state]}:</span> {s.title}
            {s.message ? <span className="block text-slate-700 [overflow-wrap:anywhere]">{s.message}</span> : null}
          </li>
        ))}
      </ol>
      {result.notRestored.length > 0 && (
        <div>
          <p className="font-medium">Not restored:</p>
          <ul className="list-disc pl-5">
            {result.notRestored.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
