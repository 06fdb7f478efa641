// What the text above a channel's graph says, so a long channel's first view need not be read to
// learn it: the channel, how many versions it has, its head's version, and the version this
// person has installed (or starts a path from), named by version when the channel has it.
import type { GraphView } from './catalog-types';

export interface NamedVersion {
  /** The CSV name. */
  name: string;
  /** Its version when the channel has it, else the CSV name. */
  version: string;
  inChannel: boolean;
}

export interface ChannelSummary {
  channel: string;
  versions: number;
  head?: NamedVersion;
  installed?: NamedVersion;
  /** Where the path shown starts, when that is not the installed version. */
  from?: NamedVersion;
  /** "48 versions", "1 version". */
  sizeText: string;
}

function named(g: GraphView, name: string | undefined): NamedVersion | undefined {
  if (!name) return undefined;
  const n = g.nodes.find((x) => x.name === name);
  return { name, version: n?.version ?? name, inChannel: !!n };
}

export function summarizeChannel(g: GraphView, installed?: string, from?: string): ChannelSummary {
  const versions = g.nodes.length;
  return {
    channel: g.channel,
    versions,
    head: named(g, g.head),
    installed: named(g, installed),
    from: from && from !== installed ? named(g, from) : undefined,
    sizeText: `${versions} version${versions === 1 ? '' : 's'}`,
  };
}
