// One channel of one package as a graph: the nodes a console draws, the edges OLM follows, the
// head, the order OLM's resolver gives the entries, and the channel's problems
// (docs/olm/upgrade-graphs.md#channel-head, docs/olm/upgrade-graphs.md#update-paths). Pure; the caller supplies entries and bundle facts.
import type { ChannelEntry } from '../fbc/types';
import { rangeContains, tryParseRange, type VersionRange } from '../semver/range';
import { compareVersions, tryParseVersionTolerant, type SemVer } from '../semver/version';
import { channelHeads, findChannelProblems, type ChannelProblem } from './channel-problems';
import { replacementChain } from './replacement-chain';

/** What the graph needs to know about a bundle besides its channel entry. */
export interface GraphBundleFacts {
  /** The `olm.package` property's version, as written. */
  version?: string;
  /** Deprecation message from `olm.deprecations`, if the bundle is deprecated. */
  deprecation?: string;
  /** A legacy `olm.deprecated` property: OLM's resolver never picks such a bundle. */
  legacyDeprecated?: boolean;
}

export interface ChannelGraphInput {
  packageName: string;
  channelName: string;
  entries: readonly ChannelEntry[];
  bundles: ReadonlyMap<string, GraphBundleFacts>;
}

export type EdgeKind = 'replaces' | 'skips' | 'skipRange';

/** An upgrade edge, oriented the way an update travels: from the older bundle to the newer. */
export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface GraphNode {
  name: string;
  /** As written in the catalog; undefined when the bundle has none. */
  version?: string;
  semver?: SemVer;
  deprecation?: string;
  legacyDeprecated: boolean;
  isHead: boolean;
  replaces?: string;
  skips: string[];
  skipRange?: string;
  /** Why OLM ignores this entry's skipRange (it does so silently, docs/olm/upgrade-graphs.md#ignored-skiprange). */
  skipRangeError?: string;
  /** Entries whose `skips` name this one: OLM never makes it an upgrade target. */
  skippedBy: string[];
  /** Entries whose `replaces` names this one. */
  replacedBy: string[];
  /** Entries whose skipRange covers this one's version. */
  coveredBySkipRangeOf: string[];
  /** Position in OLM's candidate order (0 = head), or undefined when OLM never targets it. */
  order?: number;
}

export interface ChannelGraph {
  packageName: string;
  channelName: string;
  /** Nodes in OLM's order (head first), then the skipped entries, newest version first. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  head?: string;
  /** Names that `replaces` or `skips` mention but the channel does not contain. */
  missing: string[];
  /** The resolver's order of upgrade targets, or the error it would report. */
  order: string[];
  orderError?: string;
  problems: ChannelProblem[];
}

function compareByVersionDesc(a: GraphNode, b: GraphNode): number {
  if (a.semver && b.semver) return compareVersions(b.semver, a.semver) || a.name.localeCompare(b.name);
  if (a.semver) return -1;
  if (b.semver) return 1;
  return a.name.localeCompare(b.name);
}

export function buildChannelGraph(input: ChannelGraphInput): ChannelGraph {
  const { entries, bundles } = input;
  const nodes = new Map<string, GraphNode>();
  const ranges = new Map<string, VersionRange>();

  for (const e of entries) {
    const facts = bundles.get(e.name);
    const node: GraphNode = {
      name: e.name,
      version: facts?.version,
      semver: tryParseVersionTolerant(facts?.version),
      deprecation: facts?.deprecation,
      legacyDeprecated: facts?.legacyDeprecated ?? false,
      isHead: false,
      replaces: e.replaces || undefined,
      skips: (e.skips ?? []).filter((s) => s !== ''),
      skipRange: e.skipRange || undefined,
      skippedBy: [],
      replacedBy: [],
      coveredBySkipRangeOf: [],
    };
    if (node.skipRange) {
      const parsed = tryParseRange(node.skipRange);
      if ('range' in parsed) ranges.set(e.name, parsed.range);
      else node.skipRangeError = parsed.error.message;
    }
    nodes.set(e.name, node);
  }

  const edges: GraphEdge[] = [];
  const missing = new Set<string>();
  for (const node of nodes.values()) {
    if (node.replaces) {
      const target = nodes.get(node.replaces);
      if (target) {
        target.replacedBy.push(node.name);
        edges.push({ from: target.name, to: node.name, kind: 'replaces' });
      } else {
        missing.add(node.replaces);
      }
    }
    for (const s of node.skips) {
      const target = nodes.get(s);
      if (target) {
        target.skippedBy.push(node.name);
        edges.push({ from: target.name, to: node.name, kind: 'skips' });
      } else {
        missing.add(s);
      }
    }
  }
  // skipRange edges are resolved against the versions present in this channel. An installed
  // version outside the channel can still be covered; nextUpdate checks the range itself.
  for (const [name, range] of ranges) {
    for (const other of nodes.values()) {
      if (other.name === name || !other.semver) continue;
      if (rangeContains(range, other.semver)) {
        other.coveredBySkipRangeOf.push(name);
        edges.push({ from: other.name, to: name, kind: 'skipRange' });
      }
    }
  }

  const heads = channelHeads(entries);
  const head = heads.length === 1 ? heads[0] : undefined;
  if (head) nodes.get(head)!.isHead = true;

  const chain = replacementChain(input.packageName, input.channelName, entries);
  const order = 'order' in chain ? chain.order : [];
  order.forEach((name, i) => (nodes.get(name)!.order = i));

  const ordered = order.map((n) => nodes.get(n)!);
  const rest = [...nodes.values()].filter((n) => n.order === undefined).sort(compareByVersionDesc);

  return {
    packageName: input.packageName,
    channelName: input.channelName,
    nodes: [...ordered, ...rest],
    edges,
    head,
    missing: [...missing].sort(),
    order,
    orderError: 'error' in chain ? chain.error : undefined,
    problems: findChannelProblems(entries),
  };
}
