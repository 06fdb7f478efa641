// ClusterServiceVersion (operators.coreos.com/v1alpha1), docs/olm/csv-phases.md.
import { Keys, OLM_GROUP, type KubeObject, type LabelSelector, type ResourceType } from './common';

export const CSV_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1alpha1',
  plural: 'clusterserviceversions',
  namespaced: true,
  kind: 'ClusterServiceVersion',
};

export type InstallModeType = 'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces';
export const INSTALL_MODE_TYPES: readonly InstallModeType[] = [
  'AllNamespaces',
  'OwnNamespace',
  'SingleNamespace',
  'MultiNamespace',
];

export interface InstallMode {
  type: InstallModeType | string;
  supported: boolean;
}

export interface CrdDescription {
  name: string;
  version: string;
  kind: string;
  displayName?: string;
  description?: string;
  resources?: { kind: string; name?: string; version: string }[];
  specDescriptors?: unknown[];
  statusDescriptors?: unknown[];
  actionDescriptors?: unknown[];
}

export interface ApiServiceDescription {
  name: string;
  group: string;
  version: string;
  kind: string;
  displayName?: string;
  description?: string;
  deploymentName?: string;
}

export interface StrategyDeployment {
  name: string;
  spec: Record<string, unknown>;
  label?: Record<string, string>;
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface StrategyPermissions {
  serviceAccountName: string;
  rules: PolicyRule[];
}

export type CsvPhase =
  | ''
  | 'None'
  | 'Pending'
  | 'InstallReady'
  | 'Installing'
  | 'Succeeded'
  | 'Failed'
  | 'Unknown'
  | 'Replacing'
  | 'Deleting'
  | 'Any';

export interface CsvCondition {
  phase: CsvPhase | string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface RequirementStatus {
  group: string;
  version: string;
  kind: string;
  name: string;
  status: string;
  message?: string;
  uuid?: string;
  dependents?: { group: string; version: string; kind: string; status: string; message?: string }[];
}

export interface ClusterServiceVersion extends KubeObject {
  spec: {
    displayName: string;
    description?: string;
    version?: string;
    release?: string;
    maturity?: string;
    replaces?: string;
    skips?: string[];
    minKubeVersion?: string;
    keywords?: string[];
    maintainers?: { name?: string; email?: string }[];
    provider?: { name?: string; url?: string };
    links?: { name?: string; url?: string }[];
    icon?: { base64data: string; mediatype: string }[];
    installModes?: InstallMode[];
    install: {
      strategy: string;
      spec?: {
        deployments?: StrategyDeployment[];
        permissions?: StrategyPermissions[];
        clusterPermissions?: StrategyPermissions[];
      };
    };
    customresourcedefinitions?: { owned?: CrdDescription[]; required?: CrdDescription[] };
    apiservicedefinitions?: { owned?: ApiServiceDescription[]; required?: ApiServiceDescription[] };
    webhookdefinitions?: Record<string, unknown>[];
    nativeAPIs?: { group: string; version: string; kind: string }[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    selector?: LabelSelector;
    cleanup?: { enabled: boolean };
    relatedImages?: { name?: string; image: string }[];
  };
  status?: {
    phase?: CsvPhase | string;
    reason?: string;
    message?: string;
    lastUpdateTime?: string;
    lastTransitionTime?: string;
    conditions?: CsvCondition[];
    requirementStatus?: RequirementStatus[];
    certsLastUpdated?: string;
    certsRotateAt?: string;
    cleanup?: { pendingDeletion?: unknown[] };
  };
}

/**
 * A copied CSV is OLM's mirror of an operator in a namespace it watches (docs/olm/copied-csvs.md#recognising-a-copy): it has the
 * `olm.copiedFrom` label, or its `olm.operatorNamespace` is another namespace, or its reason
 * is `Copied`. Any one of the three is enough.
 */
export function isCopiedCsv(csv: ClusterServiceVersion): boolean {
  const meta = csv.metadata ?? {};
  if (meta.labels?.[Keys.copiedFrom] !== undefined) return true;
  const opNs = meta.annotations?.[Keys.operatorNamespace];
  if (opNs !== undefined && opNs !== meta.namespace) return true;
  return csv.status?.reason === 'Copied';
}

/**
 * Whether `next` is the CSV OLM installed in place of the CSV named `name`: OLM rewrites the
 * `spec.replaces` of a CSV it installs to the CSV it actually replaces, whichever edge (replaces,
 * skips, skipRange) led there, so this holds for every upgrade (docs/olm/install-plans.md#steps).
 */
export function isReplacementOf(next: Pick<ClusterServiceVersion, 'spec'>, name: string): boolean {
  return !!name && next.spec?.replaces === name;
}

/** The namespace the operator really runs in (for a copy, its source). */
export function operatorNamespaceOf(csv: ClusterServiceVersion): string | undefined {
  return (
    csv.metadata?.labels?.[Keys.copiedFrom] ??
    csv.metadata?.annotations?.[Keys.operatorNamespace] ??
    csv.metadata?.namespace
  );
}

/**
 * The namespaces the operator watches, from `olm.targetNamespaces`: `['']` means all
 * namespaces, `undefined` that OLM has not written it yet (copies never carry it).
 */
export function targetNamespacesOf(csv: ClusterServiceVersion): string[] | undefined {
  const v = csv.metadata?.annotations?.[Keys.targetNamespaces];
  if (v === undefined) return undefined;
  return v.split(',').map((s) => s.trim());
}

export function watchesAllNamespaces(csv: ClusterServiceVersion): boolean {
  const t = targetNamespacesOf(csv);
  return t !== undefined && t.length === 1 && t[0] === '';
}

/** An API the operator owns: its CRD's group, plural and the version the CSV describes. */
export interface OwnedCrd {
  group: string;
  version: string;
  kind: string;
  plural: string;
  /** The CRD's name, `<plural>.<group>`. */
  name: string;
  description: CrdDescription;
}

/** The CSV's owned CRDs as API coordinates; a name that is not `<plural>.<group>` is left out. */
export function ownedCrds(csv: ClusterServiceVersion): OwnedCrd[] {
  return (csv.spec.customresourcedefinitions?.owned ?? []).flatMap((d) => {
    const dot = d.name.indexOf('.');
    if (dot < 0) return [];
    return [
      {
        plural: d.name.slice(0, dot),
        group: d.name.slice(dot + 1),
        version: d.version,
        kind: d.kind,
        name: d.name,
        description: d,
      },
    ];
  });
}
