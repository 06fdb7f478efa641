// What an OperatorHub tile and its filters know about a package: built on the server
// (lib/catalog/package-summary.ts), searched and filtered in the browser and on the server.
import type { InstallModeType } from '../olm/resources/cluster-service-version';

export interface PackageSummary {
  name: string;
  /**
   * Where the tile's package comes from: a CatalogSource (OLM v0 installs it), or, with
   * `kind: 'ClusterCatalog'` and no namespace, a ClusterCatalog (only OLM v1 installs it).
   */
  catalog: { name: string; namespace: string; displayName?: string; kind?: 'ClusterCatalog' };
  /**
   * The default channel head's bundle name: with the name, version and provider, what says two
   * catalogs offer the same package (lib/hub/olm-offer.ts). Server side only: the hub list leaves it out.
   */
  headBundle?: string;
  /** The ClusterCatalogs that offer this same package, so OLM v1 can install it from them (lib/hub/olm-offer.ts). */
  clusterCatalogs?: string[];
  displayName: string;
  provider: string;
  /** One or two sentences for a tile. */
  shortDescription: string;
  categories: string[];
  capability?: string;
  keywords: string[];
  defaultChannel?: string;
  headVersion?: string;
  installModes: InstallModeType[];
  infrastructureFeatures: string[];
  validSubscription: string[];
  deprecation?: string;
  /** `operators.operatorframework.io/operator-type: non-standalone`: not offered as a tile. */
  nonStandalone: boolean;
  /** Architectures and operating systems the head declares (`operatorframework.io/arch.*`). */
  arch: string[];
  os: string[];
  /**
   * Whether the head CSV carries an icon: `false` when the catalog is known to have none (the
   * page shows a letter and asks for nothing), absent when not known (the icon route is asked).
   */
  hasIcon?: boolean;
  /** Namespaces with a Subscription to this package from this catalog (per person, per request). */
  installedIn?: string[];
  /** ClusterExtensions whose installed bundle is this package's in one of `clusterCatalogs` (per person). */
  installedAs?: string[];
}

/** A catalog as the hub lists it: where its content came from, or why there is none. */
export interface CatalogInfo {
  name: string;
  /** Empty for a ClusterCatalog. */
  namespace: string;
  /** A ClusterCatalog (OLM v1); absent for a CatalogSource. */
  kind?: 'ClusterCatalog';
  displayName: string;
  publisher: string;
  /** `status.connectionState.lastObservedState`, or UNKNOWN. */
  state: string;
  /**
   * Where the content came from: the registry (whole graph) or, for catalogs a person can see
   * only through packageserver, PackageManifests (channel heads and entries, no upgrade edges);
   * for a ClusterCatalog, catalogd's content (whole graph). Absent when it could not be read.
   */
  source?: 'registry' | 'packagemanifests' | 'catalogd';
  /** Why the content could not be read. */
  problem?: string;
  /**
   * When the content shown was read, if the latest read of the registry failed and an earlier
   * read is served (ISO time); `problem` says why.
   */
  staleSince?: string;
  packages: number;
}

/** `GET /api/catalog/packages`. */
export interface HubList {
  catalogs: CatalogInfo[];
  /** The cluster's node platforms, when the person may list nodes. */
  platforms?: { os: string; arch: string }[];
  facets: Record<string, Record<string, number>>;
  total: number;
  packages: PackageSummary[];
}
