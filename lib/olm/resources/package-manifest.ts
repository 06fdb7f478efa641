// PackageManifest (packages.operators.coreos.com/v1, served by packageserver), docs/olm/packageserver.md.
import type { CrdDescription, InstallMode } from './cluster-service-version';
import { PACKAGES_GROUP, type KubeObject, type ResourceType } from './common';

export const PACKAGE_MANIFEST_TYPE: ResourceType = {
  group: PACKAGES_GROUP,
  version: 'v1',
  plural: 'packagemanifests',
  namespaced: true,
  kind: 'PackageManifest',
};

export interface CsvDescription {
  displayName?: string;
  icon?: { base64data: string; mediatype: string }[];
  version?: string;
  provider?: { name?: string; url?: string };
  annotations?: Record<string, string>;
  keywords?: string[];
  links?: { name?: string; url?: string }[];
  maintainers?: { name?: string; email?: string }[];
  maturity?: string;
  description?: string;
  installModes?: InstallMode[];
  customresourcedefinitions?: { owned?: CrdDescription[]; required?: CrdDescription[] };
  apiservicedefinitions?: { owned?: unknown[]; required?: unknown[] };
  /** Note the spelling, unlike the CSV's `nativeAPIs`. */
  nativeApis?: unknown[];
  minKubeVersion?: string;
  relatedImages?: string[];
}

export interface PackageChannel {
  name: string;
  currentCSV: string;
  currentCSVDesc?: CsvDescription;
  deprecation?: { message: string };
  entries?: { name: string; version: string; deprecation?: { message: string } }[];
}

export interface PackageManifest extends KubeObject {
  spec?: Record<string, never>;
  status: {
    catalogSource: string;
    catalogSourceDisplayName?: string;
    catalogSourcePublisher?: string;
    catalogSourceNamespace: string;
    provider?: { name?: string; url?: string };
    packageName: string;
    deprecation?: { message: string };
    defaultChannel: string;
    channels: PackageChannel[];
  };
}
