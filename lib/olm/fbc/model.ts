// The meaning of a catalog: DeclarativeConfig blobs grouped into packages with their channels,
// bundles and deprecations, bundle properties decoded. Real catalogs are third-party data, so
// every field is read defensively (numbers where strings belong, nulls, odd icon keys).
// Structural problems met while grouping (duplicates, blobs naming an unknown package) are
// recorded, not thrown; validate.ts checks the rest.
import {
  PROPERTY_BUNDLE_OBJECT,
  PROPERTY_CSV_METADATA,
  PROPERTY_DEPRECATED,
  PROPERTY_GVK,
  PROPERTY_GVK_REQUIRED,
  PROPERTY_MAX_OPENSHIFT_VERSION,
  PROPERTY_PACKAGE,
  PROPERTY_PACKAGE_REQUIRED,
  SCHEMA_BUNDLE,
  SCHEMA_CHANNEL,
  SCHEMA_PACKAGE,
  type BlobOrigin,
  type ChannelEntry,
  type DeclarativeConfig,
  type FbcOther,
  type Property,
  type RelatedImage,
} from './types';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

export interface PackageRequirement {
  packageName: string;
  versionRange: string;
}

export interface PackageIcon {
  base64data: string;
  mediatype: string;
}

export interface BundleModel {
  name: string;
  package: string;
  image?: string;
  /** The `olm.package` property's version, as written (validate.ts checks it is strict semver). */
  version?: string;
  /** How many `olm.package` properties the bundle carries (must be one). */
  packageProperties: number;
  /** The package the `olm.package` property names. */
  propertyPackage?: string;
  properties: Property[];
  providedApis: Gvk[];
  requiredApis: Gvk[];
  requiredPackages: PackageRequirement[];
  /** The CSV metadata object (`olm.csv.metadata`), when the bundle has one. */
  csvMetadata?: Record<string, unknown>;
  /** How many `olm.bundle.object` properties the bundle carries; decode with bundleObjects(). */
  bundleObjectCount: number;
  maxOpenShiftVersion?: string;
  /** A legacy `olm.deprecated` property: the resolver never picks such a bundle. */
  legacyDeprecated: boolean;
  relatedImages: RelatedImage[];
  deprecation?: string;
  /** The channels whose entries name this bundle, in channel-name order. */
  channels: string[];
  origin?: BlobOrigin;
}

export interface ChannelModel {
  name: string;
  package: string;
  entries: ChannelEntry[];
  deprecation?: string;
  origin?: BlobOrigin;
}

export interface PackageModel {
  name: string;
  defaultChannel?: string;
  icon?: PackageIcon;
  /**
   * The icon as operator-registry's declcfg reads it, for what the registry API sends: present
   * whenever the package names an icon object, `base64data` re-encoded, `mediatype` only from that
   * key (a catalog writing `type:` gets an empty one).
   */
  registryIcon?: PackageIcon;
  description?: string;
  deprecation?: string;
  channels: Map<string, ChannelModel>;
  bundles: Map<string, BundleModel>;
  /** Blobs of schemas this project does not interpret, kept as opm keeps them. */
  others: FbcOther[];
  origin?: BlobOrigin;
}

export interface ModelProblem {
  package: string;
  channel?: string;
  bundle?: string;
  origin?: BlobOrigin;
  message: string;
}

export interface CatalogModel {
  packages: Map<string, PackageModel>;
  /** Unknown-schema blobs that name no package. */
  others: FbcOther[];
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Base64 as Go writes it back after reading it (standard alphabet, padded, no white space). */
function canonicalBase64(text: string): string {
  try {
    return btoa(atob(text.replace(/\s+/g, '')));
  } catch {
    return text;
  }
}

function readIcon(v: unknown): PackageIcon | undefined {
  if (!isRecord(v)) return undefined;
  const data = str(v.base64data);
  const mediatype = str(v.mediatype) ?? str(v.mediaType) ?? str(v.type);
  if (!data || !mediatype) return undefined;
  return { base64data: data, mediatype };
}

/** A property value that a few catalogs write as a JSON string instead of an object. */
function propertyObject(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function readGvk(value: unknown): Gvk | undefined {
  const o = propertyObject(value);
  if (!o) return undefined;
  const kind = str(o.kind);
  const version = str(o.version);
  if (!kind || !version) return undefined;
  return { group: str(o.group) ?? '', version, kind };
}

function readEntries(v: unknown): ChannelEntry[] {
  if (!Array.isArray(v)) return [];
  const out: ChannelEntry[] = [];
  for (const raw of v) {
    if (!isRecord(raw)) continue;
    const name = str(raw.name);
    if (!name) continue;
    const entry: ChannelEntry = { name };
    const replaces = str(raw.replaces);
    if (replaces) entry.replaces = replaces;
    if (Array.isArray(raw.skips)) entry.skips = raw.skips.map((s) => str(s) ?? '');
    const skipRange = str(raw.skipRange);
    if (skipRange) entry.skipRange = skipRange;
    out.push(entry);
  }
  return out;
}

function readBundle(blob: Record<string, unknown>, origin: BlobOrigin | undefined): BundleModel {
  const properties: Property[] = Array.isArray(blob.properties)
    ? blob.properties.filter((p): p is Property => isRecord(p) && typeof p.type === 'string')
    : [];
  const b: BundleModel = {
    name: str(blob.name) ?? '',
    package: str(blob.package) ?? '',
    image: str(blob.image) || undefined,
    packageProperties: 0,
    properties,
    providedApis: [],
    requiredApis: [],
    requiredPackages: [],
    bundleObjectCount: 0,
    legacyDeprecated: false,
    relatedImages: Array.isArray(blob.relatedImages)
      ? blob.relatedImages.filter((r): r is RelatedImage => isRecord(r) && typeof r.image === 'string')
      : [],
    channels: [],
    origin,
  };
  for (const p of properties) {
    switch (p.type) {
      case PROPERTY_PACKAGE: {
        b.packageProperties++;
        const o = propertyObject(p.value);
        b.propertyPackage = str(o?.packageName);
        b.version = str(o?.version);
        break;
      }
      case PROPERTY_GVK: {
        const g = readGvk(p.value);
        if (g) b.providedApis.push(g);
        break;
      }
      case PROPERTY_GVK_REQUIRED: {
        const g = readGvk(p.value);
        if (g) b.requiredApis.push(g);
        break;
      }
      case PROPERTY_PACKAGE_REQUIRED: {
        const o = propertyObject(p.value);
        const packageName = str(o?.packageName);
        if (packageName) b.requiredPackages.push({ packageName, versionRange: str(o?.versionRange) ?? '' });
        break;
      }
      case PROPERTY_CSV_METADATA:
        b.csvMetadata = propertyObject(p.value);
        break;
      case PROPERTY_BUNDLE_OBJECT:
        b.bundleObjectCount++;
        break;
      case PROPERTY_MAX_OPENSHIFT_VERSION: {
        const v = str(p.value);
        if (v) b.maxOpenShiftVersion = v;
        break;
      }
      case PROPERTY_DEPRECATED:
        b.legacyDeprecated = true;
        break;
    }
  }
  return b;
}

/**
 * The Kubernetes objects a bundle carries in `olm.bundle.object` properties, decoded. Decoding is
 * left until asked for: these base64 blobs are most of a catalog's bytes and few are ever read.
 */
export function bundleObjects(bundle: Pick<BundleModel, 'properties'>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const p of bundle.properties) {
    if (p.type !== PROPERTY_BUNDLE_OBJECT) continue;
    const data = isRecord(p.value) ? str(p.value.data) : undefined;
    if (!data) continue;
    try {
      const obj: unknown = JSON.parse(decodeBase64(data));
      if (isRecord(obj)) out.push(obj);
    } catch {
      // An undecodable object is skipped; validation does not depend on it.
    }
  }
  return out;
}

/** The bundle's ClusterServiceVersion, from its `olm.bundle.object` properties, if it has one. */
export function bundleCsv(bundle: Pick<BundleModel, 'properties'>): Record<string, unknown> | undefined {
  return bundleObjects(bundle).find((o) => o.kind === 'ClusterServiceVersion');
}

function decodeBase64(data: string): string {
  // atob exists in browsers and in Node 16+; TextDecoder keeps UTF-8 intact.
  const bin = atob(data);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Groups a DeclarativeConfig into packages, recording the structural problems it meets. */
export function buildModel(
  config: DeclarativeConfig,
  origins?: ReadonlyMap<object, BlobOrigin>,
): { model: CatalogModel; problems: ModelProblem[] } {
  const problems: ModelProblem[] = [];
  const packages = new Map<string, PackageModel>();
  const where = (blob: object) => origins?.get(blob);

  for (const p of config.packages) {
    const blob = p as unknown as Record<string, unknown>;
    const name = str(blob.name) ?? '';
    if (packages.has(name)) {
      problems.push({ package: name, origin: where(p), message: `duplicate package "${name}"` });
      continue;
    }
    packages.set(name, {
      name,
      defaultChannel: str(blob.defaultChannel) || undefined,
      icon: readIcon(blob.icon),
      ...(isRecord(blob.icon)
        ? {
            registryIcon: {
              base64data: canonicalBase64(str(blob.icon.base64data) ?? ''),
              mediatype: str(blob.icon.mediatype) ?? '',
            },
          }
        : {}),
      description: str(blob.description) || undefined,
      channels: new Map(),
      bundles: new Map(),
      others: [],
      origin: where(p),
    });
  }

  const owner = (
    pkgName: string,
    what: string,
    origin: BlobOrigin | undefined,
    extra: Partial<ModelProblem>,
  ): PackageModel | undefined => {
    const pkg = packages.get(pkgName);
    if (!pkg)
      problems.push({
        package: pkgName,
        origin,
        message: `${what} refers to package "${pkgName}", which has no olm.package blob`,
        ...extra,
      });
    return pkg;
  };

  for (const c of config.channels) {
    const blob = c as unknown as Record<string, unknown>;
    const name = str(blob.name) ?? '';
    const pkgName = str(blob.package) ?? '';
    const pkg = owner(pkgName, `channel "${name}"`, where(c), { channel: name });
    if (!pkg) continue;
    if (pkg.channels.has(name)) {
      problems.push({ package: pkgName, channel: name, origin: where(c), message: `duplicate channel "${name}"` });
      continue;
    }
    pkg.channels.set(name, { name, package: pkgName, entries: readEntries(blob.entries), origin: where(c) });
  }

  for (const b of config.bundles) {
    const bundle = readBundle(b as unknown as Record<string, unknown>, where(b));
    const pkg = owner(bundle.package, `bundle "${bundle.name}"`, bundle.origin, { bundle: bundle.name });
    if (!pkg) continue;
    if (pkg.bundles.has(bundle.name)) {
      problems.push({
        package: pkg.name,
        bundle: bundle.name,
        origin: bundle.origin,
        message: `duplicate bundle "${bundle.name}"`,
      });
      continue;
    }
    pkg.bundles.set(bundle.name, bundle);
  }

  for (const pkg of packages.values()) {
    const channelNames = [...pkg.channels.keys()].sort();
    for (const ch of channelNames) {
      for (const e of pkg.channels.get(ch)!.entries) {
        const bundle = pkg.bundles.get(e.name);
        if (bundle && bundle.channels[bundle.channels.length - 1] !== ch) bundle.channels.push(ch);
      }
    }
  }

  for (const d of config.deprecations) {
    const blob = d as unknown as Record<string, unknown>;
    const pkgName = str(blob.package) ?? '';
    const pkg = owner(pkgName, 'olm.deprecations', where(d), {});
    if (!pkg) continue;
    for (const raw of Array.isArray(blob.entries) ? blob.entries : []) {
      if (!isRecord(raw) || !isRecord(raw.reference)) continue;
      const schema = str(raw.reference.schema);
      const refName = str(raw.reference.name) ?? '';
      const message = str(raw.message) ?? '';
      if (schema === SCHEMA_PACKAGE) pkg.deprecation = message;
      else if (schema === SCHEMA_CHANNEL) {
        const ch = pkg.channels.get(refName);
        if (ch) ch.deprecation = message;
        else
          problems.push({
            package: pkgName,
            channel: refName,
            origin: where(d),
            message: `olm.deprecations refers to channel "${refName}", which the package does not have`,
          });
      } else if (schema === SCHEMA_BUNDLE) {
        const bundle = pkg.bundles.get(refName);
        if (bundle) bundle.deprecation = message;
        else
          problems.push({
            package: pkgName,
            bundle: refName,
            origin: where(d),
            message: `olm.deprecations refers to bundle "${refName}", which the package does not have`,
          });
      } else {
        problems.push({
          package: pkgName,
          origin: where(d),
          message: `olm.deprecations entry has unknown reference schema "${schema ?? ''}"`,
        });
      }
    }
  }

  const others: FbcOther[] = [];
  for (const o of config.others) {
    const pkg = typeof o.package === 'string' ? packages.get(o.package) : undefined;
    if (pkg) pkg.others.push(o);
    else others.push(o);
  }

  return { model: { packages, others }, problems };
}
