// A ClusterCatalog package's details page data: the channels, versions and facts the v0 page shows
// (lib/catalog/package-details.ts reads the same FBC model), and what is OLM v1's own: the
// deprecation conditions an extension installing the chosen version would carry, the CatalogSources
// that offer the same package, and whether the person may create a ClusterExtension.
import type { V1PackageDetails } from '../../api/olm-v1-packages';
import { GLOBAL_CATALOG_NAMESPACES } from '../../catalog/catalog-index';
import { detailsFromModel, type Selection } from '../../catalog/package-details';
import { sameOffer } from '../../hub/olm-offer';
import type { KubeClient } from '../../k8s/client';
import { deprecationConditions } from '../../olm/v1/deprecation';
import { resolveBundle } from '../../olm/v1/resolve';
import { nodePlatforms } from '../node-platforms';
import { accessReview } from '../permissions';
import { v1HubPackages } from './hub-packages';
import { findV1Package } from './package-lookup';
import { OLM_V1_GROUP } from './resources';
import { catalogIndexOf } from '../fleet/catalog-indexes';

/** The CatalogSources offering the same package as this ClusterCatalog's (lib/hub/olm-offer.ts's rule). */
async function sameInCatalogSources(
  client: KubeClient,
  catalogName: string,
  pkgName: string,
): Promise<V1PackageDetails['alsoFromCatalogSources']> {
  const v1 = (await v1HubPackages(client)).packages.find((p) => p.catalog.name === catalogName && p.name === pkgName);
  if (!v1) return [];
  const { packages } = await catalogIndexOf(client).forUser(client, [...GLOBAL_CATALOG_NAMESPACES]);
  return packages
    .filter((p) => p.catalog.kind !== 'ClusterCatalog' && sameOffer(p, v1))
    .map((p) => ({
      namespace: p.catalog.namespace,
      name: p.catalog.name,
      ...(p.catalog.displayName ? { displayName: p.catalog.displayName } : {}),
    }));
}

export async function v1PackageDetails(
  client: KubeClient,
  catalogName: string,
  pkgName: string,
  sel: Selection,
): Promise<V1PackageDetails> {
  const { catalog, content, pkg } = await findV1Package(client, catalogName, pkgName);
  // Picks the version first: an unknown channel or version is a 404 before anything else is asked.
  const details = detailsFromModel(pkg, { name: catalogName, namespace: '', kind: 'ClusterCatalog' }, sel);
  const [alsoFromCatalogSources, canInstall, platforms] = await Promise.all([
    sameInCatalogSources(client, catalogName, pkgName),
    accessReview(client, 'create', OLM_V1_GROUP, 'clusterextensions'),
    nodePlatforms(client),
  ]);
  const fbc = content.configs.get(pkgName);
  const v1Deprecations = deprecationConditions(
    details.selected.csvName,
    [details.selected.channel],
    fbc?.deprecations[0],
  )
    // The aggregate repeats the three; False conditions say nothing to someone browsing.
    .filter((c) => c.type !== 'Deprecated' && c.status === 'True');
  // What a ClusterExtension naming this package and channel, and no version, gets from this catalog.
  const resolved = fbc
    ? resolveBundle({ packageName: pkgName, channels: [details.selected.channel] }, [
        { catalog: catalogName, priority: catalog.facts.priority, fbc },
      ])
    : { error: `ClusterCatalog ${catalogName} has no documents for package ${pkgName}` };
  return {
    ...details,
    source: 'catalogd',
    channelResolvesTo:
      'error' in resolved ? { error: resolved.error } : { bundle: resolved.bundle.name, version: resolved.version },
    ...(platforms ? { platforms } : {}),
    clusterCatalog: {
      name: catalogName,
      priority: catalog.facts.priority,
      ...(catalog.facts.resolvedRef ? { resolvedRef: catalog.facts.resolvedRef } : {}),
    },
    v1Deprecations,
    alsoFromCatalogSources,
    canInstall,
  };
}
