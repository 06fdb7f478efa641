// The sandbox's Operator controller (OLM's operator_controller.go, docs/olm/operator-objects.md):
// the cluster-scoped `operators.coreos.com/v1` Operator `<name>` lists every object, in any
// namespace, of the component kinds that carries the label `operators.coreos.com/<name>`. It is
// woken per Operator name, as OLM's is: by a change (create, update, delete) to a labelled object
// of a watched kind, and by a change to the Operator itself. Deleted while components remain, the
// Operator is made again; once none remain it stays deleted.
import { ApiStatusError } from '../server/http-util';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { OLM, OperatorBase } from './operator-base';
import {
  COMPONENT_KINDS,
  componentKind,
  componentLabelKey,
  componentRef,
  operatorNames,
  operatorStatus,
  type Component,
} from './operator-components';

type Ref = { kind?: string; apiVersion?: string; namespace?: string; name?: string };

export class OperatorController extends OperatorBase {
  private get operators() {
    return this.res(OLM, 'v1', 'operators');
  }

  private served(): Component[] {
    return COMPONENT_KINDS.flatMap(({ group, version, resource }) => {
      const r = this.api.resources.find(group, version, resource);
      return r ? [{ r, version }] : [];
    });
  }

  /**
   * The Operators a committed change concerns. OLM maps both the old and the new object of an
   * update to the Operators their labels name, so one that loses a label still wakes its former
   * Operator; the store keeps no old object, and the Operators that list this one stand for it.
   */
  namesOf(r: ServedResource, o: KObject): string[] {
    if (r.group === OLM && r.resource === 'operators') return o.metadata.name ? [o.metadata.name] : [];
    if (!componentKind(r)?.watched) return [];
    const names = new Set(operatorNames(o.metadata.labels));
    for (const op of this.api.storeList(this.operators))
      if (this.lists(op, r, o) && op.metadata.name) names.add(op.metadata.name);
    return [...names];
  }

  /** Every Operator there is and every one a component names: what OLM reconciles when it starts. */
  allNames(): string[] {
    const names = new Set(this.api.storeList(this.operators).map((o) => o.metadata.name ?? ''));
    for (const { r } of this.served())
      if (componentKind(r)?.watched)
        for (const o of this.api.storeList(r)) for (const n of operatorNames(o.metadata.labels)) names.add(n);
    names.delete('');
    return [...names];
  }

  /** Whether an Operator's refs name this object. */
  private lists(op: KObject, r: ServedResource, o: KObject): boolean {
    const refs = (op.status as { components?: { refs?: Ref[] } } | undefined)?.components?.refs ?? [];
    return refs.some(
      (x) =>
        x.kind === r.kind &&
        x.apiVersion?.split('/').slice(0, -1).join('/') === r.group &&
        (x.namespace ?? '') === (o.metadata.namespace ?? '') &&
        x.name === o.metadata.name,
    );
  }

  /** One reconcile of the Operator `name` (OperatorReconciler.Reconcile). */
  reconcile(name: string): void {
    const key = componentLabelKey(name);
    const refs: Record<string, unknown>[] = [];
    for (const c of this.served())
      for (const o of this.api.storeList(c.r)) if (key in (o.metadata.labels ?? {})) refs.push(componentRef(c, o));
    let op = this.exists(this.operators, undefined, name);
    if (!op) {
      // Not there: made only while something still carries its label (hasExistingComponents).
      if (!refs.length) return;
      try {
        op = this.api.createObject(this.operators, {
          apiVersion: `${OLM}/v1`,
          kind: 'Operator',
          metadata: { name },
          spec: {},
        });
      } catch (err) {
        // A label whose name is no valid object name (capitals, say): OLM's create fails and it
        // retries with backoff for as long as the label stays; nothing is ever made either way.
        if (err instanceof ApiStatusError && err.code === 422) return;
        throw err;
      }
    }
    this.writeStatus(this.operators, op, operatorStatus(name, refs));
  }
}
