// Pods as a kwok node reports them (the real cluster runs kwok): scheduled on the one node,
// running and ready at once, or succeeded for a Job's pods; nothing runs. Their names, labels and
// owner reference are the workload controller's, as kube-controller-manager would write them.
import type { KObject } from '../store/types';
import { podSpecDefaults } from './defaults';

type Obj = Record<string, unknown>;

export const NODE_NAME = 'sandbox-node-1';
let nextIp = 10;

function condition(type: string, at: string) {
  return { type, status: 'True', lastProbeTime: null, lastTransitionTime: at };
}

/** The controller owner reference a workload writes on what it makes. */
export function controllerRef(owner: KObject): Obj {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function ownedBy(o: KObject, owner: KObject): boolean {
  return (o.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid);
}

/** A pod from a template, owned by `owner`, as kwok leaves it: Running, or Succeeded for a Job. */
export function kwokPod(
  owner: KObject,
  template: Obj,
  name: string,
  extraLabels: Record<string, string>,
  at: string,
  done = false,
): KObject {
  const meta = (template.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const spec = structuredClone((template.spec ?? {}) as Obj);
  podSpecDefaults(spec);
  spec.nodeName = NODE_NAME;
  const containers = (spec.containers as Obj[] | undefined) ?? [];
  const ip = `10.244.0.${(nextIp = nextIp >= 250 ? 10 : nextIp + 1)}`;
  const state = done
    ? { terminated: { exitCode: 0, reason: 'Completed', startedAt: at, finishedAt: at } }
    : { running: { startedAt: at } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      labels: { ...meta.labels, ...extraLabels },
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
      ownerReferences: [controllerRef(owner)] as never,
    },
    spec,
    status: {
      phase: done ? 'Succeeded' : 'Running',
      conditions: [
        condition('PodReadyToStartContainers', at),
        condition('Initialized', at),
        done ? { ...condition('Ready', at), status: 'False', reason: 'PodCompleted' } : condition('Ready', at),
        done
          ? { ...condition('ContainersReady', at), status: 'False', reason: 'PodCompleted' }
          : condition('ContainersReady', at),
        condition('PodScheduled', at),
      ],
      hostIP: '10.0.0.1',
      hostIPs: [{ ip: '10.0.0.1' }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: at,
      qosClass: 'BestEffort',
      containerStatuses: containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: !done,
        started: !done,
        restartCount: 0,
        state,
      })),
    },
  };
}
