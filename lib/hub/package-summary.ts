// What an OperatorHub tile and its filters know about a package: built on the server
// (lib/catalog/package-summary.ts), searched and filtered in the browser and on the server.
import type { InstallModeType } from '../olm/resources/cluster-service-version';

export interface PackageSummary {
  name: string;
  catalog: { name: string; namespace: string; displayName?: string };
  displayName: string;
  provider: string;
  /** One or two sentences for a tile. */
  shortDescription: string;
  categories: string[];
  capability?: string;
  keywords: string[];
  defaultChannel?: string;
  headVersion?: string;
  installModes: InstallModeType[];
  infrastructureFeatures: string[];
  validSubscription: string[];
  deprecation?: string;
  /** `operators.operatorframework.io/operator-type: non-standalone`: not offered as a tile. */
  nonStandalone: boolean;
  /** Architectures and operating systems the head declares (`operatorframework.io/arch.*`). */
  arch: string[];
  os: string[];
  /** Namespaces with a Subscription to this package from this catalog (per person, per request). */
  installedIn?: string[];
}
