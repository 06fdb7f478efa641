// The operator-registry API's messages, built from the FBC model as `opm serve` builds them
// (../shared/registry-api.md "Behaviour worth knowing"). Pure: the gRPC plumbing is elsewhere.
import { bundleObjects, type BundleModel, type Gvk, type PackageModel } from '../../olm/fbc/model';
import { PROPERTY_BUNDLE_OBJECT, type ChannelEntry } from '../../olm/fbc/types';
import { channelHeads } from '../../olm/graph/channel-problems';
import type { BundleMessage, ChannelEntryMessage, GvkMessage, PackageMessage } from '../../olm/registry-api';

export type { BundleMessage, ChannelEntryMessage, GvkMessage, PackageMessage };

function gvk(g: Gvk, plural = ''): GvkMessage {
  return { group: g.group, version: g.version, kind: g.kind, plural };
}

// Decoding a bundle's objects to find its plurals is most of the cost of a ListBundles answer,
// and the model does not change while a catalog is served: remember them per bundle.
const pluralsCache = new WeakMap<BundleModel, Map<string, string>>();

/** Plurals of owned CRDs, read from the bundle's CRD objects or CSV metadata where present. */
function pluralsOf(bundle: BundleModel, objects?: Record<string, unknown>[]): Map<string, string> {
  const known = pluralsCache.get(bundle);
  if (known) return known;
  const out = new Map<string, string>();
  pluralsCache.set(bundle, out);
  objects ??= bundleObjects(bundle);
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition') continue;
    const spec = o.spec as { group?: string; names?: { plural?: string; kind?: string } } | undefined;
    if (spec?.group && spec.names?.kind && spec.names.plural) out.set(`${spec.group}/${spec.names.kind}`, spec.names.plural);
  }
  const owned = ((bundle.csvMetadata?.crdDescriptions as { owned?: { name?: string; kind?: string }[] } | undefined)?.owned ?? []);
  for (const d of owned) {
    if (!d.name || !d.kind) continue;
    const [plural, ...group] = d.name.split('.');
    if (plural && !out.has(`${group.join('.')}/${d.kind}`)) out.set(`${group.join('.')}/${d.kind}`, plural);
  }
  return out;
}

/**
 * The CSV a bundle carries, as JSON text: its `olm.bundle.object` CSV, else one built from its
 * `olm.csv.metadata` (with the package icon, the bundle version, the package description as a
 * fallback and a deployment install strategy, as the registry does), else empty.
 */
export function csvJsonOf(pkg: PackageModel, bundle: BundleModel, objects = bundleObjects(bundle)): string {
  const csv = objects.find((o) => o.kind === 'ClusterServiceVersion');
  if (csv) return JSON.stringify(csv);
  const meta = bundle.csvMetadata;
  if (!meta) return '';
  const { annotations, labels, crdDescriptions, apiServiceDefinitions, ...rest } = meta as Record<string, unknown>;
  const spec: Record<string, unknown> = {
    ...rest,
    version: bundle.version,
    description: (rest.description as string | undefined) || pkg.description || '',
    install: { strategy: 'deployment' },
  };
  if (crdDescriptions) spec.customresourcedefinitions = crdDescriptions;
  if (apiServiceDefinitions) spec.apiservicedefinitions = apiServiceDefinitions;
  if (pkg.icon) spec.icon = [{ base64data: pkg.icon.base64data, mediatype: pkg.icon.mediatype }];
  return JSON.stringify({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: bundle.name, ...(annotations ? { annotations } : {}), ...(labels ? { labels } : {}) },
    spec,
  });
}

const propertiesCache = new WeakMap<BundleModel, BundleMessage['properties']>();

/**
 * The registry leaves olm.bundle.object out of properties (its clients copy properties into CSV
 * annotations); the objects travel only in `object` and `csvJson`. Written once per bundle: a
 * bundle in several channels is sent once per channel, and a catalog is read again and again.
 */
function propertiesOf(bundle: BundleModel): BundleMessage['properties'] {
  let out = propertiesCache.get(bundle);
  if (!out) {
    out = bundle.properties.filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT).map((p) => ({ type: p.type, value: JSON.stringify(p.value) }));
    propertiesCache.set(bundle, out);
  }
  return out;
}

/**
 * One bundle as seen through one channel. `withManifests` adds csvJson and the objects; the
 * registry leaves them out of ListBundles for bundles that have an image.
 */
export function bundleMessage(pkg: PackageModel, bundle: BundleModel, channel: string, entry: ChannelEntry | undefined, withManifests: boolean): BundleMessage {
  const includeManifests = withManifests || !bundle.image;
  const objects = includeManifests ? bundleObjects(bundle) : undefined;
  const plurals = pluralsOf(bundle, objects);
  return {
    csvName: bundle.name,
    packageName: pkg.name,
    channelName: channel,
    csvJson: objects ? csvJsonOf(pkg, bundle, objects) : '',
    object: objects ? objects.map((o) => JSON.stringify(o)) : [],
    bundlePath: bundle.image ?? '',
    providedApis: bundle.providedApis.map((g) => gvk(g, plurals.get(`${g.group}/${g.kind}`))),
    requiredApis: bundle.requiredApis.map((g) => gvk(g)),
    version: bundle.version ?? '',
    skipRange: entry?.skipRange ?? '',
    dependencies: [
      ...bundle.requiredApis.map((g) => ({ type: 'olm.gvk', value: JSON.stringify({ group: g.group, kind: g.kind, version: g.version }) })),
      ...bundle.requiredPackages.map((p) => ({ type: 'olm.package', value: JSON.stringify({ packageName: p.packageName, version: p.versionRange }) })),
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
      .map((ch) => ({ name: ch.name, csvName: headOf(pkg, ch.name)?.name ?? '', ...(ch.deprecation ? { deprecation: { message: ch.deprecation } } : {}) })),
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
