// `GET /api/olm-v1/clustercatalogs/<name>/packages/<package>`: a ClusterCatalog's package as OLM v1
// offers it, shared by the route that builds it and the page that shows it. Types only.
import type { PackageDetails } from '../hub/catalog-types';
import type { DeprecationCondition } from '../olm/v1/deprecation';
import type { Allowed } from './catalog-sources';

export interface V1PackageDetails extends PackageDetails {
  clusterCatalog: {
    name: string;
    /** spec.priority: operator-controller prefers the higher where two catalogs offer one version. */
    priority: number;
    /** status.resolvedSource.image.ref: the digest catalogd serves. */
    resolvedRef?: string;
  };
  /**
   * The deprecation conditions operator-controller would set True on a ClusterExtension that
   * installs the chosen version through the chosen channel (PackageDeprecated, ChannelDeprecated,
   * BundleDeprecated), with its messages.
   */
  v1Deprecations: DeprecationCondition[];
  /**
   * What OLM v1 installs from this catalog for the chosen channel when no version is given
   * (non-deprecated first, then the highest version), or operator-controller's words why nothing.
   */
  channelResolvesTo: { bundle: string; version: string } | { error: string };
  /** CatalogSources the person may see that offer the same package (lib/hub/olm-offer.ts). */
  alsoFromCatalogSources: { namespace: string; name: string; displayName?: string }[];
  /** `create clusterextensions.olm.operatorframework.io`, by SelfSubjectAccessReview. */
  canInstall: Allowed;
}
