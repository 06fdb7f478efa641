// A package's details page data: its channels with their versions, and the facts of one chosen
// version. From the registry the console has every bundle and edge; from a PackageManifest it has
// each channel's entries in order and a description of the head only, and says so.
import type { PackageModel } from '../olm/fbc/model';
import { packageChannelGraph } from '../olm/graph/from-model';
import type { PackageManifest } from '../olm/resources/package-manifest';
import { csvOfBundle, describeCsv, type CsvLike } from '../olm/resources/csv-description';
import type { ChannelSummary, ChannelVersion, PackageDetails, SelectedVersion } from '../hub/catalog-types';

export type { ChannelSummary, ChannelVersion, PackageDetails, SelectedVersion };

export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

export interface Selection {
  channel?: string;
  /** A version (`1.2.3`) or a CSV name. */
  version?: string;
}

/** The channel asked for, else the default, else the first by name. */
export function pickChannel(
  names: readonly string[],
  defaultChannel: string | undefined,
  wanted: string | undefined,
  pkg: string,
): string {
  if (wanted !== undefined) {
    if (names.includes(wanted)) return wanted;
    throw new SelectionError(`package ${pkg} has no channel ${wanted}; its channels are ${names.join(', ')}`);
  }
  if (defaultChannel && names.includes(defaultChannel)) return defaultChannel;
  const first = [...names].sort()[0];
  if (!first) throw new SelectionError(`package ${pkg} has no channels`);
  return first;
}

function pickVersion(channel: ChannelSummary, wanted: string | undefined, pkg: string): ChannelVersion {
  const found =
    wanted === undefined
      ? (channel.versions.find((v) => v.isHead) ?? channel.versions[0])
      : channel.versions.find((v) => v.csvName === wanted || v.version === wanted);
  if (found) return found;
  if (wanted === undefined) throw new SelectionError(`channel ${channel.name} of package ${pkg} has no versions`);
  const known = channel.versions.map((v) => v.version ?? v.csvName).join(', ');
  throw new SelectionError(`channel ${channel.name} of package ${pkg} has no version ${wanted}; it has ${known}`);
}

/** Details from the registry's model; `csvFor` gives the full CSV of a bundle when it was fetched. */
export function detailsFromModel(
  pkg: PackageModel,
  catalog: PackageDetails['catalog'],
  sel: Selection,
  fullCsv?: CsvLike,
): PackageDetails {
  const channels: ChannelSummary[] = [...pkg.channels.keys()].sort().map((name) => {
    const graph = packageChannelGraph(pkg, name)!;
    const versions = graph.nodes.map((n) => {
      // OLM never upgrades to a bundle another entry skips: the lists mark it.
      const skipped = n.skippedBy.length > 0 && n.name !== graph.head ? { skippedBy: n.skippedBy } : {};
      return {
        csvName: n.name,
        version: n.version,
        deprecation: n.deprecation,
        isHead: n.name === graph.head,
        ...skipped,
      };
    });
    const head = graph.head ? pkg.bundles.get(graph.head) : undefined;
    return {
      name,
      isDefault: name === pkg.defaultChannel,
      head: graph.head,
      headVersion: head?.version,
      deprecation: pkg.channels.get(name)!.deprecation,
      versions,
    };
  });
  const channelName = pickChannel(
    channels.map((c) => c.name),
    pkg.defaultChannel,
    sel.channel,
    pkg.name,
  );
  const channel = channels.find((c) => c.name === channelName)!;
  const picked = pickVersion(channel, sel.version, pkg.name);
  const bundle = pkg.bundles.get(picked.csvName);
  const entry = pkg.channels.get(channelName)!.entries.find((e) => e.name === picked.csvName);
  const csv = fullCsv ?? (bundle ? csvOfBundle(bundle) : undefined);
  return {
    name: pkg.name,
    catalog,
    source: 'registry',
    edgesKnown: true,
    defaultChannel: pkg.defaultChannel,
    deprecation: pkg.deprecation,
    channels,
    selected: {
      channel: channelName,
      csvName: picked.csvName,
      version: picked.version,
      isHead: picked.isHead,
      bundleImage: bundle?.image,
      deprecation: bundle?.deprecation,
      replaces: entry?.replaces,
      skips: entry?.skips ?? [],
      skipRange: entry?.skipRange,
      requiredPackages: bundle?.requiredPackages ?? [],
      ...(csv
        ? { csv: describeCsv(csv, pkg.name) }
        : { note: `the catalog has no CSV metadata for ${picked.csvName}` }),
    },
  };
}

/** The channels of a PackageManifest: entries as packageserver lists them (newest first). */
export function channelsFromManifest(pm: PackageManifest): ChannelSummary[] {
  return [...(pm.status.channels ?? [])]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => {
      const entries = c.entries?.length
        ? c.entries
        : [{ name: c.currentCSV, version: c.currentCSVDesc?.version ?? '' }];
      return {
        name: c.name,
        isDefault: c.name === pm.status.defaultChannel,
        head: c.currentCSV,
        headVersion: c.currentCSVDesc?.version,
        deprecation: c.deprecation?.message,
        versions: entries.map((e) => ({
          csvName: e.name,
          version: e.version || undefined,
          deprecation: 'deprecation' in e ? e.deprecation?.message : undefined,
          isHead: e.name === c.currentCSV,
        })),
      };
    });
}

export function detailsFromManifest(pm: PackageManifest, sel: Selection): PackageDetails {
  const st = pm.status;
  const name = pm.metadata?.name ?? st.packageName;
  const channels = channelsFromManifest(pm);
  const channelName = pickChannel(
    channels.map((c) => c.name),
    st.defaultChannel,
    sel.channel,
    name,
  );
  const channel = channels.find((c) => c.name === channelName)!;
  const picked = pickVersion(channel, sel.version, name);
  const desc = st.channels.find((c) => c.name === channelName)?.currentCSVDesc;
  const csv: CsvLike | undefined =
    picked.isHead && desc
      ? {
          metadata: { annotations: desc.annotations, labels: pm.metadata?.labels },
          spec: desc as Record<string, unknown>,
        }
      : undefined;
  return {
    name,
    catalog: { name: st.catalogSource, namespace: st.catalogSourceNamespace, displayName: st.catalogSourceDisplayName },
    source: 'packagemanifests',
    edgesKnown: false,
    defaultChannel: st.defaultChannel,
    deprecation: st.deprecation?.message,
    channels,
    selected: {
      channel: channelName,
      csvName: picked.csvName,
      version: picked.version,
      isHead: picked.isHead,
      deprecation: picked.deprecation,
      requiredPackages: [],
      ...(csv
        ? { csv: describeCsv(csv, name) }
        : {
            note: `this catalog is read through PackageManifests, which describe only each channel's head; ${picked.csvName} is not described`,
          }),
    },
  };
}
