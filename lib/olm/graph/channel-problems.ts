// A channel's structural problems, as `opm validate` reports them (operator-registry's
// alpha/model channel validation; docs/olm/catalogs.md#validation). Every problem is collected;
// the caller decides what a problem means for the package.
import type { ChannelEntry } from '../fbc/types';

export type ChannelProblemKind = 'empty' | 'no-head' | 'multiple-heads' | 'cycle' | 'stranded';

export interface ChannelProblem {
  kind: ChannelProblemKind;
  /** In opm's words. */
  message: string;
  /** The bundles the problem is about (sorted), when it names any. */
  bundles: string[];
}

/** Entries no other entry names in `replaces` or `skips`. skipRange makes no incoming edge. */
export function channelHeads(entries: readonly ChannelEntry[]): string[] {
  const incoming = new Set<string>();
  for (const e of entries) {
    if (e.replaces) incoming.add(e.replaces);
    for (const s of e.skips ?? []) incoming.add(s);
  }
  return entries.filter((e) => !incoming.has(e.name)).map((e) => e.name);
}

export function findChannelProblems(entries: readonly ChannelEntry[]): ChannelProblem[] {
  if (entries.length === 0)
    return [{ kind: 'empty', message: 'channel must contain at least one bundle', bundles: [] }];
  const heads = [...new Set(channelHeads(entries))].sort();
  if (heads.length === 0) return [{ kind: 'no-head', message: 'no channel head found in graph', bundles: [] }];
  if (heads.length > 1) {
    return [
      { kind: 'multiple-heads', message: `multiple channel heads found in graph: ${heads.join(', ')}`, bundles: heads },
    ];
  }

  const byName = new Map<string, ChannelEntry>();
  const skipped = new Set<string>();
  for (const e of entries) {
    byName.set(e.name, e);
    for (const s of e.skips ?? []) skipped.add(s);
  }

  // Walk `replaces` from the head; a replaces edge to a skipped entry is not followed, and the
  // tail may replace a bundle that is not in the channel.
  const head = heads[0]!;
  const onChain = new Set<string>([head]);
  const path: string[] = [head];
  let cur = byName.get(head);
  while (cur && cur.replaces) {
    if (skipped.has(cur.replaces)) break;
    if (onChain.has(cur.replaces)) {
      const from = path.indexOf(cur.replaces);
      const cycle = [...path.slice(from), cur.replaces];
      return [
        {
          kind: 'cycle',
          message: `detected cycle in replaces chain of upgrade graph: ${cycle.join(' -> ')}`,
          bundles: [...new Set(cycle)].sort(),
        },
      ];
    }
    onChain.add(cur.replaces);
    path.push(cur.replaces);
    cur = byName.get(cur.replaces);
  }

  const stranded = [...byName.keys()].filter((n) => !onChain.has(n) && !skipped.has(n)).sort();
  if (stranded.length > 0) {
    return [
      {
        kind: 'stranded',
        message: `channel contains one or more stranded bundles: ${stranded.join(', ')}`,
        bundles: stranded,
      },
    ];
  }
  return [];
}
