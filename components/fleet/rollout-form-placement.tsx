// The rollout form's second part: which clusters (the Placement's cluster sets, labels and claims)
// and in what order (the canary's labels, the wave size, how long a wave may take and soak). What
// the hub says of its clusters (their sets and claims) is offered as a reminder, not a limit.
import type { ManagedClusterView } from '@/lib/api/fleet';
import { FormField, INPUT } from './rollout-form-field';
import type { ClaimRow, FieldProblems, RolloutForm } from './rollout-form-state';

const OPERATORS: ClaimRow['operator'][] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

export function RolloutPlacementFields({
  form,
  set,
  managed,
  problems,
}: {
  form: RolloutForm;
  set: (change: Partial<RolloutForm>) => void;
  /** The hub's ManagedClusters as the fleet index has them. */
  managed: ManagedClusterView[];
  problems: FieldProblems;
}) {
  const sets = new Map<string, number>();
  for (const m of managed) if (m.clusterSet) sets.set(m.clusterSet, (sets.get(m.clusterSet) ?? 0) + 1);
  const claimNames = [...new Set(managed.flatMap((m) => m.claims.map((c) => c.name)))].sort();
  const claim = (i: number, change: Partial<ClaimRow>) =>
    set({ claims: form.claims.map((c, n) => (n === i ? { ...c, ...change } : c)) });
  return (
    <>
      <fieldset className="min-w-0 space-y-3 rounded border border-slate-300 bg-white p-3">
        <legend className="px-1 font-semibold">Which clusters</legend>
        <div className="grid gap-3 md:grid-cols-2">
          <FormField
            label="Cluster sets"
            hint={
              sets.size
                ? `Comma-separated. The hub's clusters are in: ${[...sets].map(([s, n]) => `${s} (${n})`).join(', ')}.`
                : 'Comma-separated ManagedClusterSet names.'
            }
            problems={problems.clusterSets}
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                value={form.clusterSets}
                onChange={(e) => set({ clusterSets: e.target.value })}
              />
            )}
          </FormField>
          <FormField
            label="Cluster labels (optional)"
            hint="key=value pairs, comma-separated: every cluster picked carries them all."
            problems={problems.labels}
          >
            {(p) => (
              <input {...p} className={INPUT} value={form.labels} onChange={(e) => set({ labels: e.target.value })} />
            )}
          </FormField>
        </div>
        <fieldset className="min-w-0 space-y-2">
          <legend className="text-sm font-semibold">Cluster claims (optional)</legend>
          <p className="text-xs text-slate-600">
            What each cluster reports of itself (ClusterClaims)
            {claimNames.length ? `, such as ${claimNames.join(', ')}` : ''}.
          </p>
          <datalist id="rollout-claim-names">
            {claimNames.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          {form.claims.map((c, i) => (
            <div key={i} className="flex flex-wrap items-end gap-2">
              <label className="flex min-w-0 flex-1 flex-col text-sm">
                Claim {i + 1}
                <input
                  className={INPUT}
                  list="rollout-claim-names"
                  value={c.key}
                  onChange={(e) => claim(i, { key: e.target.value })}
                />
              </label>
              <label className="flex flex-col text-sm">
                Claim {i + 1} operator
                <select
                  className={INPUT}
                  value={c.operator}
                  onChange={(e) => claim(i, { operator: e.target.value as ClaimRow['operator'] })}
                >
                  {OPERATORS.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              </label>
              {c.operator === 'In' || c.operator === 'NotIn' ? (
                <label className="flex min-w-0 flex-1 flex-col text-sm">
                  Claim {i + 1} values
                  <input className={INPUT} value={c.values} onChange={(e) => claim(i, { values: e.target.value })} />
                </label>
              ) : null}
              <button
                type="button"
                className="rounded border border-slate-400 px-2 py-1 text-sm"
                onClick={() => set({ claims: form.claims.filter((_, n) => n !== i) })}
              >
                Remove claim {i + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="rounded border border-slate-400 px-2 py-1 text-sm"
            onClick={() => set({ claims: [...form.claims, { key: '', operator: 'In', values: '' }] })}
          >
            Add a claim
          </button>
          {problems.claims ? <p className="text-sm text-red-800">{problems.claims.join('; ')}</p> : null}
        </fieldset>
      </fieldset>
      <fieldset className="min-w-0 space-y-3 rounded border border-slate-300 bg-white p-3">
        <legend className="px-1 font-semibold">In what order</legend>
        <div className="grid gap-3 md:grid-cols-2">
          <FormField
            label="Canary: clusters with these labels go first (optional)"
            hint="key=value pairs, comma-separated. The next wave starts only once every canary is healthy."
            problems={problems.canary}
          >
            {(p) => (
              <input {...p} className={INPUT} value={form.canary} onChange={(e) => set({ canary: e.target.value })} />
            )}
          </FormField>
          <FormField
            label="Wave size"
            hint="At most this many clusters per wave after the canary."
            problems={problems.waveSize}
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                inputMode="numeric"
                value={form.waveSize}
                onChange={(e) => set({ waveSize: e.target.value })}
              />
            )}
          </FormField>
          <FormField
            label="How long a wave may take (optional)"
            hint="Such as 10m or 1h; left empty, a wave waits for ever."
            problems={problems.progressDeadline}
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                value={form.progressDeadline}
                onChange={(e) => set({ progressDeadline: e.target.value })}
              />
            )}
          </FormField>
          <FormField
            label="How long a healthy wave soaks (optional)"
            hint="Such as 2m: the next wave waits this long after the one before is healthy."
            problems={problems.minSuccessTime}
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                value={form.minSuccessTime}
                onChange={(e) => set({ minSuccessTime: e.target.value })}
              />
            )}
          </FormField>
        </div>
      </fieldset>
    </>
  );
}
