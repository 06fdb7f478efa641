// What OLM installs next, and the whole walk to the head (docs/olm/upgrade-graphs.md#update-paths).
// OLM orders a channel from the head down the replaces chain (skipped entries left out), then
// keeps the entries that replace, skip, or skipRange-cover the installed CSV; the first one
// wins. Each InstallPlan moves one edge, so the path to the head is a sequence of such picks.
import type { ChannelEntry } from '../fbc/types';
import { rangeContains, tryParseRange } from '../semver/range';
import { tryParseVersionTolerant } from '../semver/version';
import type { ChannelGraph, EdgeKind, GraphNode } from './channel-graph';

export interface InstalledCsv {
  name: string;
  /** `spec.version` of the installed CSV; OLM parses it tolerantly. */
  version?: string;
}

export interface UpdateStep {
  from: string;
  to: string;
  /** Every reason the target accepts the installed CSV, strongest first. */
  via: EdgeKind[];
  channel: string;
}

export type NextUpdate = { kind: 'update'; step: UpdateStep } | { kind: 'none' } | { kind: 'error'; message: string };

/** Why `entry` may replace `installed`, in OLM's predicate terms. */
export function acceptsInstalled(
  entry: Pick<ChannelEntry, 'replaces' | 'skips' | 'skipRange'>,
  installed: InstalledCsv,
): EdgeKind[] {
  const via: EdgeKind[] = [];
  if (entry.replaces === installed.name) via.push('replaces');
  if (entry.skips?.includes(installed.name)) via.push('skips');
  if (entry.skipRange) {
    const parsed = tryParseRange(entry.skipRange);
    const version = tryParseVersionTolerant(installed.version);
    // An unparsable skipRange is ignored by OLM, silently (docs/olm/upgrade-graphs.md#ignored-skiprange).
    if ('range' in parsed && version && rangeContains(parsed.range, version)) via.push('skipRange');
  }
  return via;
}

function nodeEntry(node: GraphNode): Pick<ChannelEntry, 'replaces' | 'skips' | 'skipRange'> {
  return { replaces: node.replaces, skips: node.skips, skipRange: node.skipRange };
}

/** The CSV OLM would install next from this channel for the installed CSV. */
export function nextUpdate(graph: ChannelGraph, installed: InstalledCsv): NextUpdate {
  if (graph.orderError) return { kind: 'error', message: graph.orderError };
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  for (const name of graph.order) {
    if (name === installed.name) continue;
    const node = byName.get(name)!;
    // The solver prohibits legacy olm.deprecated bundles; it falls through to the next option.
    if (node.legacyDeprecated) continue;
    const via = acceptsInstalled(nodeEntry(node), installed);
    if (via.length > 0)
      return { kind: 'update', step: { from: installed.name, to: name, via, channel: graph.channelName } };
  }
  return { kind: 'none' };
}

/**
 * Across channels, as when `spec.channel` is empty: the default channel is tried first, then the
 * others by name; the first channel with a candidate wins. A channel whose order is broken
 * reports its error, as OLM's resolution does.
 */
export function nextUpdateAcrossChannels(
  graphs: readonly ChannelGraph[],
  defaultChannel: string | undefined,
  installed: InstalledCsv,
): NextUpdate {
  const sorted = [...graphs].sort((a, b) => {
    if (a.channelName === defaultChannel) return -1;
    if (b.channelName === defaultChannel) return 1;
    return a.channelName.localeCompare(b.channelName);
  });
  for (const g of sorted) {
    const next = nextUpdate(g, installed);
    if (next.kind !== 'none') return next;
  }
  return { kind: 'none' };
}

export interface UpdatePath {
  steps: UpdateStep[];
  /** Where the walk ends: the head, or the last CSV from which nothing newer is reachable. */
  end: string;
  /** True when the walk ends on the channel head. */
  reachesHead: boolean;
  error?: string;
}

/**
 * Every InstallPlan OLM creates, one edge each, from the installed CSV until nothing newer is
 * offered. When the walk stops short of the head the installed CSV is stranded in this channel.
 */
export function updatePath(graph: ChannelGraph, installed: InstalledCsv): UpdatePath {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const steps: UpdateStep[] = [];
  const seen = new Set<string>([installed.name]);
  let current = installed;
  for (;;) {
    const next = nextUpdate(graph, current);
    if (next.kind === 'error') return { steps, end: current.name, reachesHead: false, error: next.message };
    if (next.kind === 'none') break;
    // Each pick is nearer the head than the last, so a repeat would mean a broken order;
    // stop rather than loop.
    if (seen.has(next.step.to)) break;
    seen.add(next.step.to);
    steps.push(next.step);
    const node = byName.get(next.step.to)!;
    current = { name: node.name, version: node.version };
  }
  return { steps, end: current.name, reachesHead: current.name === graph.head, error: undefined };
}

/**
 * Entries a Subscription can name in `startingCSV`: OLM narrows the channel to that one entry
 * before ordering it, so any entry installs, except legacy-deprecated bundles, which the solver
 * prohibits. What happens after is `updatePath` from there (at once, under Automatic approval).
 */
export function startingCsvChoices(graph: ChannelGraph): GraphNode[] {
  return graph.nodes.filter((n) => !n.legacyDeprecated);
}

/** The CSV a fresh Subscription without startingCSV installs: the first entry of OLM's order. */
export function freshInstallTarget(graph: ChannelGraph): { name: string } | { error: string } {
  if (graph.orderError) return { error: graph.orderError };
  const legacy = new Set(graph.nodes.filter((n) => n.legacyDeprecated).map((n) => n.name));
  const first = graph.order.find((n) => !legacy.has(n));
  return first
    ? { name: first }
    : { error: `no operators found in channel ${graph.channelName} of package ${graph.packageName}` };
}

export type ChannelSwitch = { ok: true; via: 'member' | 'update'; next?: string } | { ok: false; message: string };

/**
 * Whether a Subscription on `installed` can move to this channel: OLM keeps the installed CSV
 * when the channel has it, or upgrades to an entry that replaces, skips or skipRange-covers it;
 * otherwise resolution fails and the operator stays where it is, with ResolutionFailed.
 */
export function channelSwitch(graph: ChannelGraph, installed: InstalledCsv): ChannelSwitch {
  const next = nextUpdate(graph, installed);
  if (graph.nodes.some((n) => n.name === installed.name))
    return { ok: true, via: 'member', ...(next.kind === 'update' ? { next: next.step.to } : {}) };
  if (next.kind === 'update') return { ok: true, via: 'update', next: next.step.to };
  if (next.kind === 'error') return { ok: false, message: next.message };
  return {
    ok: false,
    message: `channel ${graph.channelName} neither contains ${installed.name} nor has an entry that replaces, skips or covers it with a skipRange; OLM would fail resolution and keep the operator where it is`,
  };
}
