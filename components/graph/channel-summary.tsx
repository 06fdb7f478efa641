// The text above a graph: the channel, its size, its head's version, the installed version (and
// where a path starts), so the facts a long channel's drawing cannot show at once are read here.
import type { GraphView } from '@/lib/hub/catalog-types';
import { summarizeChannel, type NamedVersion } from '@/lib/hub/graph-summary';

function Version({ v }: { v: NamedVersion }) {
  return (
    <>
      <strong title={v.name}>{v.version}</strong>
      {!v.inChannel && ' (not in this channel)'}
    </>
  );
}

/** `graphs[0]` is the channel shown; the others are overlaid on it. */
export function ChannelSummary({
  id,
  graphs,
  installed,
  from,
}: {
  id: string;
  graphs: GraphView[];
  installed?: string;
  from?: string;
}) {
  const [main, ...others] = graphs.map((g, i) =>
    summarizeChannel(g, i === 0 ? installed : undefined, i === 0 ? from : undefined),
  );
  if (!main) return null;
  return (
    <p id={id} className="text-sm text-slate-800">
      Channel <strong>{main.channel}</strong>: {main.sizeText}
      {main.head && (
        <>
          , head <Version v={main.head} />
        </>
      )}
      {main.installed && (
        <>
          ; installed <Version v={main.installed} />
        </>
      )}
      {main.from && (
        <>
          ; path from <Version v={main.from} />
        </>
      )}
      .
      {others.map((o) => (
        <span key={o.channel}>
          {' '}
          Overlaid: <strong>{o.channel}</strong>, {o.sizeText}
          {o.head && (
            <>
              , head <Version v={o.head} />
            </>
          )}
          .
        </span>
      ))}
    </p>
  );
}
