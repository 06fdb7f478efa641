// OpenShift's marketplace operator, as far as OperatorHub `cluster` reaches (the sandbox's
// OpenShift flavour only). Its default sources are the sandbox's own catalogs in
// openshift-marketplace (each --catalog folder, or the demo catalog): what OpenShift ships as
// redhat-operators, certified-operators and community-operators. As operator-marketplace does
// (pkg/operatorhub, pkg/defaults, the catalogsource controller): an enabled default is created,
// or has its definition's spec and the managed-by annotation put back when someone changed them;
// a disabled one is deleted if it carries that annotation (its registry stops with it); every name
// in the effective config is reported in status.sources. The rules are lib/olm's.
import {
  effectiveSources,
  hubSourceStatuses,
  isManagedByMarketplace,
  MARKETPLACE_MANAGED_BY,
  OPERATOR_HUB_NAME,
  type OperatorHub,
} from '../../olm/catalog/operator-hub-config';
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';

export class MarketplaceOperator {
  /** Name → the CatalogSource it stands for (with the managed-by annotation). */
  private readonly definitions = new Map<string, KObject>();

  constructor(
    private readonly api: ApiServer,
    readonly namespace: string,
    definitions: readonly KObject[],
  ) {
    for (const d of definitions) {
      const def = structuredClone(d);
      def.metadata.annotations = {
        ...def.metadata.annotations,
        [MARKETPLACE_MANAGED_BY.key]: MARKETPLACE_MANAGED_BY.value,
      };
      this.definitions.set(def.metadata.name ?? '', def);
    }
  }

  get defaults(): string[] {
    return [...this.definitions.keys()];
  }

  private get catalogSources(): ServedResource {
    return this.api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
  }

  private get hubs(): ServedResource | undefined {
    return this.api.resources.find('config.openshift.io', 'v1', 'operatorhubs');
  }

  private hub(): OperatorHub | undefined {
    const r = this.hubs;
    return r ? (this.api.storeGet(r, undefined, OPERATOR_HUB_NAME) as OperatorHub | undefined) : undefined;
  }

  /** Whether a CatalogSource change is the business of this operator (one of its defaults). */
  watches(namespace: string | undefined, name: string | undefined): boolean {
    return namespace === this.namespace && this.definitions.has(name ?? '');
  }

  /**
   * OperatorHub `cluster` changed (or the sandbox started): every default brought in line, and
   * the outcome written to its status. Without the object every default is enabled, as the
   * operator's config is before it has seen one.
   */
  reconcileHub(): void {
    const hub = this.hub();
    const effective = effectiveSources(hub?.spec, this.defaults);
    const failures = new Map<string, string>();
    for (const name of this.defaults) {
      try {
        this.ensure(name, effective.get(name) === true);
      } catch (err) {
        failures.set(name, (err as Error).message);
      }
    }
    if (!hub) return;
    const status = { sources: hubSourceStatuses(effective, this.defaults, failures) };
    if (JSON.stringify(hub.status ?? {}) === JSON.stringify(status)) return;
    this.api.updateObject(this.hubs!, { ...(hub as KObject), status }, 'status');
  }

  /** One default CatalogSource changed or went: put it back as the config says (no status write, as the operator's CatalogSource controller). */
  reconcileSource(name: string): void {
    const effective = effectiveSources(this.hub()?.spec, this.defaults);
    try {
      this.ensure(name, effective.get(name) === true);
    } catch (err) {
      console.error(`sandbox marketplace operator: CatalogSource ${this.namespace}/${name}: ${(err as Error).message}`);
    }
  }

  private ensure(name: string, disabled: boolean): void {
    const def = this.definitions.get(name);
    if (!def) return;
    const r = this.catalogSources;
    const cur = this.api.storeGet(r, this.namespace, name);
    if (disabled) {
      // Only its own: a CatalogSource of that name someone else made stays.
      if (cur && isManagedByMarketplace(cur) && !cur.metadata.deletionTimestamp)
        this.api.deleteObject(r, this.namespace, name);
      return;
    }
    if (!cur) {
      this.api.createObject(r, structuredClone(def));
      return;
    }
    if (isManagedByMarketplace(cur) && JSON.stringify(cur.spec) === JSON.stringify(def.spec)) return;
    this.api.updateObject(r, {
      ...cur,
      metadata: { ...cur.metadata, annotations: { ...cur.metadata.annotations, ...def.metadata.annotations } },
      spec: structuredClone(def.spec),
    });
  }
}
