// A rollout's preview, as the hub answered it for the person: the clusters its Placement picks now
// (its own decisions, or the console's guess for a new one), what would be refused and why, the
// person's rights for each write, the API server's dry runs, what each cluster's work agent applies
// with its own identity, and the hub objects themselves. Writing is offered only from here, and
// only for the choices this preview is of.
import type { RolloutPreview } from '@/lib/api/fleet-rollouts';
import { YamlBlock } from '../common/yaml-block';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function Clusters({ c, waveSize }: { c: RolloutPreview['clusters']; waveSize: number }) {
  return (
    <section aria-labelledby="preview-clusters" className="space-y-1">
      <h3 id="preview-clusters" className="font-semibold">
        The clusters it reaches now
      </h3>
      <p className="text-sm text-slate-700">
        {c.source === 'decisions'
          ? 'The Placement exists: these are its own decisions.'
          : "The Placement does not exist yet: this is what the hub's ManagedClusters say by the same rules. The " +
            'placement controller decides which wave each cluster joins.'}
      </p>
      <ul className="list-disc pl-5 text-sm">
        <li>
          Canary: {c.canary.length ? c.canary.join(', ') : 'none (no cluster carries the canary labels, or none asked)'}
        </li>
        <li>
          Then {c.rest.length ? `${plural(c.rest.length, 'cluster')}: ${c.rest.join(', ')}` : 'no other cluster'}
          {c.rest.length ? `, in waves of at most ${waveSize}` : ''}; {plural(c.waves, 'wave')} in all.
        </li>
        {c.left.map((l) => (
          <li key={l.cluster}>
            Not picked: {l.cluster}, because {l.why}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RolloutPreviewView({
  preview,
  stale,
  writing,
  onWrite,
}: {
  preview: RolloutPreview;
  /** The form changed since: this preview is not of what would be written. */
  stale: boolean;
  writing: boolean;
  onWrite: () => void;
}) {
  const blocked = preview.blockers.length > 0;
  const why = stale
    ? 'The choices changed since this preview: preview them again first.'
    : blocked
      ? `The hub would refuse it: ${plural(preview.blockers.length, 'reason')} above.`
      : undefined;
  return (
    <section aria-labelledby="preview-title" className="space-y-4 rounded border border-sky-300 bg-sky-50 p-3">
      <h2 id="preview-title" className="text-lg font-semibold">
        Preview: {preview.choices.hubNamespace}/{preview.choices.name}
      </h2>
      <p className="text-sm">Nothing is written yet.</p>
      <Clusters c={preview.clusters} waveSize={preview.choices.waveSize} />
      {blocked ? (
        <section
          aria-labelledby="preview-blockers"
          role="alert"
          className="rounded border border-red-300 bg-red-50 p-2"
        >
          <h3 id="preview-blockers" className="font-semibold text-red-900">
            What would be refused, and why
          </h3>
          <ul className="list-disc pl-5 text-sm text-red-900">
            {preview.blockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="preview-rights">
        <h3 id="preview-rights" className="font-semibold">
          Your rights on the hub
        </h3>
        <ul className="list-disc pl-5 text-sm">
          {preview.rights.map((r) => (
            <li key={r.what}>
              {r.allowed ? 'You may' : 'You may not'} {r.what}
              {r.reason ? `: ${r.reason}` : ''}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="preview-dry-run">
        <h3 id="preview-dry-run" className="font-semibold">
          The hub&apos;s API server, asked without storing
        </h3>
        <ul className="list-disc pl-5 text-sm">
          {preview.dryRun.map((d) => (
            <li key={d.object}>
              {d.object}: {d.ok ? (d.message ?? 'accepted') : `refused: ${d.message ?? 'no reason given'}`}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="preview-each">
        <h3 id="preview-each" className="font-semibold">
          On every cluster it reaches
        </h3>
        <p className="text-sm">{preview.onEachCluster[0]}</p>
        <ul className="list-disc pl-5 text-sm">
          {preview.onEachCluster.slice(1).map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="preview-objects" className="space-y-2">
        <h3 id="preview-objects" className="font-semibold">
          The hub objects, in the order they are written
        </h3>
        {preview.objects.map((o) => {
          const label = `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
          return (
            <details key={label} className="min-w-0 text-sm">
              <summary className="cursor-pointer">
                {label}
                {o.exists ? ' (exists: its spec is replaced)' : ' (new)'}
              </summary>
              <YamlBlock object={o.object} label={`${label} YAML`} />
            </details>
          );
        })}
      </section>
      <div className="space-y-1">
        <button
          type="button"
          disabled={!!why || writing}
          onClick={onWrite}
          className="rounded bg-sky-700 px-4 py-2 font-semibold text-white disabled:bg-slate-400"
          aria-describedby={why ? 'write-why' : undefined}
        >
          {writing ? 'Writing on the hub…' : 'Write it on the hub as you'}
        </button>
        {why ? (
          <p id="write-why" className="text-sm text-slate-700">
            {why}
          </p>
        ) : null}
      </div>
    </section>
  );
}
