// What the sandbox's catalog operator and OLM operator share: the API machinery they act through
// (served resources, store reads, status writes), the condition helpers both use on statuses, and
// the names both write. Neither controller's rules live here.
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';

export const OLM = 'operators.coreos.com';
export const CSV_FINALIZER = 'operators.coreos.com/csv-cleanup';

export function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export type Cond = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
};

export function setCondition(conds: Cond[] | undefined, c: Cond): Cond[] {
  const list = [...(conds ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const prev = i >= 0 ? list[i] : undefined;
  const next = {
    ...c,
    lastTransitionTime: prev && prev.status === c.status && prev.reason === c.reason ? prev.lastTransitionTime : now(),
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

export function removeCondition(conds: Cond[] | undefined, type: string): Cond[] {
  return (conds ?? []).filter((c) => c.type !== type);
}

/** The API access of one controller: both operators read and write through the same API server. */
export abstract class OperatorBase {
  constructor(protected readonly api: ApiServer) {}

  protected res(group: string, version: string, resource: string): ServedResource {
    const r = this.api.resources.find(group, version, resource);
    if (!r) throw new Error(`no resource ${group}/${version}/${resource}`);
    return r;
  }

  protected get csvs() {
    return this.res(OLM, 'v1alpha1', 'clusterserviceversions');
  }
  protected get ogs() {
    return this.res(OLM, 'v1', 'operatorgroups');
  }
  protected get subs() {
    return this.res(OLM, 'v1alpha1', 'subscriptions');
  }
  protected get plans() {
    return this.res(OLM, 'v1alpha1', 'installplans');
  }
  protected get catalogSources() {
    return this.res(OLM, 'v1alpha1', 'catalogsources');
  }

  /**
   * The namespace's one OperatorGroup asks for `TechPreviewUnsafeFailForward` upgrades
   * (resolver/fail_forward.go IsFailForwardEnabled: none or several is not fail-forward).
   */
  protected failForward(ns: string): boolean {
    const groups = this.api.storeList(this.ogs, ns);
    return (
      groups.length === 1 &&
      (groups[0]!.spec as { upgradeStrategy?: string } | undefined)?.upgradeStrategy === 'TechPreviewUnsafeFailForward'
    );
  }

  protected writeStatus(r: ServedResource, obj: KObject, status: unknown): KObject {
    if (JSON.stringify(obj.status) === JSON.stringify(status)) return obj;
    return this.api.updateObject(r, { ...obj, status } as KObject, 'status');
  }

  protected exists(r: ServedResource, ns: string | undefined, name: string): KObject | undefined {
    return this.api.storeGet(r, ns, name);
  }
}
