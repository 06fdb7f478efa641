// The console's rollouts on the hub, read as the person: each ManifestWorkReplicaSet it made
// (its label), and one rollout wave by wave from its PlacementDecisions and the ManifestWorks OCM
// made from it in every cluster namespace (lib/olm/rollout/status.ts). What the person may not
// list is said in `notes`, never shown as "not rolled out".
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { ROLLOUT_LABEL, type HubObject } from '../../olm/rollout/hub-objects';
import {
  rolloutView,
  workSelector,
  type ManifestWorkLike,
  type ManifestWorkReplicaSetLike,
  type PlacementDecisionLike,
} from '../../olm/rollout/status';
import { ApiError } from '../api-error';
import { accessReview } from '../permissions';
import { requireHub } from './hub';
import type { RolloutDetail, RolloutSummary } from '../../api/fleet-rollouts';
import { MANIFEST_WORK_TYPE, MWRS_TYPE, PLACEMENT_DECISION_TYPE } from './resources';

type SetObject = ManifestWorkReplicaSetLike & HubObject;

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
    name: s.metadata.name ?? '',
    namespace: s.metadata.namespace ?? '',
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

export async function listRollouts(hub: KubeClient): Promise<RolloutSummary[]> {
  await requireHub(hub);
  const sets = await hub.listAll<SetObject>(MWRS_TYPE, { labelSelector: ROLLOUT_LABEL });
  return sets.items.map(summary).sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

/** What OCM v1.0.0 and OLM do not do, which a person stopping or undoing a rollout needs to know. */
export const LIMITS = [
  'OCM v1.0.0 has no pause for a ManifestWorkReplicaSet (work/v1alpha1 has no such field). Stopping deletes it: ' +
    "each cluster's ManifestWork goes, and what it installed stays as it is (the template orphans), unmanaged.",
  "OCM v1.0.0 reads a canary's health from its ManifestWork without checking that the work agent has seen the " +
    "new template (its rollout ignores the conditions' observedGeneration; fixed after v1.0.0): an upgrade of an " +
    'existing rollout can reach the next wave before the canary has reported on the upgrade. The first install ' +
    'waits for each wave; for an upgrade, watch the canary here.',
  'Rolling a wave back is not offered: OLM v0 never downgrades an installed operator, and OLM v1 downgrades only ' +
    'with upgradeConstraintPolicy SelfCertified. To undo, stop the rollout and uninstall on each cluster.',
];

export async function readRollout(hub: KubeClient, namespace: string, name: string): Promise<RolloutDetail> {
  await requireHub(hub);
  const set = await hub.get<SetObject>(MWRS_TYPE, name, namespace);
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
          labelSelector: `cluster.open-cluster-management.io/placement=${placementName}`,
        }),
      `PlacementDecisions in ${namespace}`,
    ),
    // Every cluster's work lives in that cluster's namespace on the hub.
    list(
      () => hub.listAll<ManifestWorkLike>(MANIFEST_WORK_TYPE, { labelSelector: workSelector(namespace, name) }),
      "ManifestWorks in every cluster's namespace (so no cluster's state is shown)",
    ),
    accessReview(hub, 'delete', MWRS_TYPE.group, 'manifestworkreplicasets', namespace, name),
  ]);
  return {
    ...summary(set),
    view: rolloutView(set, decisions, works),
    notes,
    actions: {
      stop: {
        what: `delete manifestworkreplicasets ${name} in ${namespace}`,
        allowed: stop.allowed,
        ...(stop.reason && !stop.allowed ? { reason: stop.reason } : {}),
      },
    },
    limits: LIMITS,
  };
}

/**
 * Stops a rollout: deletes the ManifestWorkReplicaSet (at the uid the person saw, when given). OCM
 * deletes every cluster's ManifestWork; the installs stay (the template orphans). The Placement
 * stays too, for a later rollout of the same name.
 */
export async function stopRollout(hub: KubeClient, namespace: string, name: string, uid?: string): Promise<void> {
  const set = await hub.get<SetObject & { metadata: { uid?: string } }>(MWRS_TYPE, name, namespace);
  if (set.metadata.labels?.[ROLLOUT_LABEL] === undefined)
    throw new ApiError(409, 'Conflict', `ManifestWorkReplicaSet ${namespace}/${name} is not a rollout of this console`);
  await hub.delete(MWRS_TYPE, name, { namespace, ...(uid ? { uid } : {}) });
}
