// The shapes of the catalog API's answers (package details, channel graphs), shared by the
// server that builds them (lib/catalog) and the pages that show them.
import type { PackageRequirement } from '../olm/fbc/model';
import type { EdgeKind, GraphEdge } from '../olm/graph/channel-graph';
import type { UpdateStep } from '../olm/graph/update-path';
import type { CsvDescription } from '../olm/resources/csv-description';
import type { PackageSummary } from './package-summary';

export interface ChannelVersion {
  csvName: string;
  version?: string;
  deprecation?: string;
  isHead: boolean;
  /** Entries whose `skips` name this one: OLM never upgrades to it (absent when none, or unknown). */
  skippedBy?: string[];
}

export interface ChannelSummary {
  name: string;
  isDefault: boolean;
  head?: string;
  headVersion?: string;
  deprecation?: string;
  /** OLM's order from the head down the replaces chain, then the rest newest first. */
  versions: ChannelVersion[];
}

export interface SelectedVersion {
  channel: string;
  csvName: string;
  version?: string;
  isHead: boolean;
  bundleImage?: string;
  deprecation?: string;
  /** Absent when the catalog's edges are unknown (PackageManifests). */
  replaces?: string;
  skips?: string[];
  skipRange?: string;
  requiredPackages: PackageRequirement[];
  /** Absent when the source has no description of this version (say why in `note`). */
  csv?: CsvDescription;
  note?: string;
}

export interface PackageDetails {
  name: string;
  catalog: PackageSummary['catalog'];
  /** Where the content came from: a CatalogSource's registry or PackageManifests, or catalogd (OLM v1). */
  source: 'registry' | 'packagemanifests' | 'catalogd';
  /** Whether upgrade edges (replaces, skips, skipRange) are known; PackageManifests carry none. */
  edgesKnown: boolean;
  defaultChannel?: string;
  deprecation?: string;
  channels: ChannelSummary[];
  selected: SelectedVersion;
  /** The cluster's node platforms, when the person may list nodes. */
  platforms?: { os: string; arch: string }[];
  /** ClusterCatalogs that offer the same package (lib/hub/olm-offer.ts), so OLM v1 can install it. */
  clusterCatalogs?: string[];
}

export interface GraphViewNode {
  name: string;
  version?: string;
  isHead: boolean;
  deprecation?: string;
  /** A legacy `olm.deprecated` bundle: the resolver never installs it. */
  legacyDeprecated: boolean;
  replaces?: string;
  skips: string[];
  skipRange?: string;
  skipRangeError?: string;
  replacedBy: string[];
  skippedBy: string[];
  coveredBySkipRangeOf: string[];
  /** Every channel of the package this bundle is in. */
  channels: string[];
  /**
   * Why OLM v0 never upgrades to this bundle: an entry that skips it is left out of the
   * channel's replacement order, so a CSV only it replaces is stranded.
   */
  neverTarget?: string;
}

export interface GraphView {
  package: string;
  channel: string;
  channels: string[];
  edgesKnown: boolean;
  /** Why edges are unknown, when they are. */
  note?: string;
  head?: string;
  deprecation?: string;
  nodes: GraphViewNode[];
  edges: GraphEdge[];
  edgeCounts: Record<EdgeKind, number>;
  /** Entries named by replaces/skips that are not in the channel. */
  missing: string[];
  problems: string[];
  orderError?: string;
  path?: { from: string; steps: UpdateStep[]; end: string; reachesHead: boolean; error?: string };
}
