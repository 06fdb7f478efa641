// The operator-registry API's messages, built from the FBC model as `opm serve` builds them
// (docs/olm/registry-api.md#behaviour). Pure: the gRPC plumbing is elsewhere.
import { bundleObjects, type BundleModel, type Gvk, type PackageModel } from '../../olm/fbc/model';
import { PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA, type ChannelEntry } from '../../olm/fbc/types';
import { channelHeads } from '../../olm/graph/channel-problems';
import type { BundleMessage, ChannelEntryMessage, GvkMessage, PackageMessage } from '../../olm/registry-api';

export type { BundleMessage, ChannelEntryMessage, GvkMessage, PackageMessage };

function gvk(g: Gvk): GvkMessage {
  return { group: g.group, version: g.version, kind: g.kind, plural: '' };
}

/**
 * The CSV a bundle carries, as JSON text: its `olm.bundle.object` CSV, else one built from its
 * `olm.csv.metadata` as operator-registry's ConvertModelBundleToAPIBundle builds it (the
 * metadata's fields, the package icon, the bundle version and related images, the package
 * description as a fallback, a stub deployment install strategy, and the zero values Go's JSON
 * encoding of the CSV type writes), else empty.
 */
export function csvJsonOf(pkg: PackageModel, bundle: BundleModel, objects = bundleObjects(bundle)): string {
  const csv = objects.find((o) => o.kind === 'ClusterServiceVersion');
  if (csv) return JSON.stringify(csv);
  const meta = bundle.csvMetadata as Record<string, unknown> | undefined;
  if (!meta) return '';
  const pick = (k: string) =>
    meta[k] === undefined || meta[k] === null || (Array.isArray(meta[k]) && !(meta[k] as unknown[]).length)
      ? {}
      : { [k]: meta[k] };
  const relatedImages = bundle.relatedImages.map((r) => ({ name: r.name ?? '', image: r.image }));
  const spec: Record<string, unknown> = {
    ...pick('customresourcedefinitions'),
    ...pick('apiservicedefinitions'),
    ...pick('nativeAPIs'),
    ...pick('minKubeVersion'),
    displayName: meta.displayName ?? '',
    description: (meta.description as string | undefined) || pkg.description || '',
    ...pick('keywords'),
    ...pick('maintainers'),
    provider: meta.provider ?? {},
    ...pick('links'),
    ...(pkg.registryIcon
      ? { icon: [{ base64data: pkg.registryIcon.base64data, mediatype: pkg.registryIcon.mediatype }] }
      : {}),
    installModes: meta.installModes ?? null,
    install: { strategy: 'deployment', spec: { deployments: null } },
    version: bundle.version ?? '',
    ...pick('maturity'),
    ...(relatedImages.length ? { relatedImages } : {}),
    cleanup: { enabled: false },
  };
  // The model's metadata names CRDs and API services as `crdDescriptions`/`apiServiceDefinitions`.
  if (meta.crdDescriptions) spec.customresourcedefinitions = meta.crdDescriptions;
  if (meta.apiServiceDefinitions) spec.apiservicedefinitions = meta.apiServiceDefinitions;
  return JSON.stringify({
    kind: 'ClusterServiceVersion',
    apiVersion: 'operators.coreos.com/v1alpha1',
    metadata: {
      name: bundle.name,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
    spec,
    status: { cleanup: {} },
  });
}

const propertiesCache = new WeakMap<BundleModel, BundleMessage['properties']>();

/**
 * The registry leaves olm.bundle.object and olm.csv.metadata out of properties (its clients copy
 * properties into CSV annotations); the CSV travels only in `object` and `csvJson`, and only
 * from the Get* calls. Written once per bundle: a bundle in several channels is sent once per
 * channel, and a catalog is read again and again.
 */
function propertiesOf(bundle: BundleModel): BundleMessage['properties'] {
  let out = propertiesCache.get(bundle);
  if (!out) {
    out = bundle.properties
      .filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT && p.type !== PROPERTY_CSV_METADATA)
      .map((p) => ({ type: p.type, value: JSON.stringify(p.value) }));
    propertiesCache.set(bundle, out);
  }
  return out;
}

/**
 * One bundle as seen through one channel. `withManifests` adds csvJson and the objects; the
 * registry leaves them out of ListBundles for bundles that have an image.
 */
export function bundleMessage(
  pkg: PackageModel,
  bundle: BundleModel,
  channel: string,
  entry: ChannelEntry | undefined,
  withManifests: boolean,
): BundleMessage {
  const includeManifests = withManifests || !bundle.image;
  const objects = includeManifests ? bundleObjects(bundle) : undefined;
  const csvJson = objects ? csvJsonOf(pkg, bundle, objects) : '';
  return {
    csvName: bundle.name,
    packageName: pkg.name,
    channelName: channel,
    csvJson,
    // A CSV built from olm.csv.metadata is also the bundle's one object.
    object: objects ? (objects.length ? objects.map((o) => JSON.stringify(o)) : csvJson ? [csvJson] : []) : [],
    bundlePath: bundle.image ?? '',
    // The registry sends no plurals: it reads GVKs from olm.gvk properties, which have none.
    providedApis: bundle.providedApis.map((g) => gvk(g)),
    requiredApis: bundle.requiredApis.map((g) => gvk(g)),
    version: bundle.version ?? '',
    skipRange: entry?.skipRange ?? '',
    dependencies: [
      ...bundle.requiredApis.map((g) => ({
        type: 'olm.gvk',
        value: JSON.stringify({ group: g.group, kind: g.kind, version: g.version }),
      })),
      ...bundle.requiredPackages.map((p) => ({
        type: 'olm.package',
        value: JSON.stringify({ packageName: p.packageName, version: p.versionRange }),
      })),
    ],
    properties: propertiesOf(bundle),
    replaces: entry?.replaces ?? '',
    skips: entry?.skips ?? [],
    ...(bundle.deprecation ? { deprecation: { message: bundle.deprecation } } : {}),
  };
}

/** The head of a channel (the one entry nobody replaces or skips), or undefined. */
export function headOf(pkg: PackageModel, channel: string): BundleModel | undefined {
  const ch = pkg.channels.get(channel);
  if (!ch) return undefined;
  const heads = channelHeads(ch.entries);
  return heads.length === 1 ? pkg.bundles.get(heads[0]!) : undefined;
}

/** Channels sorted by name, each with its head. */
export function packageMessage(pkg: PackageModel): PackageMessage {
  return {
    name: pkg.name,
    channels: [...pkg.channels.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((ch) => ({
        name: ch.name,
        csvName: headOf(pkg, ch.name)?.name ?? '',
        ...(ch.deprecation ? { deprecation: { message: ch.deprecation } } : {}),
      })),
    defaultChannelName: pkg.defaultChannel ?? '',
    ...(pkg.deprecation ? { deprecation: { message: pkg.deprecation } } : {}),
  };
}

/** Every (bundle, channel) pair of a package, in channel-name then entry order. */
export function* listBundleMessages(pkg: PackageModel): Generator<BundleMessage> {
  for (const ch of [...pkg.channels.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    for (const entry of ch.entries) {
      const bundle = pkg.bundles.get(entry.name);
      if (bundle) yield bundleMessage(pkg, bundle, ch.name, entry, false);
    }
  }
}

/** For Get* calls: manifests included, replaces and skips cleared (as the registry does). */
export function lookupBundleMessage(pkg: PackageModel, bundle: BundleModel, channel: string): BundleMessage {
  const entry = pkg.channels.get(channel)?.entries.find((e) => e.name === bundle.name);
  return { ...bundleMessage(pkg, bundle, channel, entry, true), replaces: '', skips: [] };
}
