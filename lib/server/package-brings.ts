// What one version of a catalog package brings (lib/olm/bundle/brings.ts), for the OLM v0 package
// page and install wizard: the package is found as the person (package-lookup.ts), the version
// picked as the details page picks it (an unknown channel or version is the same 404), and the
// bundle's objects read where the catalog keeps them: its own properties, else the registry's
// GetBundle (as OLM's catalog operator asks for them, through this person's way to the registry),
// else its image (bundle-images/bundle-manifests.ts). A package seen only through PackageManifests
// has neither objects nor image: that is said.
import type { PackageBrings } from '../api/package-brings';
import { detailsFromManifest, detailsFromModel, type Selection } from '../catalog/package-details';
import { bundleBrings } from '../olm/bundle/brings';
import type { BundleObject } from '../olm/bundle/registry-v1-files';
import { bundleObjects } from '../olm/fbc/model';
import type { BundleModel, PackageModel } from '../olm/fbc/model';
import { bundleManifests, type BundleManifests } from './bundle-images/bundle-manifests';
import { findPackage, type PackageParams } from './package-lookup';
import { catalogIndexOf } from './fleet/catalog-indexes';

/** The answer for the chosen version, given its manifests (or why they are not known). */
export function packageBringsOf(
  selected: { channel: string; csvName: string; version?: string },
  manifests: BundleManifests,
): PackageBrings {
  const version = {
    channel: selected.channel,
    csvName: selected.csvName,
    ...(selected.version ? { version: selected.version } : {}),
  };
  if ('unknown' in manifests) return { ...version, unknown: manifests.unknown };
  return { ...version, brings: bundleBrings({ csv: manifests.csv, others: manifests.others }), from: manifests.from };
}

/**
 * The selection with a channel when only a version is named: the default channel when it has that
 * version (by CSV name or version), else the first channel by name that has it. A version is one
 * bundle whichever channel lists it, and the v1 wizard knows the bundle it resolved, not a channel.
 */
export function withChannelOf(pkg: PackageModel, sel: Selection): Selection {
  if (sel.channel !== undefined || sel.version === undefined) return sel;
  const has = (channel: string) =>
    pkg.channels
      .get(channel)
      ?.entries.some((e) => e.name === sel.version || pkg.bundles.get(e.name)?.version === sel.version);
  const names = [...pkg.channels.keys()].sort();
  const channel = pkg.defaultChannel && has(pkg.defaultChannel) ? pkg.defaultChannel : names.find(has);
  return channel ? { ...sel, channel } : sel;
}

const hasInlineCsv = (b: BundleModel) =>
  bundleObjects({ properties: b.properties }).some((o) => (o as { kind?: unknown }).kind === 'ClusterServiceVersion');

export async function v0PackageBrings(
  req: Request,
  params: PackageParams,
  sel: Selection & { namespace?: string },
): Promise<PackageBrings> {
  const { client, lookup } = await findPackage(req, params, sel.namespace);
  if (lookup.source === 'packagemanifests') {
    const { selected } = detailsFromManifest(lookup.manifest, sel);
    return packageBringsOf(selected, {
      unknown:
        `catalog ${params.namespace}/${params.catalog} reaches you only through PackageManifests, ` +
        "which carry neither a bundle's manifests nor its image",
    });
  }
  const { selected } = detailsFromModel(lookup.pkg, lookup.catalog, withChannelOf(lookup.pkg, sel));
  const bundle = lookup.pkg.bundles.get(selected.csvName);
  if (!bundle) return packageBringsOf(selected, { unknown: `the catalog has no bundle ${selected.csvName}` });
  if (!hasInlineCsv(bundle)) {
    const answer = await catalogIndexOf(client).bundleObjects(
      lookup.address,
      lookup.pkg.name,
      selected.channel,
      selected.csvName,
    );
    // The registry's objects are catalog content: anything but an object is skipped.
    const objects = Array.isArray(answer)
      ? answer.filter((o): o is BundleObject => typeof o === 'object' && o !== null && !Array.isArray(o))
      : [];
    const csv = objects.find((o) => o.kind === 'ClusterServiceVersion');
    if (csv) return packageBringsOf(selected, { csv, others: objects.filter((o) => o !== csv), from: 'catalog' });
  }
  return packageBringsOf(
    selected,
    await bundleManifests(bundle, undefined, {
      client,
      catalog: { kind: 'CatalogSource', namespace: params.namespace, name: params.catalog },
    }),
  );
}
