// A rollout's preview on the hub, asked as the person: the hub objects it writes (hub-objects.ts),
// which clusters its Placement picks (its own PlacementDecisions when it exists, else the
// console's guess from the ManagedClusters), the person's rights for every write
// (SelfSubjectAccessReview) and the API server's dry run of each new object. Writing a
// ManifestWorkReplicaSet runs its objects on every placed cluster with that cluster's work agent's
// identity, not the person's: the preview says so and lists what the agent will do.
import type { KubeClient } from '../../k8s/client';
import { NAMESPACE_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { choicesIssues, type RolloutChoices } from '../../olm/rollout/choices';
import { clusterObjects } from '../../olm/rollout/cluster-objects';
import {
  clusterSetBindings,
  manifestWorkReplicaSet,
  placement,
  ROLLOUT_LABEL,
  type HubObject,
} from '../../olm/rollout/hub-objects';
import { chainOf, nextWrite, setName, type SetLike } from '../../olm/rollout/generations';
import { guessPlacement, type ManagedClusterLike } from '../../olm/rollout/placement-match';
import { DECISION_PLACEMENT_LABEL, type PlacementDecisionLike } from '../../olm/rollout/status';
import { ApiError } from '../api-error';
import { accessReview } from '../permissions';
import type { RolloutPreview, RolloutRight } from '../../api/fleet-rollouts';
import {
  CLUSTER_SET_BINDING_TYPE,
  MANAGED_CLUSTER_TYPE,
  MWRS_TYPE,
  PLACEMENT_DECISION_TYPE,
  PLACEMENT_TYPE,
  typeOfKind,
} from './resources';
import { requireHub } from './hub';
import { v1InstallerRights } from './v1-rights';

async function getOr<T>(read: () => Promise<T>): Promise<T | undefined | 'forbidden'> {
  try {
    return await read();
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    if (isKubeError(err, 403)) return 'forbidden';
    throw err;
  }
}

async function right(
  hub: KubeClient,
  verb: string,
  group: string,
  resource: string,
  namespace?: string,
  name?: string,
): Promise<RolloutRight> {
  const r = await accessReview(hub, verb, group, resource, namespace, name);
  const what = `${verb} ${resource}${name ? ` ${name}` : ''}${namespace ? ` in ${namespace}` : ''}`;
  return { what, allowed: r.allowed, ...(r.reason && !r.allowed ? { reason: r.reason } : {}) };
}

const describe = (o: Record<string, unknown>) => {
  const m = o.metadata as { name?: string; namespace?: string };
  return `${String(o.kind)} ${m.namespace ? `${m.namespace}/` : ''}${m.name}`;
};

export async function previewRollout(hub: KubeClient, c: RolloutChoices): Promise<RolloutPreview> {
  // Each refusal with its field's path in `details`, as a schema's issues are: the form shows it there.
  const issues = choicesIssues(c);
  if (issues.length)
    throw new ApiError(
      400,
      'BadRequest',
      issues.map((i) => i.message).join('; '),
      issues.map((i) => ({ path: i.path, message: i.message })),
    );
  const ns = c.hubNamespace;
  const blockers: string[] = [];

  await requireHub(hub);
  const [namespace, bindings, existingPlacement, sets, managedClusters] = await Promise.all([
    getOr(() => hub.get(NAMESPACE_TYPE, ns)),
    getOr(() => hub.listAll<HubObject>(CLUSTER_SET_BINDING_TYPE, { namespace: ns })),
    getOr(() => hub.get<HubObject>(PLACEMENT_TYPE, c.name, ns)),
    getOr(() =>
      hub.listAll<HubObject & SetLike>(MWRS_TYPE, { namespace: ns, labelSelector: `${ROLLOUT_LABEL}=${c.name}` }),
    ),
    getOr(() => hub.listAll<ManagedClusterLike>(MANAGED_CLUSTER_TYPE)),
  ]);
  // An object the person may not read is treated as absent: creating it is what their rights are asked for.
  const chain = sets && sets !== 'forbidden' ? chainOf(c.name, sets.items) : [];
  let installerRbac: Record<string, unknown>[] = [];
  if (c.olm === 'v1') {
    const r = await v1InstallerRights(hub, c);
    if ('problem' in r) blockers.push(r.problem);
    else installerRbac = r.objects;
  }
  // A changed template is an upgrade: a new generation after the current one (generations.ts).
  const template = (manifestWorkReplicaSet(c, installerRbac).spec as { manifestWorkTemplate: unknown })
    .manifestWorkTemplate;
  const next = nextWrite(chain, template);
  const setNameNow = next.kind === 'update' ? next.current : setName(c.name, next.generation);
  const existingSet =
    next.kind === 'update' ? 'ours' : await getOr(() => hub.get<HubObject>(MWRS_TYPE, setNameNow, ns));
  // Only the console's own rollouts are changed by a preview of the same name.
  const foreign = (o: HubObject | undefined | 'forbidden' | 'ours'): o is HubObject =>
    !!o && o !== 'forbidden' && o !== 'ours' && o.metadata.labels?.[ROLLOUT_LABEL] !== c.name;
  if (foreign(existingPlacement))
    blockers.push(`Placement ${ns}/${c.name} exists and is not a rollout of this console: choose another name`);
  if (foreign(existingSet))
    blockers.push(
      `ManifestWorkReplicaSet ${ns}/${setNameNow} exists and is not a rollout of this console: choose another name`,
    );
  else if (existingSet && existingSet !== 'forbidden' && existingSet !== 'ours')
    blockers.push(
      `ManifestWorkReplicaSet ${ns}/${setNameNow} of this rollout is still being deleted: try again once it is gone`,
    );

  const placementExists = existingPlacement !== undefined && existingPlacement !== 'forbidden';
  const replaced = next.kind === 'upgrade' ? chain.find((s) => s.metadata.name === next.replaces) : undefined;

  const bound = bindings && bindings !== 'forbidden' ? bindings.items.map((b) => b.metadata.name) : [];
  if (bindings === 'forbidden')
    blockers.push(`you may not list ManagedClusterSetBindings in ${ns}, so the cluster sets bound there are unknown`);
  const objects: RolloutPreview['objects'] = [];
  if (namespace === undefined)
    objects.push({
      kind: 'Namespace',
      name: ns,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
  for (const b of clusterSetBindings(c, bindings === 'forbidden' ? [] : bound))
    objects.push({ kind: b.kind, name: b.metadata.name, namespace: ns, object: b });
  const p = placement(c);
  const set = manifestWorkReplicaSet(c, installerRbac, next.generation);
  objects.push(
    { kind: p.kind, name: c.name, namespace: ns, object: p, ...(placementExists ? { exists: true } : {}) },
    {
      kind: set.kind,
      name: setNameNow,
      namespace: ns,
      object: set,
      ...(next.kind === 'update' ? { exists: true } : {}),
      ...(replaced ? { replaces: { name: replaced.metadata.name!, uid: replaced.metadata.uid } } : {}),
    },
  );

  // Rights: every write, as the person, in the hub namespace.
  const checks: Promise<RolloutRight>[] = [];
  if (namespace === undefined) checks.push(right(hub, 'create', '', 'namespaces'));
  for (const o of objects.filter((o) => o.kind === 'ManagedClusterSetBinding')) {
    checks.push(right(hub, 'create', CLUSTER_SET_BINDING_TYPE.group, 'managedclustersetbindings', ns));
    // OCM's webhook lets a binding through only for someone who may bind the set.
    checks.push(
      right(hub, 'create', 'cluster.open-cluster-management.io', 'managedclustersets/bind', undefined, o.name),
    );
  }
  checks.push(right(hub, placementExists ? 'update' : 'create', PLACEMENT_TYPE.group, 'placements', ns));
  checks.push(right(hub, next.kind === 'update' ? 'update' : 'create', MWRS_TYPE.group, 'manifestworkreplicasets', ns));
  if (next.kind === 'upgrade')
    checks.push(right(hub, 'delete', MWRS_TYPE.group, 'manifestworkreplicasets', ns, next.replaces));
  const rights = await Promise.all(checks);
  for (const r of rights) if (!r.allowed) blockers.push(`you may not ${r.what}${r.reason ? `: ${r.reason}` : ''}`);

  // Which clusters: the Placement's own answer when it exists, else the guess.
  let clusters: RolloutPreview['clusters'];
  const decisions = placementExists
    ? await getOr(() =>
        hub.listAll<PlacementDecisionLike>(PLACEMENT_DECISION_TYPE, {
          namespace: ns,
          labelSelector: `${DECISION_PLACEMENT_LABEL}=${c.name}`,
        }),
      )
    : undefined;
  if (decisions && decisions !== 'forbidden') {
    const inGroup = (canary: boolean) =>
      decisions.items
        .filter(
          (d) =>
            (d.metadata.labels?.['cluster.open-cluster-management.io/decision-group-name'] === 'canary') === canary,
        )
        .flatMap((d) => (d.status?.decisions ?? []).map((x) => x.clusterName))
        .sort();
    const groups = new Set(
      decisions.items.map((d) => d.metadata.labels?.['cluster.open-cluster-management.io/decision-group-index']),
    );
    clusters = { source: 'decisions', canary: inGroup(true), rest: inGroup(false), waves: groups.size, left: [] };
  } else if (managedClusters && managedClusters !== 'forbidden') {
    clusters = { source: 'guess', ...guessPlacement(c, managedClusters.items) };
    if (!clusters.canary.length && !clusters.rest.length) blockers.push('the Placement would pick no cluster now');
    else if (c.canary && !clusters.canary.length)
      blockers.push('no cluster carries the canary labels: the rollout would start without a canary');
  } else {
    clusters = { source: 'guess', canary: [], rest: [], waves: 0, left: [] };
    blockers.push('you may not list ManagedClusters on the hub, so the clusters this rollout reaches cannot be shown');
  }

  // The API server's own checks, without storing anything. Objects in a namespace that does not
  // exist yet cannot be dry-run; existing ones are updated, not created.
  const dryRun: RolloutPreview['dryRun'] = [];
  for (const o of objects) {
    if (o.exists) {
      dryRun.push({ object: describe(o.object), ok: true, message: 'exists: the write updates its spec' });
      continue;
    }
    if (o.namespace && namespace === undefined) {
      dryRun.push({ object: describe(o.object), ok: true, message: `not dry-run: namespace ${ns} does not exist yet` });
      continue;
    }
    const t = o.kind === 'Namespace' ? NAMESPACE_TYPE : typeOfKind[o.kind]!;
    try {
      await hub.create(t, o.object, { dryRun: true });
      dryRun.push({ object: describe(o.object), ok: true });
    } catch (err) {
      if (!isKubeError(err)) throw err;
      dryRun.push({ object: describe(o.object), ok: false, message: err.message });
      if (err.code !== 403) blockers.push(`${describe(o.object)}: ${err.message}`);
    }
  }

  const onEachCluster = [
    `On every cluster the Placement picks, that cluster's OCM work agent applies these objects with its own ` +
      'identity there, not yours; your rights on those clusters are not asked:',
    ...clusterObjects(c, installerRbac).map(describe),
  ];
  if (next.kind === 'upgrade')
    onEachCluster.unshift(
      `An upgrade: ManifestWorkReplicaSet ${next.replaces} is deleted first and every cluster's ManifestWork of it ` +
        'goes, leaving what it installed as it is (orphaned); generation ' +
        `${next.generation} (${setNameNow}) then reaches the clusters wave by wave, the canary first, and a cluster ` +
        'keeps what it runs until its wave is reached.',
    );
  return {
    choices: c,
    objects,
    generation: next.generation,
    clusters,
    rights,
    dryRun,
    onEachCluster,
    blockers: [...new Set(blockers)],
  };
}
