// Which ManagedClusters a rollout's Placement would pick now, and which of them would be the
// canary, for the preview of a Placement that does not exist yet (an existing one's
// PlacementDecisions say it themselves). From OCM v1.0.0's placement rules
// (cluster/v1beta1 types_placement.go; ocm pkg/placement): only clusters of the chosen sets bound
// to the namespace (ManagedClusterSetBinding), matching every label and claim requirement, and
// without a NoSelect taint the Placement does not tolerate (an unavailable or unreachable cluster
// carries one: cluster/v1 types.go taints). Which wave each other cluster lands in is the
// placement controller's choice (its prioritizers order them), so the preview counts waves
// without naming their members.
import type { LabelRequirement, RolloutChoices } from './choices';

export const CLUSTER_SET_LABEL = 'cluster.open-cluster-management.io/clusterset';

export interface ManagedClusterLike {
  metadata: { name?: string; labels?: Record<string, string> };
  spec?: { taints?: { key: string; effect: string }[] };
  status?: { clusterClaims?: { name: string; value: string }[] };
}

export interface PlacementGuess {
  canary: string[];
  rest: string[];
  waves: number;
  /** Clusters of the chosen sets left out, each with why. */
  left: { cluster: string; why: string }[];
}

function meets(value: string | undefined, r: LabelRequirement): boolean {
  switch (r.operator) {
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'In':
      return value !== undefined && (r.values ?? []).includes(value);
    case 'NotIn':
      return value === undefined || !(r.values ?? []).includes(value);
  }
}

const matchesLabels = (have: Record<string, string> | undefined, want: Record<string, string> | undefined) =>
  Object.entries(want ?? {}).every(([k, v]) => have?.[k] === v);

/** The sets a rollout names are bound with it (hub-objects.ts clusterSetBindings), so all of them count. */
export function guessPlacement(c: RolloutChoices, clusters: readonly ManagedClusterLike[]): PlacementGuess {
  const sets = c.placement.clusterSets;
  const picked: ManagedClusterLike[] = [];
  const left: PlacementGuess['left'] = [];
  for (const mc of clusters) {
    const name = mc.metadata.name ?? '';
    const set = mc.metadata.labels?.[CLUSTER_SET_LABEL];
    if (!set || !sets.includes(set)) continue;
    const claims = Object.fromEntries((mc.status?.clusterClaims ?? []).map((cl) => [cl.name, cl.value]));
    const noSelect = mc.spec?.taints?.find((t) => t.effect === 'NoSelect');
    if (!matchesLabels(mc.metadata.labels, c.placement.labels))
      left.push({ cluster: name, why: 'its labels do not match' });
    else if (!(c.placement.claims ?? []).every((r) => meets(claims[r.key], r)))
      left.push({ cluster: name, why: 'its cluster claims do not match' });
    else if (noSelect) left.push({ cluster: name, why: `it has the taint ${noSelect.key} (NoSelect)` });
    else picked.push(mc);
  }
  const names = (l: ManagedClusterLike[]) => l.map((m) => m.metadata.name ?? '').sort();
  const canary = c.canary ? picked.filter((m) => matchesLabels(m.metadata.labels, c.canary)) : [];
  const rest = picked.filter((m) => !canary.includes(m));
  return {
    canary: names(canary),
    rest: names(rest),
    waves: (canary.length ? Math.ceil(canary.length / c.waveSize) : 0) + Math.ceil(rest.length / c.waveSize),
    left: left.sort((a, b) => a.cluster.localeCompare(b.cluster)),
  };
}
