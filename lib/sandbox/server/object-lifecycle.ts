// Creating, replacing and deleting objects as kube-apiserver does for a client, and for the
// sandbox's controllers, which write through the same rules: names checked, custom resources
// decoded and validated against their CRD's schema, namespaces required and not terminating,
// no-op updates that wake nobody, deletion with propagation, namespaces and CRDs finalized.
import { crdSchemaErrors } from '../apimachinery/crd-schema';
import { celStageErrors } from '../olm-v1/cel/rules';
import { applyDefaults, normalize, validate, type FieldError } from '../apimachinery/structural';
import { qualifiedResource } from '../store/store';
import type { KObject, WatchEvent } from '../store/types';
import type { ApiCore, DeleteOptions } from './api-core';
import { CRD_CLEANUP_FINALIZER, isCrd, type GarbageCollector } from './garbage-collector';
import { ApiStatusError, invalidName, invalidObject, generatedName } from './http-util';
import { CRD_RESOURCE, storeKey, type ServedResource } from './resources';
import { workloadDefaults } from '../workloads/defaults';

export class ObjectLifecycle {
  constructor(
    private readonly core: ApiCore,
    private readonly gc: GarbageCollector,
  ) {}

  /**
   * A custom resource as kube-apiserver decodes and validates it against its CRD's schema for
   * the version the client used: unknown fields pruned, nulls dropped, defaults applied (then
   * the storage version's defaults, as a read from storage would add them), and the field
   * errors the schema finds. Kinds without a schema (built-ins) are left as they are.
   */
  private conform(r: ServedResource, o: KObject, version: string, old?: KObject): FieldError[] {
    const schema = r.schemas?.[version];
    if (!schema) return [];
    normalize(o, schema);
    const storage = r.schemas?.[r.versions[0]!];
    if (storage && storage !== schema) applyDefaults(o, storage);
    // The CRD's CEL rules come after its OpenAPI validation, as kube-apiserver runs them, and not
    // at all after an error that leaves values of the wrong shape.
    const errs = validate(o, schema);
    return [...errs, ...celStageErrors(errs, o, schema, old)];
  }

  /**
   * A CRD update's schema errors, less those the stored CRD already has at the same place: kube
   * never stores such a CRD, but the sandbox's data file may hold one written before it checked
   * patterns, and that CRD must still take a label or lose its finalizer (and so be deleted).
   */
  private newCrdSchemaErrors(o: KObject): FieldError[] {
    const stored = this.core.store.get(storeKey(CRD_RESOURCE), undefined, o.metadata.name ?? '');
    const key = (e: FieldError) => JSON.stringify([e.field, e.value]);
    const had = new Set(stored ? crdSchemaErrors(stored).map(key) : []);
    return crdSchemaErrors(o).filter((e) => !had.has(key(e)));
  }

  private requireNamespace(ns: string | undefined): void {
    if (!ns) throw new ApiStatusError(400, 'BadRequest', 'the namespace of the object must be set');
    const nsRes = this.core.resources.find('', 'v1', 'namespaces')!;
    const existing = this.core.store.get(storeKey(nsRes), undefined, ns);
    if (!existing)
      throw new ApiStatusError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });
    if (existing.metadata.deletionTimestamp) {
      throw new ApiStatusError(
        403,
        'Forbidden',
        `unable to create new content in namespace ${ns} because it is being terminated`,
      );
    }
  }

  private committed(r: ServedResource, type: WatchEvent['type'], object: KObject): void {
    if (r.resource === 'customresourcedefinitions' && r.group === 'apiextensions.k8s.io') this.core.syncCrds();
    this.core.hooks.onChange?.(r, { type, object });
  }

  /** Creates an object as the API server would for a client (used by controllers too). */
  createObject(r: ServedResource, o: KObject, dryRun = false, version = r.versions[0]!): KObject {
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = generatedName(o.metadata.generateName);
    const name = o.metadata.name ?? '';
    if (!name)
      throw invalidObject(r.group, r.kind, '', [
        {
          type: 'FieldValueRequired',
          field: 'metadata.name',
          hasValue: false,
          detail: 'name or generateName is required',
        },
      ]);
    if (r.terminating)
      throw new ApiStatusError(
        403,
        'Forbidden',
        `${r.resource}.${r.group} "${name}" is forbidden: create not allowed while custom resource definition is terminating`,
        { name, group: r.group, kind: r.resource },
      );
    const bad = invalidName(
      name,
      r.resource === 'namespaces' ? 'label' : r.group === 'rbac.authorization.k8s.io' ? 'path-segment' : 'subdomain',
    );
    // Metadata errors come first, then the schema's, in one list, as the CRD strategy reports them.
    const errs: FieldError[] = bad
      ? [{ type: 'FieldValueInvalid', field: 'metadata.name', value: name, hasValue: true, detail: bad }]
      : [];
    errs.push(...this.conform(r, o, version));
    if (isCrd(r)) errs.push(...crdSchemaErrors(o));
    if (errs.length) throw invalidObject(r.group, r.kind, name, errs);
    if (r.namespaced) this.requireNamespace(o.metadata.namespace);
    if (r.kind === 'Secret' && r.group === '' && !o.type) o.type = 'Opaque';
    if (!r.crd) workloadDefaults(r.group, r.kind, o, true);
    if (r.resource === 'namespaces' && r.group === '') {
      o.spec = { finalizers: ['kubernetes'], ...(o.spec as object | undefined) };
      o.status = { phase: 'Active' };
      o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': name };
    }
    const created = this.core.store.create(storeKey(r), o, { dryRun });
    if (!dryRun) this.committed(r, 'ADDED', created);
    return created;
  }

  /** Replaces an object (or its status) as the API server would (used by controllers too). */
  updateObject(r: ServedResource, o: KObject, subresource?: string, dryRun = false, version = r.versions[0]!): KObject {
    const stored = this.core.store.get(
      storeKey(r),
      r.namespaced ? o.metadata.namespace : undefined,
      o.metadata.name ?? '',
    );
    const errs = this.conform(r, o, version, stored);
    if (!r.crd && subresource !== 'status') workloadDefaults(r.group, r.kind, o, false);
    if (isCrd(r) && subresource !== 'status') errs.push(...this.newCrdSchemaErrors(o));
    if (errs.length) throw invalidObject(r.group, r.kind, o.metadata.name ?? '', errs);
    const before = stored?.metadata.resourceVersion;
    const updated = this.core.store.update(storeKey(r), o, {
      subresource: subresource === 'status' ? 'status' : undefined,
      dryRun,
    });
    // A no-op update changes nothing and wakes no controller, as on a real API server.
    if (!dryRun && updated.metadata.resourceVersion !== before)
      this.committed(
        r,
        updated.metadata.deletionTimestamp &&
          !this.core.store.get(storeKey(r), updated.metadata.namespace, updated.metadata.name ?? '')
          ? 'DELETED'
          : 'MODIFIED',
        updated,
      );
    return updated;
  }

  /** Deletes as the API server would, with propagation (used by controllers too). */
  deleteObject(r: ServedResource, namespace: string | undefined, name: string, opts: DeleteOptions = {}): KObject {
    const key = storeKey(r);
    const current = this.core.store.get(key, namespace, name);
    if (!current)
      throw new ApiStatusError(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, {
        name,
        group: r.group,
        kind: r.resource,
      });
    const policy = opts.propagationPolicy ?? 'Background';
    if (!opts.dryRun && r.resource === 'namespaces' && r.group === '' && !current.metadata.deletionTimestamp) {
      // The namespace controller empties a namespace before it goes; until then it is Terminating.
      const terminating = {
        ...current,
        metadata: {
          ...current.metadata,
          finalizers: [...new Set([...(current.metadata.finalizers ?? []), 'kubernetes'])],
        },
        status: { phase: 'Terminating' },
      };
      this.core.store.update(key, terminating, {});
      this.core.store.update(
        key,
        { ...this.core.store.get(key, undefined, name)!, status: { phase: 'Terminating' } },
        { subresource: 'status' },
      );
    }
    if (
      !opts.dryRun &&
      isCrd(r) &&
      !current.metadata.deletionTimestamp &&
      !current.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)
    ) {
      // kube-apiserver's CRD storage adds this finalizer on delete; its CRD finalizer controller
      // (sweep) deletes every instance, then removes it.
      this.core.store.update(
        key,
        {
          ...current,
          metadata: {
            ...current.metadata,
            finalizers: [...(current.metadata.finalizers ?? []), CRD_CLEANUP_FINALIZER],
          },
        },
        {},
      );
      const marked = this.core.store.get(key, undefined, name)!;
      const st = (marked.status ?? {}) as { conditions?: { type: string }[] };
      const pending = {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
      this.core.store.update(
        key,
        {
          ...marked,
          status: { ...st, conditions: [...(st.conditions ?? []).filter((c) => c.type !== 'Terminating'), pending] },
        },
        { subresource: 'status' },
      );
    }
    if (!opts.dryRun && policy === 'Orphan') this.gc.orphanDependents(current.metadata.uid ?? '');
    if (!opts.dryRun && policy === 'Foreground' && this.gc.hasDependents(current.metadata.uid ?? '')) {
      const fin = {
        ...current,
        metadata: {
          ...current.metadata,
          finalizers: [...new Set([...(current.metadata.finalizers ?? []), 'foregroundDeletion'])],
        },
      };
      this.core.store.update(key, fin, {});
    }
    const { object, deleted } = this.core.store.delete(key, namespace, name, {
      uid: opts.uid,
      resourceVersion: opts.resourceVersion,
      dryRun: opts.dryRun,
    });
    if (!opts.dryRun) {
      this.committed(r, deleted ? 'DELETED' : 'MODIFIED', object);
      this.core.sweep();
    }
    return object;
  }
}
