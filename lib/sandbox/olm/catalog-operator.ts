// The sandbox's catalog operator (OLM's catalog-operator): resolves a namespace's Subscriptions
// against the catalogs (docs/olm/resolution.md, docs/olm/install-plans.md), writes the InstallPlan, executes its steps once approved,
// and keeps each Subscription's status in line with its plan, its catalog and what is installed.
// The CSVs a plan creates are the OLM operator's from there on (olm-operator.ts).
// Its three parts: resolution (subscription-resolution.ts), InstallPlan execution
// (plan-execution.ts) and Subscription status (subscription-status.ts); this orders them.
import type { ApiServer } from '../server/api-server';
import type { CatalogSources } from './catalog-sources';
import { PlanExecution } from './plan-execution';
import { SubscriptionResolution } from './subscription-resolution';
import { SubscriptionStatusSync } from './subscription-status';

export class CatalogOperator {
  private readonly resolution: SubscriptionResolution;
  private readonly execution: PlanExecution;
  private readonly subscriptions: SubscriptionStatusSync;

  constructor(api: ApiServer, catalogs: CatalogSources) {
    this.resolution = new SubscriptionResolution(api, catalogs);
    this.execution = new PlanExecution(api);
    this.subscriptions = new SubscriptionStatusSync(api, catalogs);
  }

  /** Fault injection: the next InstallPlan to execute fails with this message. */
  get failNextInstallPlan(): string | undefined {
    return this.execution.failNextInstallPlan;
  }
  set failNextInstallPlan(message: string | undefined) {
    this.execution.failNextInstallPlan = message;
  }

  /** Set by the wiring: runs the namespace's pass again after `ms` (a plan retrying until its timeout). */
  set requeueAfter(fn: (ns: string, ms: number) => void) {
    this.execution.requeueAfter = fn;
    this.resolution.requeueAfter = fn;
  }

  resolve(ns: string): void {
    this.resolution.resolve(ns);
  }

  executePlans(ns: string): void {
    this.execution.executePlans(ns);
  }

  syncSubscriptionStatus(ns: string): void {
    this.subscriptions.syncSubscriptionStatus(ns);
  }
}
