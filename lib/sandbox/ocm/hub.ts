// Open Cluster Management in the sandbox: the first cluster of a sandbox fleet is the hub (OCM's
// CRDs, its registration controller, placement controller and ManifestWorkReplicaSet controller)
// and every cluster of the fleet, the hub's own as `local-cluster`, is a managed cluster whose
// registration and work agents run here, in the same process: the hub's ManifestWorks are applied
// on the member they name and their status is what that member's objects say. Controllers run off
// the API servers' change hooks on one work queue, as olm-v1.ts runs catalogd's
// (docs/sandbox.md#open-cluster-management).
import { WorkQueue } from '../olm-v1/queue';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { CLUSTER_GROUP, ocmHubCrds, ocmManagedCrds, WORK_GROUP } from './crds';
import { ocmKinds } from './objects';
import { Placements } from './placement';
import { Registration, type OcmMember } from './registration';
import { ReplicaSets } from './replica-sets';
import { WorkAgent } from './work-agent';

export interface OcmHub {
  /** Resolves once every controller has caught up (tests wait on it). */
  settled(): Promise<void>;
  controllerErrors: readonly string[];
  stop(): void;
}

function ensureCrds(api: ApiServer, crds: KObject[]): void {
  const r = api.resources.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  for (const crd of crds) {
    const existing = api.storeGet(r, undefined, crd.metadata.name!);
    if (!existing) api.createObject(r, crd);
    else if (JSON.stringify(existing.spec) !== JSON.stringify(crd.spec))
      api.updateObject(r, { ...existing, spec: crd.spec });
  }
}

/** Makes `hub` an OCM hub managing `members` (the hub itself among them, as local-cluster). */
export async function startOcmHub(hub: ApiServer, members: OcmMember[]): Promise<OcmHub> {
  ensureCrds(hub, ocmHubCrds());
  for (const m of members) if (m.api !== hub) ensureCrds(m.api, ocmManagedCrds());
  const kinds = ocmKinds(hub);
  const queue = new WorkQueue();
  const registration = new Registration(hub, kinds, members);
  const placements = new Placements(hub, kinds);
  const agent = new WorkAgent(hub, kinds, members);
  const run = (key: string, job: () => void) => queue.add(key, async () => job());
  const timers = new Set<NodeJS.Timeout>();
  const replicaSets = new ReplicaSets(hub, kinds, (ns, name, ms) => {
    const t = setTimeout(() => {
      timers.delete(t);
      replicaSet(ns, name);
    }, ms);
    t.unref();
    timers.add(t);
  });

  const placement = (ns: string, name: string) => run(`placement/${ns}/${name}`, () => placements.reconcile(ns, name));
  const everyPlacement = () => placements.names().forEach((p) => placement(p.namespace, p.name));
  const replicaSet = (ns: string, name: string) => run(`mwrs/${ns}/${name}`, () => replicaSets.reconcile(ns, name));
  const everyReplicaSet = () => replicaSets.names().forEach((p) => replicaSet(p.namespace, p.name));
  const work = (cluster: string, name: string) => run(`work/${cluster}/${name}`, () => agent.reconcile(cluster, name));
  const sets = () => run('sets', () => registration.reconcileSets());

  const previousHub = hub.hooks.onChange;
  hub.hooks.onChange = (r, e) => {
    previousHub?.(r, e);
    const o = e.object;
    if (r.group === CLUSTER_GROUP) {
      if (r.resource === 'managedclusters') {
        if (e.type !== 'DELETED')
          run(`cluster/${o.metadata.name}`, () => registration.reconcileCluster(o.metadata.name!));
        sets();
        everyPlacement();
      } else if (r.resource === 'managedclustersets' || r.resource === 'managedclustersetbindings') {
        sets();
        everyPlacement();
      } else if (r.resource === 'placements') placement(o.metadata.namespace!, o.metadata.name!);
      else if (r.resource === 'placementdecisions') everyReplicaSet();
    } else if (r.group === WORK_GROUP) {
      if (r.resource === 'manifestworks') {
        // The hub's controller sees a work it changed before the cluster's agent does (the agent
        // is another process, on another cluster): it judges the work by the conditions the
        // agent wrote for the spec before (docs/sandbox.md#open-cluster-management).
        const owner = ReplicaSets.owner(o);
        if (owner) replicaSet(owner.namespace, owner.name);
        if (e.type !== 'DELETED') work(o.metadata.namespace!, o.metadata.name!);
      } else if (r.resource === 'manifestworkreplicasets') replicaSet(o.metadata.namespace!, o.metadata.name!);
    }
  };
  // Each member's agents: its claims go to its ManagedCluster, a change to any of its objects
  // brings back the works that may have made it (their status and feedback follow the object).
  const restore: (() => void)[] = [];
  for (const m of members) {
    const previous = m.api.hooks.onChange;
    const own = (r: Parameters<NonNullable<ApiServer['hooks']['onChange']>>[0]) => {
      if (r.group === CLUSTER_GROUP && r.resource === 'clusterclaims')
        run(`cluster/${m.name}`, () => registration.reconcileCluster(m.name));
      else if (r.group !== CLUSTER_GROUP && r.group !== WORK_GROUP && r.resource !== 'events')
        for (const w of agent.worksOf(m.name)) work(m.name, w);
    };
    if (m.api === hub) {
      const hubHook = hub.hooks.onChange;
      hub.hooks.onChange = (r, e) => {
        hubHook?.(r, e);
        own(r);
      };
    } else {
      m.api.hooks.onChange = (r, e) => {
        previous?.(r, e);
        own(r);
      };
      restore.push(() => (m.api.hooks.onChange = previous));
    }
  }

  registration.ensureDefaultSets();
  for (const m of members) registration.join(m);
  sets();
  everyPlacement();
  for (const m of members) for (const w of agent.worksOf(m.name)) work(m.name, w);
  everyReplicaSet();
  await queue.settled();
  return {
    settled: () => queue.settled(),
    controllerErrors: queue.errors,
    stop: () => {
      for (const t of timers) clearTimeout(t);
      hub.hooks.onChange = previousHub;
      for (const r of restore) r();
    },
  };
}
