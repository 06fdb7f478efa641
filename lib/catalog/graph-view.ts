// A channel's upgrade graph as the API sends it: lib/olm's graph without parsed versions, each
// node with the channels it is in and why it can never be an upgrade target, and, when asked,
// the path OLM walks from a starting version. From PackageManifests there are no edges: the
// view has the channel's versions in order and says the edges are unknown.
import type { PackageModel } from '../olm/fbc/model';
import type { EdgeKind, GraphEdge } from '../olm/graph/channel-graph';
import type { GraphView, GraphViewNode } from '../hub/catalog-types';
import { packageChannelGraph } from '../olm/graph/from-model';
import { updatePath } from '../olm/graph/update-path';

export type { GraphView, GraphViewNode };
import type { PackageManifest } from '../olm/resources/package-manifest';
import { channelsFromManifest, pickChannel, SelectionError } from './package-details';

function countEdges(edges: readonly GraphEdge[]): Record<EdgeKind, number> {
  const counts: Record<EdgeKind, number> = { replaces: 0, skips: 0, skipRange: 0 };
  for (const e of edges) counts[e.kind]++;
  return counts;
}

/** `from` names a CSV or a version; it need not be in the channel when it is a version (skipRange). */
export function graphFromModel(pkg: PackageModel, channel: string | undefined, from?: string): GraphView {
  const names = [...pkg.channels.keys()].sort();
  const channelName = pickChannel(names, pkg.defaultChannel, channel, pkg.name);
  const graph = packageChannelGraph(pkg, channelName);
  if (!graph) throw new SelectionError(`package ${pkg.name} has no channels`);
  const nodes: GraphViewNode[] = graph.nodes.map((n) => ({
    name: n.name,
    version: n.version,
    isHead: n.isHead,
    deprecation: n.deprecation,
    legacyDeprecated: n.legacyDeprecated,
    replaces: n.replaces,
    skips: n.skips,
    skipRange: n.skipRange,
    skipRangeError: n.skipRangeError,
    replacedBy: n.replacedBy,
    skippedBy: n.skippedBy,
    coveredBySkipRangeOf: n.coveredBySkipRangeOf,
    channels: pkg.bundles.get(n.name)?.channels ?? [channelName],
    ...(n.skippedBy.length > 0 && !n.isHead
      ? {
          neverTarget: `skipped by ${n.skippedBy.join(', ')}: OLM leaves skipped entries out of the channel's order, so it never upgrades to this bundle`,
        }
      : {}),
  }));
  let path: GraphView['path'];
  if (from !== undefined) {
    const node = graph.nodes.find((n) => n.name === from || n.version === from);
    const installed = node
      ? { name: node.name, version: node.version }
      : /^\d/.test(from)
        ? { name: `${pkg.name}.v${from}`, version: from }
        : undefined;
    if (!installed)
      throw new SelectionError(`channel ${channelName} of package ${pkg.name} has no version or CSV ${from}`);
    path = { from: installed.name, ...updatePath(graph, installed) };
  }
  return {
    package: pkg.name,
    channel: channelName,
    channels: names,
    edgesKnown: true,
    head: graph.head,
    deprecation: pkg.channels.get(channelName)?.deprecation,
    nodes,
    edges: graph.edges,
    edgeCounts: countEdges(graph.edges),
    missing: graph.missing,
    problems: graph.problems.map((p) => p.message),
    orderError: graph.orderError,
    path,
  };
}

export function graphFromManifest(pm: PackageManifest, channel: string | undefined): GraphView {
  const channels = channelsFromManifest(pm);
  const name = pm.metadata?.name ?? pm.status.packageName;
  const channelName = pickChannel(
    channels.map((c) => c.name),
    pm.status.defaultChannel,
    channel,
    name,
  );
  const ch = channels.find((c) => c.name === channelName);
  if (!ch) throw new SelectionError(`package ${name} has no channels`);
  const inChannels = new Map<string, string[]>();
  for (const c of channels)
    for (const v of c.versions) inChannels.set(v.csvName, [...(inChannels.get(v.csvName) ?? []), c.name]);
  return {
    package: name,
    channel: channelName,
    channels: channels.map((c) => c.name),
    edgesKnown: false,
    note: "this catalog is read through PackageManifests, which list each channel's versions but not its upgrade edges (replaces, skips, skipRange); the order shown is the channel's, the edges are unknown",
    head: ch.head,
    deprecation: ch.deprecation,
    nodes: ch.versions.map((v) => ({
      name: v.csvName,
      version: v.version,
      isHead: v.isHead,
      deprecation: v.deprecation,
      legacyDeprecated: false,
      skips: [],
      replacedBy: [],
      skippedBy: [],
      coveredBySkipRangeOf: [],
      channels: inChannels.get(v.csvName) ?? [channelName],
    })),
    edges: [],
    edgeCounts: { replaces: 0, skips: 0, skipRange: 0 },
    missing: [],
    problems: [],
  };
}
