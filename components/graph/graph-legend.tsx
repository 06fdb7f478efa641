// What the graph's marks mean: edge kinds by line style (and colour, for one channel), the head,
// never-a-target, deprecated and installed bundles, the path; with channels overlaid, each one's
// colour and number of edges. Each edge kind is a switch that shows or hides that kind's edges.
import type { EdgeKind } from '@/lib/olm/graph/channel-graph';
import type { OverlayLegend } from '@/lib/hub/graph-drawing';

const KINDS: { key: EdgeKind; line: string; overlayLine: string }[] = [
  { key: 'replaces', line: 'border-t-2 border-slate-600', overlayLine: 'border-t-2 border-slate-500' },
  {
    key: 'skips',
    line: 'border-t-2 border-dashed border-violet-600',
    overlayLine: 'border-t-2 border-dashed border-slate-500',
  },
  {
    key: 'skipRange',
    line: 'border-t-2 border-dotted border-cyan-600',
    overlayLine: 'border-t-2 border-dotted border-slate-500',
  },
];

export function GraphLegend({
  counts,
  channels,
  withInstalled,
  hidden = [],
  onToggle,
}: {
  counts?: Record<EdgeKind, number>;
  channels?: OverlayLegend[];
  withInstalled?: boolean;
  /** Edge kinds not drawn. */
  hidden?: readonly EdgeKind[];
  onToggle?: (kind: EdgeKind) => void;
}) {
  const overlay = (channels?.length ?? 0) > 1;
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700">
      {KINDS.map((k) => {
        const shown = !hidden.includes(k.key);
        const mark = (
          <span
            aria-hidden="true"
            className={`inline-block w-6 ${overlay ? k.overlayLine : k.line} ${shown ? '' : 'opacity-40'}`}
          />
        );
        const text = `${k.key}${counts ? ` (${counts[k.key]})` : ''}`;
        return (
          <li key={k.key}>
            {onToggle ? (
              // A toggle button: its name stays the kind and count, aria-pressed says drawn or not.
              <button
                type="button"
                aria-pressed={shown}
                title={`${shown ? 'Hide' : 'Show'} the ${k.key} edges`}
                onClick={() => onToggle(k.key)}
                className={`flex min-h-6 items-center gap-1.5 rounded border px-1.5 py-0.5 ${shown ? 'border-slate-400 bg-white' : 'border-dashed border-slate-400 bg-slate-100 text-slate-600 line-through'}`}
              >
                {mark}
                {text}
              </button>
            ) : (
              <span className="flex items-center gap-1.5">
                {mark}
                {text}
              </span>
            )}
          </li>
        );
      })}
      {overlay &&
        channels!.map((c) => (
          <li key={c.channel} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block h-1 w-6" style={{ backgroundColor: c.color }} />
            channel {c.channel} ({c.edges} edges)
          </li>
        ))}
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-emerald-700" />
        channel head
      </li>
      <li className="flex items-center gap-1.5">
        <span
          aria-hidden="true"
          className="inline-block h-3 w-3 rounded-full border-2 border-dashed border-slate-500"
        />
        never an upgrade target
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full border-2 border-amber-600 bg-amber-100" />
        deprecated
      </li>
      {withInstalled && (
        <li className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="inline-block h-3 w-3 rounded-full border-4 border-double border-sky-900"
          />
          installed
        </li>
      )}
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block w-6 border-t-4 border-sky-700" />
        path OLM walks
      </li>
    </ul>
  );
}
