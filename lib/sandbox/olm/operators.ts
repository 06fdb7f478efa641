// The catalog operator and the OLM operator of the sandbox, level-triggered per namespace: each
// pass reads the namespace's Subscriptions, InstallPlans, CSVs and OperatorGroup and moves them
// one step the way OLM does (docs/olm/README.md). The rules about graphs, install
// modes and targets are lib/olm's; the two controllers (catalog-operator.ts, olm-operator.ts)
// write the resulting objects and statuses; the adoption controller (adoption.ts) labels what
// belongs to each operator. The Operator controller (operator-controller.ts) keeps each Operator
// object, woken per Operator rather than per namespace. This file wires them and orders one pass.
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { AdoptionController } from './adoption';
import type { CatalogSources } from './catalog-sources';
import { CatalogOperator } from './catalog-operator';
import { OlmOperator, type OperatorOptions } from './olm-operator';
import { OperatorController } from './operator-controller';

export type { OperatorOptions };

export class Operators {
  private readonly catalog: CatalogOperator;
  private readonly olm: OlmOperator;
  private readonly adoption: AdoptionController;
  private readonly operatorObjects: OperatorController;

  constructor(api: ApiServer, catalogs: CatalogSources, opts: OperatorOptions) {
    this.catalog = new CatalogOperator(api, catalogs);
    this.olm = new OlmOperator(api, opts);
    this.adoption = new AdoptionController(api);
    this.operatorObjects = new OperatorController(api);
  }

  /** Fault injection: the next InstallPlan to execute fails with this message. */
  get failNextInstallPlan(): string | undefined {
    return this.catalog.failNextInstallPlan;
  }
  set failNextInstallPlan(message: string | undefined) {
    this.catalog.failNextInstallPlan = message;
  }

  /** How the wiring runs a namespace's pass again later. */
  set requeueAfter(fn: (ns: string, ms: number) => void) {
    this.catalog.requeueAfter = fn;
  }

  /** One pass over a namespace, in the order OLM's two operators would act on it; the caller repeats it until the cluster is quiet. */
  reconcileNamespace(ns: string): void {
    this.olm.syncOperatorGroups(ns);
    this.catalog.resolve(ns);
    this.catalog.executePlans(ns);
    this.olm.syncCsvs(ns);
    this.catalog.syncSubscriptionStatus(ns);
    this.adoption.sync(ns);
    this.olm.syncOlmConfig();
  }

  /** The Operator objects a committed change concerns (none for most changes). */
  operatorsOf(r: ServedResource, o: KObject): string[] {
    return this.operatorObjects.namesOf(r, o);
  }

  /** Every Operator object and every one a component's label names, for a first reconcile. */
  allOperators(): string[] {
    return this.operatorObjects.allNames();
  }

  /** One reconcile of the Operator object `name`. */
  reconcileOperator(name: string): void {
    this.operatorObjects.reconcile(name);
  }

  /** OperatorGroup roles go with their OperatorGroup. */
  sweepOperatorGroupRoles(): void {
    this.olm.sweepOperatorGroupRoles();
  }

  /** Removes copies whose source CSV is gone (the source's namespace pass cannot see them). */
  sweepOrphanCopies(): void {
    this.olm.sweepOrphanCopies();
  }
}
