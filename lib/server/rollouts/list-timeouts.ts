// Which clusters of each listed rollout OCM has timed out, for the Rollouts list. OCM's set status
// never says so (lib/olm/rollout/timeouts.ts), so without this a rollout held by a timed-out
// cluster reads as progressing in the list. Only a set with a progressDeadline can time a cluster
// out, so only such sets are read further, and at a cost that does not grow with the number of
// rollouts: one list of PlacementDecisions per hub namespace holding such a set, and one list of
// their ManifestWorks across every cluster namespace (one label selector naming every set). Each
// set is then judged by rolloutView, as its own page is, so the list and the page cannot disagree.
// What the person may not list leaves that rollout's timeouts unknown (absent), said in `notes`.
import type { RolloutTimeout } from '../../api/fleet-rollouts';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import {
  DECISION_PLACEMENT_LABEL,
  rolloutView,
  WORK_OWNER_LABEL,
  workOwner,
  type ManifestWorkLike,
  type ManifestWorkReplicaSetLike,
  type PlacementDecisionLike,
} from '../../olm/rollout/status';
import { progressDeadline } from '../../olm/rollout/timeouts';
import { MANIFEST_WORK_TYPE, PLACEMENT_DECISION_TYPE } from './resources';

type SetLike = ManifestWorkReplicaSetLike & { metadata: { name?: string; namespace?: string } };

// Kubernetes refuses an object whose label value is not one of these, so no ManifestWork carries
// an owner value past it; naming one in the selector would only make the API server refuse the list.
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const isLabelValue = (v: string) => v.length <= 63 && LABEL_VALUE.test(v);

const placementOf = (s: SetLike) => s.spec?.placementRefs?.[0]?.name ?? s.metadata.name ?? '';
const ownerOf = (s: SetLike) => workOwner(s.metadata.namespace ?? '', s.metadata.name ?? '');

/** A list, or undefined with a note when the person may not list it. */
async function readable<T>(read: () => Promise<{ items: T[] }>, what: string, notes: string[]) {
  try {
    return (await read()).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(`you may not list ${what}, so the list cannot say which clusters OCM timed out: ${err.message}`);
    return undefined;
  }
}

/**
 * Each set's timed-out clusters, in the order of `sets`: [] for a set without a progressDeadline,
 * undefined where the person may not read its PlacementDecisions or ManifestWorks.
 */
export async function listTimeouts(
  hub: KubeClient,
  sets: readonly SetLike[],
  now: number,
): Promise<{ timedOut: (RolloutTimeout[] | undefined)[]; notes: string[] }> {
  const notes: string[] = [];
  const timed = sets.filter((s) => progressDeadline(s.spec?.placementRefs?.[0]?.rolloutStrategy));
  const owners = [...new Set(timed.map(ownerOf))].filter(isLabelValue);
  if (!owners.length) return { timedOut: sets.map(() => []), notes };
  const namespaces = [...new Set(timed.map((s) => s.metadata.namespace ?? ''))];
  const [works, ...decisions] = await Promise.all([
    // Every cluster's work lives in that cluster's namespace on the hub.
    readable(
      () =>
        hub.listAll<ManifestWorkLike>(MANIFEST_WORK_TYPE, {
          labelSelector: `${WORK_OWNER_LABEL} in (${owners.join(',')})`,
        }),
      "ManifestWorks in every cluster's namespace",
      notes,
    ),
    ...namespaces.map((namespace) => {
      const inNamespace = timed.filter((s) => s.metadata.namespace === namespace).map(placementOf);
      const placements = [...new Set(inNamespace)].filter(isLabelValue);
      if (!placements.length) return [] as PlacementDecisionLike[];
      return readable(
        () =>
          hub.listAll<PlacementDecisionLike>(PLACEMENT_DECISION_TYPE, {
            namespace,
            labelSelector: `${DECISION_PLACEMENT_LABEL} in (${placements.join(',')})`,
          }),
        `PlacementDecisions in ${namespace}`,
        notes,
      );
    }),
  ]);
  const decisionsIn = new Map(namespaces.map((n, i) => [n, decisions[i]]));
  const timedOut = sets.map((s): RolloutTimeout[] | undefined => {
    if (!timed.includes(s) || !isLabelValue(ownerOf(s))) return [];
    const inNamespace = decisionsIn.get(s.metadata.namespace ?? '');
    if (!works || !inNamespace) return undefined;
    const placement = placementOf(s);
    const view = rolloutView(
      s,
      inNamespace.filter((d) => d.metadata.labels?.[DECISION_PLACEMENT_LABEL] === placement),
      works.filter((w) => w.metadata.labels?.[WORK_OWNER_LABEL] === ownerOf(s)),
      now,
    );
    return view.waves.flatMap((w) =>
      w.clusters.flatMap((c) =>
        c.timedOut ? [{ cluster: c.cluster, wave: { index: w.index, name: w.name }, ...c.timedOut }] : [],
      ),
    );
  });
  return { timedOut, notes };
}
