// What one version of a ClusterCatalog package brings (lib/olm/bundle/brings.ts), for the OLM v1
// package page and install wizard: the package read as the person from the content catalogd
// serves (package-lookup.ts, with its 404s in words), the version picked as the details page
// picks it, and the bundle's objects from the catalog's inline `olm.bundle.object`s or its image
// (bundle-images/bundle-manifests.ts), the same reader the wizard's installer rights use.
import type { PackageBrings } from '../../api/package-brings';
import type { Selection } from '../../catalog/package-details';
import { detailsFromModel } from '../../catalog/package-details';
import type { KubeClient } from '../../k8s/client';
import { bundleManifests } from '../bundle-images/bundle-manifests';
import { packageBringsOf, withChannelOf } from '../package-brings';
import { findV1Package } from './package-lookup';

export async function v1PackageBrings(
  client: KubeClient,
  catalogName: string,
  pkgName: string,
  sel: Selection,
): Promise<PackageBrings> {
  const { pkg } = await findV1Package(client, catalogName, pkgName);
  const { selected } = detailsFromModel(
    pkg,
    { name: catalogName, namespace: '', kind: 'ClusterCatalog' },
    withChannelOf(pkg, sel),
  );
  const bundle = pkg.bundles.get(selected.csvName);
  if (!bundle)
    return packageBringsOf(selected, { unknown: `ClusterCatalog ${catalogName} has no bundle ${selected.csvName}` });
  const manifests = await bundleManifests(bundle, undefined, {
    client,
    catalog: { kind: 'ClusterCatalog', name: catalogName },
  });
  return packageBringsOf(
    selected,
    'unknown' in manifests ? { unknown: `${manifests.unknown} (ClusterCatalog ${catalogName})` } : manifests,
  );
}
