// The channel graph of a catalog package: the bridge from the FBC model to the graph rules.
import type { PackageModel } from '../fbc/model';
import { buildChannelGraph, type ChannelGraph, type GraphBundleFacts } from './channel-graph';

export function bundleFactsOf(pkg: PackageModel): Map<string, GraphBundleFacts> {
  const facts = new Map<string, GraphBundleFacts>();
  for (const b of pkg.bundles.values()) {
    facts.set(b.name, { version: b.version, deprecation: b.deprecation, legacyDeprecated: b.legacyDeprecated });
  }
  return facts;
}

/** The graph of one channel, or undefined when the package has no such channel. */
export function packageChannelGraph(
  pkg: PackageModel,
  channel: string,
  facts = bundleFactsOf(pkg),
): ChannelGraph | undefined {
  const ch = pkg.channels.get(channel);
  if (!ch) return undefined;
  return buildChannelGraph({ packageName: pkg.name, channelName: ch.name, entries: ch.entries, bundles: facts });
}

/** Every channel's graph, default channel first, then by name (the order OLM tries them). */
export function packageGraphs(pkg: PackageModel): ChannelGraph[] {
  const facts = bundleFactsOf(pkg);
  const names = [...pkg.channels.keys()].sort((a, b) =>
    a === pkg.defaultChannel ? -1 : b === pkg.defaultChannel ? 1 : a.localeCompare(b),
  );
  return names.map((n) => packageChannelGraph(pkg, n, facts)!);
}
