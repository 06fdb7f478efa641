// What the demo catalog is written from: a package with its channels, bundles and APIs, in the
// few fields the fictional operators need; packages.ts holds them, build.ts writes them as FBC.
export type Mode = 'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces';

export interface Descriptor {
  path: string;
  displayName: string;
  description?: string;
  'x-descriptors'?: string[];
}

export interface Crd {
  kind: string;
  plural: string;
  group: string;
  description: string;
  /** How consoles label and show fields of the spec and status (the CSV's descriptors). */
  specDescriptors?: Descriptor[];
  statusDescriptors?: Descriptor[];
}

export interface Bundle {
  version: string;
  /** `olm.maxOpenShiftVersion`: the newest OpenShift minor it runs on. */
  maxOpenShiftVersion?: string;
  replaces?: string;
  skips?: string[];
  skipRange?: string;
  modes?: Mode[];
  requiresGvk?: { group: string; version: string; kind: string }[];
  requiresPackage?: { packageName: string; versionRange: string }[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  /** Channels this version is in (default: the package's first channel). */
  channels?: string[];
  deprecated?: string;
}

export interface Pkg {
  name: string;
  displayName: string;
  provider: string;
  summary: string;
  description: string;
  icon: string;
  categories: string;
  capabilities: 'Basic Install' | 'Seamless Upgrades' | 'Full Lifecycle' | 'Deep Insights' | 'Auto Pilot';
  keywords: string[];
  defaultChannel: string;
  channels: string[];
  owned: Crd[];
  required?: Crd[];
  modes: Mode[];
  bundles: Bundle[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  deprecation?: { package?: string; channels?: Record<string, string> };
  minKubeVersion?: string;
}

export const ALL_MODES: Mode[] = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];

/**
 * A bundle's name, which is its CSV's name and so a Kubernetes object name (a DNS-1123 subdomain,
 * where '+' is refused): `<package>.v<version>`, a '+' of build metadata written as '-', as real
 * catalogs name such bundles (`gatekeeper-operator-product.v3.15.1-0.1726639477.p` for version
 * `3.15.1+0.1726639477.p`). The version itself, build metadata and all, stays in the CSV's
 * `spec.version` and the `olm.package` property, where OLM reads it.
 */
export function bundleName(pkg: string, version: string): string {
  return `${pkg}.v${version.replace(/\+/g, '-')}`;
}
