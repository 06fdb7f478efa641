'use client';
// The "remove completely" part of the uninstall dialog: the operator's CRDs with every instance in
// the cluster counted by namespace, the finalizers holding instances already being deleted, and
// what refuses it (another operator owning or requiring a CRD, a check the person's rights do not
// allow); the person types the count of instances to confirm.
import type { CrdRemoval } from '@/lib/api/operators';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';

export function CrdRemovalPanel({
  removal,
  typed,
  onType,
}: {
  removal: CrdRemoval;
  typed: string;
  onType: (v: string) => void;
}) {
  const refused = removal.usedBy.length > 0 || removal.problems.length > 0 || !removal.allowed.allowed;
  return (
    <section aria-label="Complete removal" className="space-y-2 rounded border border-red-200 bg-red-50/50 p-3 text-sm">
      {removal.crds.length === 0 ? (
        <p>The operator owns no CRD that is still there.</p>
      ) : (
        <StackedTable label="CRDs to remove" columns={['CRD', 'Instances in the cluster']}>
          {removal.crds.map((c) => (
            <StackedRow key={c.name}>
              <StackedCell label="CRD">
                <code>{c.name}</code> ({c.kind})
              </StackedCell>
              <StackedCell label="Instances">
                {c.instances === 0
                  ? 'none'
                  : `${c.instances}: ${Object.entries(c.byNamespace)
                      .map(([ns, n]) => `${n} in ${ns || 'the cluster scope'}`)
                      .join(', ')}`}
                {c.holding.length > 0 && (
                  <span className="block text-amber-900">
                    Already being deleted, held by finalizers:{' '}
                    {c.holding
                      .map(
                        (h) =>
                          `${h.namespace ? `${h.namespace}/` : ''}${h.name} (${h.finalizers.join(', ') || 'none'})`,
                      )
                      .join('; ')}
                  </span>
                )}
              </StackedCell>
            </StackedRow>
          ))}
        </StackedTable>
      )}
      {removal.usedBy.length > 0 && (
        <div role="alert" className="text-red-900">
          <p className="font-semibold">The CRDs cannot go: other operators use them</p>
          <ul className="list-disc pl-5">
            {removal.usedBy.map((u) => (
              <li key={`${u.crd}/${u.namespace}/${u.csv}`}>
                {u.namespace}/{u.csv} {u.relation} {u.crd}
              </li>
            ))}
          </ul>
        </div>
      )}
      {removal.problems.map((p) => (
        <p key={p} role="alert" className="text-red-900">
          Cannot be checked: {p}.
        </p>
      ))}
      {!removal.allowed.allowed && (
        <p role="alert" className="text-red-900">
          You may not delete CRDs: {removal.allowed.reason}
        </p>
      )}
      {!refused && removal.instances > 0 && (
        <label className="flex flex-col gap-1">
          <span>
            Deleting the CRDs deletes every instance above, in every namespace, first while the operator still runs
            their finalizers. They cannot be restored. Type <strong>{removal.confirmation}</strong> to confirm.
          </span>
          <input
            value={typed}
            onChange={(e) => onType(e.target.value)}
            aria-label="Confirmation"
            className="max-w-xs rounded border border-slate-300 px-2 py-1"
          />
        </label>
      )}
    </section>
  );
}

export function crdRemovalReady(removal: CrdRemoval | undefined, typed: string): boolean {
  if (!removal) return false;
  if (removal.usedBy.length || removal.problems.length || !removal.allowed.allowed) return false;
  return removal.instances === 0 || typed.trim() === removal.confirmation;
}
