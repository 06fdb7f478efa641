// The deployment controller's work, as kube-controller-manager does it, less the gradual
// rollout: each pod template gets a ReplicaSet named by the template's hash and labelled with
// `pod-template-hash`; the one matching the current template is scaled to the Deployment's
// replicas and every other to zero at once; revisions go in `deployment.kubernetes.io/revision`
// (an old template brought back by `kubectl rollout undo` takes the next revision, and its old
// number goes to `revision-history`); old ReplicaSets beyond `revisionHistoryLimit` are deleted;
// status sums the ReplicaSets'. OLM's Deployments are reported by the OLM emulations instead.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ApiCore } from '../server/api-core';
import { storeKey, type ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { recordEvent } from './events';
import { olmManaged } from './olm-managed';
import { controllerRef, ownedBy } from './pods';

type Obj = Record<string, unknown>;

export const REVISION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
const DESIRED = 'deployment.kubernetes.io/desired-replicas';
const MAX = 'deployment.kubernetes.io/max-replicas';
const HASH = 'pod-template-hash';
/** Annotations of the Deployment that are its own, not copied to its ReplicaSets. */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED,
  MAX,
]);
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** A short hash of the pod template in the alphabet Kubernetes' generated names use. */
export function templateHash(template: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(semantic(template ?? {})))
    .digest();
  return [...digest.subarray(0, 10)].map((b) => SAFE[b % SAFE.length]).join('');
}

/** A value without its nulls: Go reads `creationTimestamp: null` as the zero time, as if absent. */
function semantic(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(semantic);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null && x !== undefined)
      .map(([k, x]) => [k, semantic(x)]),
  );
}

/** The deployment controller's EqualIgnoreHash: templates equal once `pod-template-hash` is set aside. */
function sameTemplate(rsTemplate: unknown, template: unknown): boolean {
  const t = structuredClone((rsTemplate ?? {}) as Obj);
  const labels = (t.metadata as Obj | undefined)?.labels as Record<string, string> | undefined;
  if (labels) delete labels[HASH];
  return isDeepStrictEqual(semantic(t), semantic(template));
}

const revisionOf = (o: KObject) => Number(o.metadata.annotations?.[REVISION] ?? 0);

function maxSurge(d: KObject, replicas: number): number {
  const ru = ((d.spec as Obj).strategy as Obj | undefined)?.rollingUpdate as Obj | undefined;
  const v = ru?.maxSurge ?? '25%';
  if (typeof v === 'number') return v;
  const pct = /^(\d+)%$/.exec(String(v));
  return pct ? Math.ceil((replicas * Number(pct[1])) / 100) : Number(v) || 0;
}

export class DeploymentController {
  constructor(
    private readonly api: ApiCore,
    private readonly deployments: ServedResource,
    private readonly replicaSets: ServedResource,
  ) {}

  reconcile(namespace: string, name: string, now: string): void {
    const d = this.api.store.get(storeKey(this.deployments), namespace, name);
    if (!d || d.metadata.deletionTimestamp || olmManaged(d)) return;
    const spec = (d.spec ?? {}) as Obj;
    const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const owned = this.api.store
      .list(storeKey(this.replicaSets), { namespace })
      .items.filter((rs) => ownedBy(rs, d) && !rs.metadata.deletionTimestamp);
    if (spec.paused) return this.writeStatus(d, owned, undefined, now);
    const template = spec.template;
    let current = owned.find((rs) => sameTemplate((rs.spec as Obj).template, template));
    const maxRevision = Math.max(0, ...owned.map(revisionOf));
    const annotations = Object.fromEntries(
      Object.entries(d.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)),
    );
    const counts = { [DESIRED]: String(replicas), [MAX]: String(replicas + maxSurge(d, replicas)) };
    if (!current) {
      const hash = templateHash(template);
      const t = structuredClone((template ?? {}) as Obj);
      const tMeta = (t.metadata ??= {}) as Obj;
      tMeta.labels = { ...(tMeta.labels as object), [HASH]: hash };
      const selector = structuredClone((spec.selector ?? {}) as Obj);
      selector.matchLabels = { ...(selector.matchLabels as object), [HASH]: hash };
      current = this.api.createObject(this.replicaSets, {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `${name}-${hash}`,
          namespace,
          labels: tMeta.labels as Record<string, string>,
          annotations: { ...annotations, ...counts, [REVISION]: String(maxRevision + 1) },
          ownerReferences: [controllerRef(d)] as never,
        },
        spec: {
          replicas,
          ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
          selector,
          template: t,
        },
      });
      if (replicas > 0) this.scaled(d, current, 0, replicas, now);
    } else {
      const rev = revisionOf(current);
      const history = current.metadata.annotations?.[REVISION_HISTORY];
      const next = {
        ...current.metadata.annotations,
        ...annotations,
        ...counts,
        ...(rev < maxRevision
          ? {
              [REVISION]: String(maxRevision + 1),
              [REVISION_HISTORY]: history ? `${history},${rev}` : String(rev),
            }
          : {}),
      };
      const curSpec = current.spec as Obj;
      const before = (curSpec.replicas as number | undefined) ?? 1;
      if (before !== replicas || !isDeepStrictEqual(next, current.metadata.annotations))
        current = this.api.updateObject(this.replicaSets, {
          ...current,
          metadata: { ...current.metadata, annotations: next },
          spec: { ...curSpec, replicas },
        });
      if (before !== replicas) this.scaled(d, current, before, replicas, now);
    }
    for (const rs of owned) {
      const before = ((rs.spec as Obj).replicas as number | undefined) ?? 1;
      if (rs.metadata.uid === current.metadata.uid || before === 0) continue;
      this.api.updateObject(this.replicaSets, { ...rs, spec: { ...(rs.spec as Obj), replicas: 0 } });
      this.scaled(d, rs, before, 0, now);
    }
    this.pruneHistory(d, owned, current);
    const revision = current.metadata.annotations?.[REVISION] ?? '1';
    if (d.metadata.annotations?.[REVISION] !== revision)
      this.api.updateObject(this.deployments, {
        ...d,
        metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, [REVISION]: revision } },
      });
    this.writeStatus(
      this.api.store.get(storeKey(this.deployments), namespace, name) ?? d,
      owned.filter((rs) => rs.metadata.uid !== current.metadata.uid).concat(current),
      current,
      now,
    );
  }

  private scaled(d: KObject, rs: KObject, from: number, to: number, now: string): void {
    const how = to > from ? 'up' : 'down';
    const message = `Scaled ${how} replica set ${rs.metadata.name} from ${from} to ${to}`;
    recordEvent(this.api, d, 'ScalingReplicaSet', message, 'deployment-controller', now);
  }

  /** Old ReplicaSets scaled to zero, oldest first, beyond `revisionHistoryLimit` (10) are deleted. */
  private pruneHistory(d: KObject, owned: KObject[], current: KObject): void {
    const limit = ((d.spec as Obj).revisionHistoryLimit as number | undefined) ?? 10;
    const old = owned
      .filter((rs) => rs.metadata.uid !== current.metadata.uid)
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of old.slice(0, Math.max(0, old.length - limit)))
      this.api.deleteObject(this.replicaSets, rs.metadata.namespace, rs.metadata.name ?? '');
  }

  private writeStatus(d: KObject, owned: KObject[], current: KObject | undefined, now: string): void {
    const rsStatus = (rs: KObject) => (rs.status ?? {}) as Record<string, number | undefined>;
    const sum = (f: string) => owned.reduce((n, rs) => n + (rsStatus(rs)[f] ?? 0), 0);
    const desired = ((d.spec as Obj).replicas as number | undefined) ?? 1;
    const updated = current ? (rsStatus(current).replicas ?? 0) : 0;
    const available = sum('availableReplicas');
    const total = sum('replicas');
    const old = (d.status ?? {}) as { conditions?: Obj[] };
    const since = (type: string, status: string, reason: string) => {
      const prev = old.conditions?.find((c) => c.type === type);
      return prev && prev.status === status && prev.reason === reason ? prev.lastTransitionTime : now;
    };
    const done = !!current && updated === desired && total === desired && available === desired;
    const availableStatus = available >= desired - Math.floor(desired * 0.25) ? 'True' : 'False';
    const availableReason = availableStatus === 'True' ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable';
    const progressReason = done ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated';
    const rsName = current?.metadata.name ?? '';
    const conditions = [
      {
        type: 'Available',
        status: availableStatus,
        lastUpdateTime: now,
        lastTransitionTime: since('Available', availableStatus, availableReason),
        reason: availableReason,
        message:
          availableStatus === 'True'
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: now,
        lastTransitionTime: since('Progressing', 'True', progressReason),
        reason: progressReason,
        message: done
          ? `ReplicaSet "${rsName}" has successfully progressed.`
          : `ReplicaSet "${rsName}" is progressing.`,
      },
    ];
    const nonZero = (k: string, v: number) => (v ? { [k]: v } : {});
    const status = {
      observedGeneration: d.metadata.generation,
      ...nonZero('replicas', total),
      ...nonZero('updatedReplicas', updated),
      ...nonZero('readyReplicas', sum('readyReplicas')),
      ...nonZero('availableReplicas', available),
      ...nonZero('unavailableReplicas', Math.max(0, desired - available)),
      conditions: conditions.map((c) => {
        // A condition that says the same keeps its times, so a settled Deployment is not rewritten.
        const prev = old.conditions?.find((p) => p.type === c.type);
        return prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message ? prev : c;
      }),
    };
    if (!isDeepStrictEqual(status, d.status)) this.api.updateObject(this.deployments, { ...d, status }, 'status');
  }
}
