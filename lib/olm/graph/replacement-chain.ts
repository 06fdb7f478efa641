// The order OLM's resolver gives a channel's entries before it picks an update candidate
// (olm resolver.go sortChannel; docs/olm/upgrade-graphs.md#channel-order). This is not opm's
// validation walk: here `skips` count as incoming edges, skipped entries are walked through but
// left out of the order (so they are never upgrade targets), and several heads are an error.
import type { ChannelEntry } from '../fbc/types';

export type ChainResult = { order: string[] } | { error: string };

export function replacementChain(
  packageName: string,
  channelName: string,
  entries: readonly ChannelEntry[],
): ChainResult {
  if (entries.length === 0) return { order: [] };
  const byName = new Map<string, ChannelEntry>();
  for (const e of entries) byName.set(e.name, e);

  const replacedBy = new Set<string>();
  const replaces = new Map<string, string>();
  const skipped = new Set<string>();
  for (const e of entries) {
    if (e.replaces && byName.has(e.replaces)) {
      replacedBy.add(e.replaces);
      replaces.set(e.name, e.replaces);
    }
    for (const s of e.skips ?? []) {
      if (byName.has(s)) {
        replacedBy.add(s);
        skipped.add(s);
      }
    }
  }

  const heads = entries.filter((e) => !replacedBy.has(e.name)).map((e) => e.name);
  if (heads.length === 0) {
    return {
      error: `no channel heads (entries not replaced by another entry) found in channel "${channelName}" of package "${packageName}"`,
    };
  }

  const chains: string[][] = [];
  for (const head of heads) {
    const chain: string[] = [];
    const visited = new Set<string>();
    let current: string | undefined = head;
    while (current !== undefined) {
      visited.add(current);
      if (!skipped.has(current)) chain.push(current);
      const next = replaces.get(current);
      if (next === undefined) break;
      if (visited.has(next)) {
        return {
          error: `a cycle exists in the chain of replacement beginning with "${head}" in channel "${channelName}" of package "${packageName}"`,
        };
      }
      current = next;
    }
    chains.push(chain);
  }

  if (chains.length > 1) {
    const names = chains.map((c) => (c.length === 0 ? '[]' : c.length === 1 ? c[0]! : `${c[0]}...${c[c.length - 1]}`));
    return {
      error:
        `a unique replacement chain within a channel is required to determine the relative order between channel entries, ` +
        `but ${chains.length} replacement chains were found in channel "${channelName}" of package "${packageName}": ${names.join(', ')}`,
    };
  }
  return { order: chains[0]! };
}
