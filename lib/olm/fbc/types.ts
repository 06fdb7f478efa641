// The file-based catalog (FBC) format as operator-registry's `alpha/declcfg` reads it.
// These types describe the *file format*; the meaning (graphs, heads, update paths) lives in
// `lib/olm/graph`. Field names are the FBC's own.

export const SCHEMA_PACKAGE = 'olm.package';
export const SCHEMA_CHANNEL = 'olm.channel';
export const SCHEMA_BUNDLE = 'olm.bundle';
export const SCHEMA_DEPRECATIONS = 'olm.deprecations';

/** Well-known bundle property types. */
export const PROPERTY_PACKAGE = 'olm.package';
export const PROPERTY_GVK = 'olm.gvk';
export const PROPERTY_GVK_REQUIRED = 'olm.gvk.required';
export const PROPERTY_PACKAGE_REQUIRED = 'olm.package.required';
export const PROPERTY_CSV_METADATA = 'olm.csv.metadata';
export const PROPERTY_BUNDLE_OBJECT = 'olm.bundle.object';
export const PROPERTY_DEPRECATED = 'olm.deprecated';
export const PROPERTY_CONSTRAINT = 'olm.constraint';
export const PROPERTY_MAX_OPENSHIFT_VERSION = 'olm.maxOpenShiftVersion';

export interface Icon {
  base64data?: string | null;
  mediatype?: string;
  /** Seen in real catalogs instead of `mediatype`; kept so callers can fall back to it. */
  type?: string;
}

export interface FbcPackage {
  schema: typeof SCHEMA_PACKAGE;
  name: string;
  defaultChannel?: string;
  icon?: Icon | null;
  description?: string;
}

export interface ChannelEntry {
  name: string;
  replaces?: string;
  skips?: string[];
  skipRange?: string;
}

export interface FbcChannel {
  schema: typeof SCHEMA_CHANNEL;
  name: string;
  package: string;
  entries: ChannelEntry[];
}

export interface Property {
  type: string;
  /** JSON value; its shape depends on `type`. */
  value: unknown;
}

export interface RelatedImage {
  name?: string;
  image: string;
}

export interface FbcBundle {
  schema: typeof SCHEMA_BUNDLE;
  name: string;
  package: string;
  image?: string;
  properties?: Property[];
  relatedImages?: RelatedImage[];
}

export interface DeprecationReference {
  schema: typeof SCHEMA_PACKAGE | typeof SCHEMA_CHANNEL | typeof SCHEMA_BUNDLE;
  /** Empty or absent for `olm.package`. */
  name?: string;
}

export interface DeprecationEntry {
  reference: DeprecationReference;
  message: string;
}

export interface FbcDeprecations {
  schema: typeof SCHEMA_DEPRECATIONS;
  package: string;
  entries: DeprecationEntry[];
}

/** A blob of a schema this project does not interpret; kept, as opm keeps it. */
export interface FbcOther {
  schema: string;
  package?: string;
  name?: string;
  [key: string]: unknown;
}

/** Where a blob came from, so validation errors can name the file and the blob. */
export interface BlobOrigin {
  file: string;
  /** 1-based index of the blob (document or JSON object) within the file. */
  index: number;
}

export interface DeclarativeConfig {
  packages: FbcPackage[];
  channels: FbcChannel[];
  bundles: FbcBundle[];
  deprecations: FbcDeprecations[];
  others: FbcOther[];
}
