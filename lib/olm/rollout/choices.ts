// What a person chooses for a rollout across the fleet, checked before any object is built: the
// package and how to install it (OLM v0 or v1), which clusters (an OCM Placement: cluster sets,
// labels, claims), and in what order (a canary group first, then waves of at most N clusters).
// Names here become hub objects and objects on every placed cluster, so they are checked against
// the API server's own rules (DNS-1123) here rather than refused later cluster by cluster.
import { GENERATION_SUFFIX } from './generations';

export type LabelRequirement = { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] };

export interface RolloutPlacementChoice {
  /** ManagedClusterSets to pick from (each must be bound to the rollout's namespace). */
  clusterSets: string[];
  /** ManagedCluster labels every placed cluster must have. */
  labels?: Record<string, string>;
  /** ClusterClaims (status.clusterClaims) every placed cluster must report. */
  claims?: LabelRequirement[];
}

export interface RolloutChoices {
  /** The rollout's name: the Placement's, the ManifestWorkReplicaSet's and each ManifestWork's. */
  name: string;
  /** The hub namespace the Placement and ManifestWorkReplicaSet live in. */
  hubNamespace: string;
  olm: 'v0' | 'v1';
  package: string;
  channel?: string;
  /** v0: spec.startingCSV; v1: the version (or range) the ClusterExtension is held to. */
  version?: string;
  /** v0 only: the Subscription's installPlanApproval. */
  approval?: 'Automatic' | 'Manual';
  /** The namespace created on every placed cluster for the install. */
  installNamespace: string;
  /** v0: the CatalogSource (name and namespace) on every placed cluster; v1: the ClusterCatalog name. */
  catalog: { name: string; namespace?: string };
  placement: RolloutPlacementChoice;
  /** The clusters (by label) that get the rollout first; none means no canary. */
  canary?: Record<string, string>;
  /** At most this many clusters per wave after the canary. */
  waveSize: number;
  /** How long a wave may take to become healthy (e.g. `10m`); unset waits for ever. */
  progressDeadline?: string;
  /** How long a healthy wave soaks before the next starts (e.g. `2m`). */
  minSuccessTime?: string;
  /**
   * v0 only: install through an OperatorPolicy on each cluster instead of a Subscription of the
   * ManifestWork's own; config-policy-controller must run there watching `namespace`.
   */
  operatorPolicy?: { namespace: string; allowedVersions: string[]; upgradeApproval: 'Automatic' | 'None' };
}
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// A label key: an optional DNS subdomain prefix and a name (k8s.io/apimachinery validation).
const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
// OCM's rollout durations: cluster/v1alpha1 RolloutConfig's kubebuilder pattern (types_rolloutstrategy.go).
const DURATION = /^[0-9]+[hms]$/;

function labelsProblems(what: string, labels: Record<string, string> | undefined): string[] {
  return Object.entries(labels ?? {}).flatMap(([k, v]) => [
    ...(LABEL_KEY.test(k) && k.length <= 316 ? [] : [`${what}: "${k}" is not a label key`]),
    ...(LABEL_VALUE.test(v) && v.length <= 63 ? [] : [`${what}: "${v}" is not a label value`]),
  ]);
}

/** Every reason the choices cannot make a rollout, in a person's words; empty when they can. */
export function choicesProblems(c: RolloutChoices): string[] {
  const p: string[] = [];
  const label = (what: string, v: string | undefined) => {
    if (!v || !DNS1123_LABEL.test(v) || v.length > 63) p.push(`${what} "${v ?? ''}" must be a DNS-1123 label`);
  };
  // The ManifestWork on each cluster is named after the rollout; ClusterExtension and Placement names too.
  label('rollout name', c.name);
  // Upgrades are new ManifestWorkReplicaSets named `<name>-g<N>` (generations.ts), and OCM labels
  // each cluster's ManifestWork `<hub namespace>.<set name>`, a label value of at most 63 characters.
  if (c.name && GENERATION_SUFFIX.test(c.name))
    p.push(`rollout name "${c.name}" may not end in -g and a number: the console names a rollout's upgrades so`);
  if (c.name && c.hubNamespace && c.hubNamespace.length + c.name.length > 63 - '.'.length - '-g9999'.length)
    p.push(
      `the rollout name and hub namespace together must be at most ${63 - 7} characters: OCM labels every ` +
        'ManifestWork with both',
    );
  label('hub namespace', c.hubNamespace);
  label('install namespace', c.installNamespace);
  if (!c.package || !DNS1123_SUBDOMAIN.test(c.package)) p.push(`package "${c.package ?? ''}" is not a package name`);
  if (c.olm !== 'v0' && c.olm !== 'v1') p.push('olm must be v0 or v1');
  if (!c.catalog?.name || !DNS1123_SUBDOMAIN.test(c.catalog.name)) p.push('a catalog name is required');
  if (c.olm === 'v0') label('catalog namespace', c.catalog?.namespace);
  if (c.approval !== undefined && c.approval !== 'Automatic' && c.approval !== 'Manual')
    p.push('approval must be Automatic or Manual');
  if (c.olm === 'v1' && c.approval === 'Manual') p.push('OLM v1 has no approval: leave it out');
  if (c.olm === 'v1' && c.operatorPolicy) p.push('an OperatorPolicy manages OLM v0 Subscriptions only');
  // config-policy-controller v0.16.0 refuses installPlanApproval in the policy's subscription and
  // sets it itself (operatorpolicy_controller.go, buildSubscription).
  if (c.operatorPolicy && c.approval !== undefined)
    p.push('with an OperatorPolicy, its upgradeApproval decides the approval: leave approval out');
  if (!c.placement?.clusterSets?.length) p.push('choose at least one cluster set');
  for (const s of c.placement?.clusterSets ?? []) label('cluster set', s);
  p.push(...labelsProblems('cluster label', c.placement?.labels), ...labelsProblems('canary label', c.canary));
  for (const r of c.placement?.claims ?? []) {
    if (!LABEL_KEY.test(r.key)) p.push(`claim "${r.key}" is not a claim name`);
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) p.push(`claim operator ${r.operator}`);
    if ((r.operator === 'In' || r.operator === 'NotIn') && !r.values?.length)
      p.push(`claim "${r.key}": ${r.operator} needs values`);
  }
  if (c.canary && Object.keys(c.canary).length === 0) p.push('a canary needs at least one label');
  if (!Number.isInteger(c.waveSize) || c.waveSize < 1)
    p.push('wave size must be a whole number of clusters, 1 or more');
  for (const [what, v] of [
    ['progress deadline', c.progressDeadline],
    ['minimum success time', c.minSuccessTime],
  ] as const)
    if (v !== undefined && !DURATION.test(v)) p.push(`${what} "${v}" must be a number and h, m or s (e.g. 10m)`);
  if (c.operatorPolicy) {
    label('OperatorPolicy namespace', c.operatorPolicy.namespace);
    if (c.operatorPolicy.upgradeApproval !== 'Automatic' && c.operatorPolicy.upgradeApproval !== 'None')
      p.push('the OperatorPolicy upgrade approval must be Automatic or None');
  }
  return p;
}
