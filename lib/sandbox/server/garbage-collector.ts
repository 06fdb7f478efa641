// The controllers a real cluster runs for the API machinery, as one sweep: the garbage collector
// (dependents whose owners are gone, orphaning, foreground deletion), the namespace controller
// (a terminating namespace emptied, then removed) and apiextensions' CRD finalizer (a deleted
// CRD's instances deleted before it goes).
import { keyId } from '../store/store';
import type { KObject } from '../store/types';
import type { ApiCore } from './api-core';
import { ApiStatusError } from './http-util';
import { CRD_RESOURCE, storeKey, type ServedResource } from './resources';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
export const isCrd = (r: ServedResource) => r.group === CRD_RESOURCE.group && r.resource === CRD_RESOURCE.resource;

export class GarbageCollector {
  constructor(private readonly core: ApiCore) {}

  allObjects(): { r: ServedResource; o: KObject }[] {
    const out: { r: ServedResource; o: KObject }[] = [];
    for (const r of this.core.resources.all()) {
      if (r.virtual || r.provider) continue;
      for (const o of this.core.store.scan(keyId(storeKey(r)))) out.push({ r, o });
    }
    return out;
  }

  hasDependents(uid: string): boolean {
    return this.allObjects().some(({ o }) => o.metadata.ownerReferences?.some((ref) => ref.uid === uid));
  }

  orphanDependents(uid: string): void {
    for (const { r, o } of this.allObjects()) {
      if (!o.metadata.ownerReferences?.some((ref) => ref.uid === uid)) continue;
      const fresh = this.core.store.get(storeKey(r), o.metadata.namespace, o.metadata.name ?? '')!;
      fresh.metadata.ownerReferences = fresh.metadata.ownerReferences?.filter((ref) => ref.uid !== uid);
      if (!fresh.metadata.ownerReferences?.length) delete fresh.metadata.ownerReferences;
      this.core.updateObject(r, fresh);
    }
  }

  /**
   * The CRD finalizer controller (apiextensions-apiserver's crd_finalizer.go): a deleted CRD says
   * `Terminating=True` (InstanceDeletionInProgress) while its instances are deleted — each one's
   * own finalizers honoured — then `Terminating=False` (InstanceDeletionCompleted) and lets go.
   * kube-apiserver gives up waiting after a minute and tries again; the sandbox simply waits.
   * Answers whether it removed the finalizer.
   */
  private cleanUpCrd(crd: KObject): boolean {
    const spec = crd.spec as { group?: string; names?: { plural?: string } };
    const instances = this.allObjects().filter(({ r }) => r.group === spec.group && r.resource === spec.names?.plural);
    for (const { r, o } of instances) {
      if (!o.metadata.deletionTimestamp)
        this.core.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', { propagationPolicy: 'Background' });
    }
    const left = this.allObjects().some(({ r }) => r.group === spec.group && r.resource === spec.names?.plural);
    const condition = left
      ? {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        }
      : { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    const key = storeKey(CRD_RESOURCE);
    const cur = this.core.store.get(key, undefined, crd.metadata.name ?? '');
    if (!cur) return false;
    const st = (cur.status ?? {}) as {
      conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
    };
    const prev = st.conditions?.find((c) => c.type === 'Terminating');
    if (!prev || prev.status !== condition.status || prev.reason !== condition.reason) {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const conditions = [
        ...(st.conditions ?? []).filter((c) => c.type !== 'Terminating'),
        { ...condition, lastTransitionTime: prev?.status === condition.status ? prev.lastTransitionTime : now },
      ];
      this.core.updateObject(CRD_RESOURCE, { ...cur, status: { ...st, conditions } }, 'status');
    }
    if (left) return false;
    const fresh = this.core.store.get(key, undefined, crd.metadata.name ?? '');
    if (!fresh) return false;
    this.core.updateObject(CRD_RESOURCE, {
      ...fresh,
      metadata: {
        ...fresh.metadata,
        finalizers: (fresh.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER),
      },
    });
    return true;
  }

  /**
   * One pass of the controllers a real cluster runs for the API machinery: dependents whose
   * owners are all gone are deleted, references to gone owners dropped from the others; foreground deletions finish when their dependents are gone;
   * terminating namespaces are emptied and then removed.
   */
  sweep(): void {
    for (let pass = 0; pass < 5; pass++) {
      const all = this.allObjects();
      const live = new Set(all.map(({ o }) => o.metadata.uid));
      let changed = false;
      for (const { r, o } of all) {
        const refs = o.metadata.ownerReferences ?? [];
        if (refs.length && refs.every((ref) => !live.has(ref.uid)) && !o.metadata.deletionTimestamp) {
          try {
            this.core.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', { propagationPolicy: 'Background' });
            changed = true;
          } catch (err) {
            if (!(err instanceof ApiStatusError && err.code === 404)) throw err;
          }
        } else if (refs.some((ref) => !live.has(ref.uid)) && !o.metadata.deletionTimestamp) {
          // Some owners left: the garbage collector only drops the references to the gone ones.
          const fresh = this.core.store.get(storeKey(r), o.metadata.namespace, o.metadata.name ?? '');
          if (!fresh) continue;
          const kept = (fresh.metadata.ownerReferences ?? []).filter((ref) => live.has(ref.uid));
          if (!kept.length) continue;
          this.core.updateObject(r, { ...fresh, metadata: { ...fresh.metadata, ownerReferences: kept } });
          changed = true;
        }
      }
      for (const { r, o } of this.allObjects()) {
        if (!o.metadata.deletionTimestamp) continue;
        const uid = o.metadata.uid ?? '';
        if (o.metadata.finalizers?.includes('foregroundDeletion')) {
          const deps = this.allObjects().filter(({ o: d }) =>
            d.metadata.ownerReferences?.some((ref) => ref.uid === uid),
          );
          for (const d of deps) {
            if (d.o.metadata.deletionTimestamp) continue;
            try {
              this.core.deleteObject(d.r, d.o.metadata.namespace, d.o.metadata.name ?? '', {
                propagationPolicy: 'Foreground',
              });
            } catch (err) {
              // Each delete sweeps again, and that inner sweep may already have taken a later
              // dependent of this list (a ReplicaSet's other pods): gone is what was wanted.
              if (!(err instanceof ApiStatusError && err.code === 404)) throw err;
            }
          }
          if (deps.length === 0) {
            this.core.updateObject(r, {
              ...o,
              metadata: { ...o.metadata, finalizers: o.metadata.finalizers.filter((f) => f !== 'foregroundDeletion') },
            });
            changed = true;
          }
        }
        if (isCrd(r) && o.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)) {
          if (this.cleanUpCrd(o)) changed = true;
        }
        if (r.resource === 'namespaces' && r.group === '') {
          const ns = o.metadata.name;
          const contents = this.allObjects().filter(
            ({ r: cr, o: co }) => cr.namespaced && co.metadata.namespace === ns,
          );
          for (const c of contents)
            if (!c.o.metadata.deletionTimestamp)
              this.core.deleteObject(c.r, ns, c.o.metadata.name ?? '', { propagationPolicy: 'Background' });
          if (contents.length === 0 && o.metadata.finalizers?.includes('kubernetes')) {
            this.core.updateObject(r, {
              ...o,
              metadata: { ...o.metadata, finalizers: o.metadata.finalizers.filter((f) => f !== 'kubernetes') },
            });
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
  }
}
