// A catalog read through the registry gRPC API (ListBundles + GetPackage) turned back into FBC
// blobs, so that the same model, validation and graph rules apply to catalogs the console (or the
// sandbox) can only reach over the network. Pure: the caller fetches the messages.
import type { BundleMessage, PackageMessage } from '../registry-api';
import { buildCatalog, type Catalog } from './catalog';
import type {
  ChannelEntry,
  DeclarativeConfig,
  DeprecationEntry,
  FbcBundle,
  FbcChannel,
  FbcDeprecations,
  FbcPackage,
  Property,
} from './types';

/** What the conversion reads of GetPackage and ListBundles answers. */
export type RegistryPackageMessage = Pick<PackageMessage, 'name' | 'defaultChannelName' | 'channels' | 'deprecation'>;
export type RegistryBundleMessage = Pick<
  BundleMessage,
  | 'csvName'
  | 'packageName'
  | 'channelName'
  | 'bundlePath'
  | 'version'
  | 'skipRange'
  | 'replaces'
  | 'skips'
  | 'properties'
  | 'deprecation'
>;

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A property whose value is not JSON is kept as the text it is.
    return text;
  }
}

/** DeclarativeConfig from registry messages: one channel entry per (bundle, channel) message. */
export function configFromRegistry(
  packages: readonly RegistryPackageMessage[],
  bundles: readonly RegistryBundleMessage[],
): DeclarativeConfig {
  const config: DeclarativeConfig = { packages: [], channels: [], bundles: [], deprecations: [], others: [] };
  const channels = new Map<string, FbcChannel>();
  const seenBundles = new Set<string>();
  const deprecations = new Map<string, DeprecationEntry[]>();
  const deprecate = (pkg: string, e: DeprecationEntry) => deprecations.set(pkg, [...(deprecations.get(pkg) ?? []), e]);

  for (const p of packages) {
    config.packages.push({
      schema: 'olm.package',
      name: p.name,
      defaultChannel: p.defaultChannelName || undefined,
    } satisfies FbcPackage);
    if (p.deprecation?.message)
      deprecate(p.name, { reference: { schema: 'olm.package' }, message: p.deprecation.message });
    for (const ch of p.channels)
      if (ch.deprecation?.message)
        deprecate(p.name, { reference: { schema: 'olm.channel', name: ch.name }, message: ch.deprecation.message });
  }
  for (const b of bundles) {
    const key = `${b.packageName}/${b.channelName}`;
    let ch = channels.get(key);
    if (!ch) {
      ch = { schema: 'olm.channel', name: b.channelName, package: b.packageName, entries: [] };
      channels.set(key, ch);
      config.channels.push(ch);
    }
    const entry: ChannelEntry = { name: b.csvName };
    if (b.replaces) entry.replaces = b.replaces;
    if (b.skips.length) entry.skips = [...b.skips];
    if (b.skipRange) entry.skipRange = b.skipRange;
    ch.entries.push(entry);
    const bundleKey = `${b.packageName}/${b.csvName}`;
    if (seenBundles.has(bundleKey)) continue;
    seenBundles.add(bundleKey);
    const properties: Property[] = b.properties.map((p) => ({ type: p.type, value: parseValue(p.value) }));
    config.bundles.push({
      schema: 'olm.bundle',
      name: b.csvName,
      package: b.packageName,
      ...(b.bundlePath ? { image: b.bundlePath } : {}),
      properties,
    } satisfies FbcBundle);
    if (b.deprecation?.message)
      deprecate(b.packageName, {
        reference: { schema: 'olm.bundle', name: b.csvName },
        message: b.deprecation.message,
      });
  }
  for (const [pkg, entries] of deprecations)
    config.deprecations.push({ schema: 'olm.deprecations', package: pkg, entries } satisfies FbcDeprecations);
  return config;
}

export function catalogFromRegistry(
  packages: readonly RegistryPackageMessage[],
  bundles: readonly RegistryBundleMessage[],
): Catalog {
  return buildCatalog(configFromRegistry(packages, bundles));
}
