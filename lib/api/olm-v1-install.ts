// The OLM v1 install wizard's conversation with the server: the body it sends to
// POST /api/olm-v1/clusterextensions(/plan) and what the dry run answers.
import type { V1InstallPlan, V1Notice } from '../olm/v1/install-plan';
import type { UpgradeConstraintPolicy } from '../olm/v1/resolve';

export type { V1InstallPlan, V1Notice };

export interface V1InstallRequestBody {
  catalog: string;
  packageName: string;
  name: string;
  namespace: string;
  serviceAccount: { name: string; grant: boolean };
  version?: string;
  channels: string[];
  onlyThisCatalog: boolean;
  upgradeConstraintPolicy: UpgradeConstraintPolicy;
}

/** The package as the wizard offers it: display name, channels with their versions, highest first. */
export interface V1PackageView {
  name: string;
  displayName?: string;
  defaultChannel?: string;
  channels: { name: string; versions: string[]; deprecation?: string }[];
  /** Every version of the package in the catalog, highest first. */
  versions: string[];
}

export interface V1PlanAnswer {
  plan: V1InstallPlan;
  package: V1PackageView;
}

export interface V1InstallAnswer {
  name: string;
  created: { kind: string; name: string; namespace?: string }[];
  reused: { kind: string; name: string; namespace?: string }[];
  warnings: V1Notice[];
}
