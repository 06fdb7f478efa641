// The console's rollouts on the hub, read as the person: each rollout as its current generation's
// ManifestWorkReplicaSet (the console's label names the rollout, another its generation:
// lib/olm/rollout/generations.ts), and one rollout wave by wave from its PlacementDecisions and
// the ManifestWorks OCM made from that set in every cluster namespace (lib/olm/rollout/status.ts);
// the list names the clusters OCM timed out in each (list-timeouts.ts).
// What the person may not list is said in `notes`, never shown as "not rolled out".
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { ROLLOUT_LABEL, type HubObject } from '../../olm/rollout/hub-objects';
import { chainOf, currentOf, generationOf, type SetLike } from '../../olm/rollout/generations';
import {
  DECISION_PLACEMENT_LABEL,
  rolloutView,
  workSelector,
  type ManifestWorkLike,
  type ManifestWorkReplicaSetLike,
  type PlacementDecisionLike,
} from '../../olm/rollout/status';
import { ApiError } from '../api-error';
import { accessReview } from '../permissions';
import { requireHub } from './hub';
import type { RolloutDetail, RolloutList, RolloutSummary } from '../../api/fleet-rollouts';
import { listTimeouts } from './list-timeouts';
import { MANIFEST_WORK_TYPE, MWRS_TYPE, PLACEMENT_DECISION_TYPE } from './resources';

type SetObject = ManifestWorkReplicaSetLike & HubObject & SetLike;

function summary(s: SetObject): RolloutSummary {
  const manifests =
    (
      s.spec?.manifestWorkTemplate as {
        workload?: {
          manifests?: {
            kind?: string;
            spec?: { name?: string; packageName?: string; source?: { catalog?: { packageName?: string } } };
          }[];
        };
      }
    )?.workload?.manifests ?? [];
  const sub = manifests.find((m) => m.kind === 'Subscription' || m.kind === 'OperatorPolicy');
  const ce = manifests.find((m) => m.kind === 'ClusterExtension');
  const pkg =
    ce?.spec?.source?.catalog?.packageName ??
    sub?.spec?.name ??
    (sub as { spec?: { subscription?: { name?: string } } })?.spec?.subscription?.name;
  return {
    name: s.metadata.labels?.[ROLLOUT_LABEL] ?? s.metadata.name ?? '',
    namespace: s.metadata.namespace ?? '',
    generation: generationOf(s),
    set: s.metadata.name ?? '',
    ...(pkg ? { package: pkg } : {}),
    ...(ce ? { olm: 'v1' as const } : sub ? { olm: 'v0' as const } : {}),
    conditions: (s.status?.conditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
    })),
    ...(s.status?.summary ? { summary: s.status.summary } : {}),
  };
}

/**
 * The console's rollouts, one row per rollout, each with the clusters OCM timed out
 * (list-timeouts.ts), and `notes` saying what the person may not read of them.
 */
export async function listRollouts(hub: KubeClient): Promise<RolloutList> {
  await requireHub(hub);
  const sets = await hub.listAll<SetObject>(MWRS_TYPE, { labelSelector: ROLLOUT_LABEL });
  const rollouts = new Map<string, SetObject[]>();
  for (const s of sets.items) {
    const key = `${s.metadata.namespace}/${s.metadata.labels?.[ROLLOUT_LABEL]}`;
    rollouts.set(key, [...(rollouts.get(key) ?? []), s]);
  }
  // One row per rollout: its current generation (or, while a stopped one's sets are going, the newest).
  const shown = [...rollouts.values()].map((all) => {
    const chain = chainOf(all[0]!.metadata.labels![ROLLOUT_LABEL]!, all);
    return currentOf(chain) ?? chain[0]!;
  });
  const { timedOut, notes } = await listTimeouts(hub, shown, Date.now());
  return {
    rollouts: shown
      .map((s, i) => ({ ...summary(s), ...(timedOut[i] ? { timedOut: timedOut[i] } : {}) }))
      .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`)),
    notes,
  };
}

/** The rollout's sets in `namespace`, newest generation first; a 404 naming it when it has none. */
async function chainIn(hub: KubeClient, namespace: string, name: string): Promise<SetObject[]> {
  const sets = await hub.listAll<SetObject>(MWRS_TYPE, { namespace, labelSelector: `${ROLLOUT_LABEL}=${name}` });
  const chain = chainOf(name, sets.items);
  if (!chain.length)
    throw new ApiError(404, 'NotFound', `no rollout ${name} in ${namespace}: no ManifestWorkReplicaSet carries it`);
  return chain;
}

/** What OCM v1.0.0 and OLM do not do, which a person stopping or undoing a rollout needs to know. */
export const LIMITS = [
  'OCM v1.0.0 has no pause for a ManifestWorkReplicaSet (work/v1alpha1 has no such field). Stopping deletes it: ' +
    "each cluster's ManifestWork goes, and what it installed stays as it is (the template orphans), unmanaged.",
  "An upgrade is a new generation of the rollout, a new ManifestWorkReplicaSet, so that the canary's health is " +
    "read from a ManifestWork made for the upgrade (OCM v1.0.0 does not check that a work's conditions were " +
    'written for its current spec). Its health rule can hold in the moment after the agent applies the upgrade, ' +
    'before OLM has acted on it: give a minimum success time (soak), which OCM counts from that ManifestWork, so ' +
    'the canary is judged again before the next wave starts.',
  'Rolling a wave back is not offered: OLM v0 never downgrades an installed operator, and OLM v1 downgrades only ' +
    'with upgradeConstraintPolicy SelfCertified. To undo, stop the rollout and uninstall on each cluster.',
];

export async function readRollout(hub: KubeClient, namespace: string, name: string): Promise<RolloutDetail> {
  await requireHub(hub);
  const chain = await chainIn(hub, namespace, name);
  const set = currentOf(chain) ?? chain[0]!;
  const setName = set.metadata.name ?? name;
  const notes: string[] = [];
  const placementName = set.spec?.placementRefs?.[0]?.name ?? name;
  const list = async <T extends object>(read: () => Promise<{ items: T[] }>, what: string): Promise<T[]> => {
    try {
      return (await read()).items;
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
      notes.push(`you may not list ${what}: ${err.message}`);
      return [];
    }
  };
  const [decisions, works, stop] = await Promise.all([
    list(
      () =>
        hub.listAll<PlacementDecisionLike>(PLACEMENT_DECISION_TYPE, {
          namespace,
          labelSelector: `${DECISION_PLACEMENT_LABEL}=${placementName}`,
        }),
      `PlacementDecisions in ${namespace}`,
    ),
    // Every cluster's work lives in that cluster's namespace on the hub.
    list(
      () => hub.listAll<ManifestWorkLike>(MANIFEST_WORK_TYPE, { labelSelector: workSelector(namespace, setName) }),
      "ManifestWorks in every cluster's namespace (so no cluster's state is shown)",
    ),
    accessReview(hub, 'delete', MWRS_TYPE.group, 'manifestworkreplicasets', namespace),
  ]);
  for (const s of chain)
    if (s !== set && s.metadata.deletionTimestamp)
      notes.push(
        `generation ${generationOf(s)} (${s.metadata.name}) is being removed: OCM is deleting its ManifestWorks`,
      );
  return {
    ...summary(set),
    view: rolloutView(set, decisions, works, Date.now()),
    notes,
    actions: {
      stop: {
        what: `delete manifestworkreplicasets in ${namespace}`,
        allowed: stop.allowed,
        ...(stop.reason && !stop.allowed ? { reason: stop.reason } : {}),
      },
    },
    limits: LIMITS,
  };
}

/**
 * Stops a rollout: deletes every generation's ManifestWorkReplicaSet (the current one at the uid
 * the person saw, when given). OCM deletes every cluster's ManifestWork; the installs stay (the
 * template orphans). The Placement stays too, for a later rollout of the same name.
 */
export async function stopRollout(hub: KubeClient, namespace: string, name: string, uid?: string): Promise<void> {
  const chain = await chainIn(hub, namespace, name);
  const current = currentOf(chain) ?? chain[0]!;
  if (uid && current.metadata.uid !== uid)
    throw new ApiError(
      409,
      'Conflict',
      `rollout ${namespace}/${name} has changed since you saw it (its generation ${generationOf(current)} is ` +
        'another ManifestWorkReplicaSet): look again before stopping it',
    );
  for (const s of chain) {
    if (s.metadata.deletionTimestamp) continue;
    try {
      await hub.delete(MWRS_TYPE, s.metadata.name!, { namespace, ...(s === current && uid ? { uid } : {}) });
    } catch (err) {
      if (!isKubeError(err, 404)) throw err;
    }
  }
}
