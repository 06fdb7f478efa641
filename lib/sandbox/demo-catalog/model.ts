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
