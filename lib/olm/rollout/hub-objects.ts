// The hub objects of a rollout, for Open Cluster Management v1.0.0 (open-cluster-management-io/api
// v1.0.0): a Placement picking the clusters and grouping them into decision groups, and a
// ManifestWorkReplicaSet whose template every placed cluster's work agent applies, group by group.
// - The canary is a decision group named `canary` (cluster/v1beta1 types_placement.go,
//   DecisionStrategy.GroupStrategy.DecisionGroups); every other placed cluster is split into
//   groups of at most `waveSize` (ClustersPerDecisionGroup), which the placement controller
//   numbers after the canary.
// - ProgressivePerGroup (cluster/v1alpha1 types_rolloutstrategy.go) applies one group at a time
//   and starts the next only when every cluster of the one before has succeeded; the canary is
//   a mandatory decision group, which tolerates no failure whatever maxFailures says.
// - OCM's hub judges "succeeded" by the ManifestWork alone: Applied, then Available
//   (ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller/manifestworkreplicaset_deploy_reconcile.go,
//   clusterRolloutStatusFunc). Available means only "the objects exist" unless a condition rule
//   sets it (ocm pkg/work/spoke/controllers/statuscontroller/availablestatus_controller.go applies
//   a manifest's condition rules after its existence check, so a CEL rule for `Available` is the
//   manifest's Available). The install's own health becomes Available that way: see cluster-objects.ts.
import type { RolloutChoices } from './choices';
import { clusterObjects, manifestConfigs } from './cluster-objects';
import { GENERATION_LABEL, ROLLOUT_LABEL, setName } from './generations';

export type HubObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

export const CANARY_GROUP = 'canary';
export { ROLLOUT_LABEL };

const selector = (labels: Record<string, string> | undefined) =>
  labels && Object.keys(labels).length ? { matchLabels: { ...labels } } : {};

export function placement(c: RolloutChoices): HubObject {
  const p = c.placement;
  const required: Record<string, unknown> = {};
  if (p.labels && Object.keys(p.labels).length) required.labelSelector = selector(p.labels);
  if (p.claims?.length)
    required.claimSelector = {
      matchExpressions: p.claims.map((r) => ({
        key: r.key,
        operator: r.operator,
        ...(r.values ? { values: r.values } : {}),
      })),
    };
  return {
    apiVersion: 'cluster.open-cluster-management.io/v1beta1',
    kind: 'Placement',
    metadata: { name: c.name, namespace: c.hubNamespace, labels: { [ROLLOUT_LABEL]: c.name } },
    spec: {
      clusterSets: [...p.clusterSets],
      ...(Object.keys(required).length ? { predicates: [{ requiredClusterSelector: required }] } : {}),
      decisionStrategy: {
        groupStrategy: {
          ...(c.canary
            ? {
                decisionGroups: [
                  { groupName: CANARY_GROUP, groupClusterSelector: { labelSelector: selector(c.canary) } },
                ],
              }
            : {}),
          clustersPerDecisionGroup: c.waveSize,
        },
      },
    },
  };
}

/**
 * A Placement picks only from cluster sets bound to its namespace (ManagedClusterSetBinding, named
 * after the set). The ones `existing` lacks are part of the rollout's preview.
 */
export function clusterSetBindings(c: RolloutChoices, existing: readonly string[]): HubObject[] {
  return c.placement.clusterSets
    .filter((s) => !existing.includes(s))
    .map((s) => ({
      apiVersion: 'cluster.open-cluster-management.io/v1beta2',
      kind: 'ManagedClusterSetBinding',
      metadata: { name: s, namespace: c.hubNamespace },
      spec: { clusterSet: s },
    }));
}

/**
 * An upgrade's soak when the person chose none. A wave's health rule can hold in the moment after
 * the agent applies the upgrade, before OLM has acted on it (a Subscription moved to another
 * channel still says AtLatestKnown until OLM resolves it again); OCM judges a succeeded cluster
 * again once its minSuccessTime, counted from its ManifestWork's creation (generations.ts), is
 * over, so the next wave starts only on the health OLM reports after it has had the upgrade.
 */
export const UPGRADE_SOAK = '1m';

export function rolloutStrategy(c: RolloutChoices, generation = 1): Record<string, unknown> {
  const soak = c.minSuccessTime ?? (generation > 1 ? UPGRADE_SOAK : undefined);
  return {
    type: 'ProgressivePerGroup',
    progressivePerGroup: {
      ...(c.canary ? { mandatoryDecisionGroups: [{ groupName: CANARY_GROUP }] } : {}),
      progressDeadline: c.progressDeadline ?? 'None',
      ...(soak ? { minSuccessTime: soak } : {}),
      maxFailures: 0,
    },
  };
}

/**
 * The ManifestWorkReplicaSet of one generation of the rollout (generations.ts): the install's
 * objects as the template of every cluster's ManifestWork.
 */
export function manifestWorkReplicaSet(
  c: RolloutChoices,
  installerRbac: Record<string, unknown>[] = [],
  generation = 1,
): HubObject {
  return {
    apiVersion: 'work.open-cluster-management.io/v1alpha1',
    kind: 'ManifestWorkReplicaSet',
    metadata: {
      name: setName(c.name, generation),
      namespace: c.hubNamespace,
      labels: { [ROLLOUT_LABEL]: c.name, [GENERATION_LABEL]: String(generation) },
    },
    spec: {
      placementRefs: [{ name: c.name, rolloutStrategy: rolloutStrategy(c, generation) }],
      manifestWorkTemplate: {
        // Deleting a cluster's ManifestWork (the rollout deleted, or the cluster leaving the
        // Placement) leaves its install as it is: stopping a rollout must not uninstall operators
        // across the fleet (work/v1 types.go DeleteOption, propagationPolicy Orphan).
        deleteOption: { propagationPolicy: 'Orphan' },
        workload: { manifests: clusterObjects(c, installerRbac) },
        manifestConfigs: manifestConfigs(c),
      },
    },
  };
}
