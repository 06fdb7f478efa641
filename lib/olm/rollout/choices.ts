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

/** One reason the choices cannot make a rollout: the request body's field (as a zod issue's path) and why. */
export interface ChoicesIssue {
  path: (string | number)[];
  message: string;
}

function labelsIssues(what: string, at: string[], labels: Record<string, string> | undefined): ChoicesIssue[] {
  return Object.entries(labels ?? {}).flatMap(([k, v]) => [
    ...(LABEL_KEY.test(k) && k.length <= 316
      ? []
      : [{ path: [...at, k], message: `${what}: "${k}" is not a label key` }]),
    ...(LABEL_VALUE.test(v) && v.length <= 63
      ? []
      : [{ path: [...at, k], message: `${what}: "${v}" is not a label value` }]),
  ]);
}

/** Every reason the choices cannot make a rollout, in a person's words; empty when they can. */
export function choicesProblems(c: RolloutChoices): string[] {
  return choicesIssues(c).map((i) => i.message);
}

/** choicesProblems with the field each is about, so a form can show each beside its field. */
export function choicesIssues(c: RolloutChoices): ChoicesIssue[] {
  const p: ChoicesIssue[] = [];
  const at = (path: (string | number)[], message: string) => p.push({ path, message });
  const label = (path: (string | number)[], what: string, v: string | undefined) => {
    if (!v || !DNS1123_LABEL.test(v) || v.length > 63) at(path, `${what} "${v ?? ''}" must be a DNS-1123 label`);
  };
  // The ManifestWork on each cluster is named after the rollout; ClusterExtension and Placement names too.
  label(['name'], 'rollout name', c.name);
  // Upgrades are new ManifestWorkReplicaSets named `<name>-g<N>` (generations.ts), and OCM labels
  // each cluster's ManifestWork `<hub namespace>.<set name>`, a label value of at most 63 characters.
  if (c.name && GENERATION_SUFFIX.test(c.name))
    at(['name'], `rollout name "${c.name}" may not end in -g and a number: the console names a rollout's upgrades so`);
  if (c.name && c.hubNamespace && c.hubNamespace.length + c.name.length > 63 - '.'.length - '-g9999'.length)
    at(
      ['name'],
      `the rollout name and hub namespace together must be at most ${63 - 7} characters: OCM labels every ` +
        'ManifestWork with both',
    );
  label(['hubNamespace'], 'hub namespace', c.hubNamespace);
  label(['installNamespace'], 'install namespace', c.installNamespace);
  if (!c.package || !DNS1123_SUBDOMAIN.test(c.package))
    at(['package'], `package "${c.package ?? ''}" is not a package name`);
  if (c.olm !== 'v0' && c.olm !== 'v1') at(['olm'], 'olm must be v0 or v1');
  if (!c.catalog?.name || !DNS1123_SUBDOMAIN.test(c.catalog.name))
    at(['catalog', 'name'], 'a catalog name is required');
  if (c.olm === 'v0') label(['catalog', 'namespace'], 'catalog namespace', c.catalog?.namespace);
  if (c.approval !== undefined && c.approval !== 'Automatic' && c.approval !== 'Manual')
    at(['approval'], 'approval must be Automatic or Manual');
  if (c.olm === 'v1' && c.approval === 'Manual') at(['approval'], 'OLM v1 has no approval: leave it out');
  if (c.olm === 'v1' && c.operatorPolicy) at(['operatorPolicy'], 'an OperatorPolicy manages OLM v0 Subscriptions only');
  // config-policy-controller v0.16.0 refuses installPlanApproval in the policy's subscription and
  // sets it itself (operatorpolicy_controller.go, buildSubscription).
  if (c.operatorPolicy && c.approval !== undefined)
    at(['approval'], 'with an OperatorPolicy, its upgradeApproval decides the approval: leave approval out');
  if (!c.placement?.clusterSets?.length) at(['placement', 'clusterSets'], 'choose at least one cluster set');
  (c.placement?.clusterSets ?? []).forEach((s, i) => label(['placement', 'clusterSets', i], 'cluster set', s));
  p.push(
    ...labelsIssues('cluster label', ['placement', 'labels'], c.placement?.labels),
    ...labelsIssues('canary label', ['canary'], c.canary),
  );
  (c.placement?.claims ?? []).forEach((r, i) => {
    const claim = ['placement', 'claims', i];
    if (!LABEL_KEY.test(r.key)) at([...claim, 'key'], `claim "${r.key}" is not a claim name`);
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator))
      at([...claim, 'operator'], `claim operator ${r.operator}`);
    if ((r.operator === 'In' || r.operator === 'NotIn') && !r.values?.length)
      at([...claim, 'values'], `claim "${r.key}": ${r.operator} needs values`);
  });
  if (c.canary && Object.keys(c.canary).length === 0) at(['canary'], 'a canary needs at least one label');
  if (!Number.isInteger(c.waveSize) || c.waveSize < 1)
    at(['waveSize'], 'wave size must be a whole number of clusters, 1 or more');
  for (const [field, what, v] of [
    ['progressDeadline', 'progress deadline', c.progressDeadline],
    ['minSuccessTime', 'minimum success time', c.minSuccessTime],
  ] as const)
    if (v !== undefined && !DURATION.test(v)) at([field], `${what} "${v}" must be a number and h, m or s (e.g. 10m)`);
  if (c.operatorPolicy) {
    label(['operatorPolicy', 'namespace'], 'OperatorPolicy namespace', c.operatorPolicy.namespace);
    if (c.operatorPolicy.upgradeApproval !== 'Automatic' && c.operatorPolicy.upgradeApproval !== 'None')
      at(['operatorPolicy', 'upgradeApproval'], 'the OperatorPolicy upgrade approval must be Automatic or None');
  }
  return p;
}
