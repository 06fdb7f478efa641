// ReplicaSets, StatefulSets and DaemonSets on a kwok-like node: the controller makes the pods
// the spec asks for (random suffixes for a ReplicaSet, ordinals for a StatefulSet, one per node
// for a DaemonSet), deletes the extra ones, and the status counts them, every pod ready at once.
import { isDeepStrictEqual } from 'node:util';
import { generatedName } from '../server/http-util';
import type { ApiCore } from '../server/api-core';
import { storeKey, type ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { templateHash } from './deployments';
import { recordEvent } from './events';
import { kwokPod, NODE_NAME, ownedBy } from './pods';

type Obj = Record<string, unknown>;

export class ReplicaController {
  constructor(
    private readonly api: ApiCore,
    private readonly pods: ServedResource,
    private readonly nodes: ServedResource,
  ) {}

  private ownedPods(owner: KObject): KObject[] {
    return this.api.store
      .list(storeKey(this.pods), { namespace: owner.metadata.namespace })
      .items.filter((p) => ownedBy(p, owner) && !p.metadata.deletionTimestamp);
  }

  /** Creates a pod as `component` does, with its event and the scheduler's. */
  private createPod(owner: KObject, pod: KObject, component: string, message: string, now: string): void {
    const created = this.api.createObject(this.pods, pod);
    recordEvent(this.api, owner, 'SuccessfulCreate', message, component, now);
    const node = ((created.spec ?? {}) as Obj).nodeName ?? NODE_NAME;
    const where = `${created.metadata.namespace}/${created.metadata.name}`;
    recordEvent(this.api, created, 'Scheduled', `Successfully assigned ${where} to ${node}`, 'default-scheduler', now);
  }

  private writeStatus(r: ServedResource, o: KObject, status: Obj): void {
    if (!isDeepStrictEqual(status, o.status)) this.api.updateObject(r, { ...o, status }, 'status');
  }

  replicaSet(r: ServedResource, rs: KObject, now: string): void {
    const spec = (rs.spec ?? {}) as Obj;
    const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
    let pods = this.ownedPods(rs);
    for (let i = pods.length; i < want; i++) {
      const name = generatedName(`${rs.metadata.name}-`);
      const pod = kwokPod(rs, spec.template as Obj, name, {}, now);
      this.createPod(rs, pod, 'replicaset-controller', `Created pod: ${name}`, now);
    }
    // The newest pods go first when scaling down, as the controller's ranking prefers.
    for (const p of pods.sort((a, b) => cmpCreated(b, a)).slice(0, Math.max(0, pods.length - want))) {
      this.api.deleteObject(this.pods, p.metadata.namespace, p.metadata.name ?? '');
      recordEvent(this.api, rs, 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`, 'replicaset-controller', now);
    }
    pods = this.ownedPods(rs);
    const n = pods.length;
    this.writeStatus(r, rs, {
      replicas: n,
      ...(n ? { fullyLabeledReplicas: n, readyReplicas: n, availableReplicas: n } : {}),
      observedGeneration: rs.metadata.generation,
    });
  }

  statefulSet(r: ServedResource, sts: KObject, now: string): void {
    const spec = (sts.spec ?? {}) as Obj;
    const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const revision = `${sts.metadata.name}-${templateHash(spec.template)}`;
    const pods = this.ownedPods(sts);
    const names = new Set(pods.map((p) => p.metadata.name));
    for (let i = 0; i < want; i++) {
      const name = `${sts.metadata.name}-${i}`;
      if (names.has(name)) continue;
      const labels = {
        'controller-revision-hash': revision,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(i),
      };
      const pod = kwokPod(sts, spec.template as Obj, name, labels, now);
      const message = `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`;
      this.createPod(sts, pod, 'statefulset-controller', message, now);
    }
    for (const p of pods) {
      const ordinal = Number(/-(\d+)$/.exec(p.metadata.name ?? '')?.[1] ?? -1);
      if (ordinal >= want) this.api.deleteObject(this.pods, p.metadata.namespace, p.metadata.name ?? '');
    }
    const n = Math.min(want, this.ownedPods(sts).length);
    this.writeStatus(r, sts, {
      observedGeneration: sts.metadata.generation,
      replicas: n,
      ...(n ? { readyReplicas: n, currentReplicas: n, updatedReplicas: n } : {}),
      availableReplicas: n,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    });
  }

  daemonSet(r: ServedResource, ds: KObject, now: string): void {
    const spec = (ds.spec ?? {}) as Obj;
    const nodes = this.api.store.list(storeKey(this.nodes)).items;
    const pods = this.ownedPods(ds);
    const onNode = new Set(pods.map((p) => (p.spec as Obj | undefined)?.nodeName));
    const hash = templateHash(spec.template);
    for (const node of nodes) {
      if (onNode.has(node.metadata.name)) continue;
      const pod = kwokPod(
        ds,
        spec.template as Obj,
        generatedName(`${ds.metadata.name}-`),
        {
          'controller-revision-hash': hash,
          'pod-template-generation': String(ds.metadata.generation ?? 1),
        },
        now,
      );
      (pod.spec as Obj).nodeName = node.metadata.name;
      this.createPod(ds, pod, 'daemonset-controller', `Created pod: ${pod.metadata.name}`, now);
    }
    const n = nodes.length;
    this.writeStatus(r, ds, {
      currentNumberScheduled: n,
      numberMisscheduled: 0,
      desiredNumberScheduled: n,
      numberReady: n,
      observedGeneration: ds.metadata.generation,
      ...(n ? { updatedNumberScheduled: n, numberAvailable: n } : {}),
    });
  }
}

function cmpCreated(a: KObject, b: KObject): number {
  return (
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')
  );
}
