// The sandbox's catalog operator (OLM's catalog-operator): resolves a namespace's Subscriptions
// against the catalogs (docs/olm/resolution.md, docs/olm/install-plans.md), writes the InstallPlan, executes its steps once approved,
// and keeps each Subscription's status in line with its plan, its catalog and what is installed.
// The CSVs a plan creates are the OLM operator's from there on (olm-operator.ts).
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { isCopiedCsv } from '../../olm/resources/cluster-service-version';
import {
  dependencyInstalls,
  satisfiesRequiredRanges,
  unmetDependencies,
  type DependencyInstall as Dep,
  type PackageRange,
} from '../../olm/resolution/dependencies';
import type { UserInfo } from '../auth/rbac';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import { CATALOG_DIR_ANNOTATION, type CatalogEntry, type CatalogSources } from './catalog-sources';
import { stepsForBundle, type PlanStep } from './install-steps';
import { updateCatalogHealth, type CatalogHealth } from './catalog-health';
import { PlanStepError, createPrefix, planCondition, updatePrefix, type PlanStatus } from './plan-status';
import { CSV_FINALIZER, OLM, OperatorBase, now, removeCondition, setCondition, type Cond } from './operator-base';
import { dependencySources, resolveSubscription, type Resolution } from './resolver';
import { checkAccess, checkNoEscalation, namespaceServiceAccount, serviceAccountUser } from './scoped';

type DependencyInstall = Dep<CatalogEntry>;

const MAX_PLANS = 5;
/** The catalog operator's --install-plan-retry-timeout: errors other than Forbidden fail a plan after this long. */
const PLAN_RETRY_TIMEOUT_MS = 60_000;
const RBAC_KINDS = new Set(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

/** The `olm.package.required` ranges of the installed CSVs (from the properties OLM annotates them with). */
function requiredRangesOf(installed: readonly KObject[]): PackageRange[] {
  const out: PackageRange[] = [];
  for (const csv of installed) {
    const text = csv.metadata.annotations?.['operatorframework.io/properties'];
    if (!text) continue;
    try {
      for (const p of (
        JSON.parse(text) as { properties?: { type: string; value: { packageName?: string; versionRange?: string } }[] }
      ).properties ?? []) {
        if (p.type === 'olm.package.required' && p.value.packageName && p.value.versionRange)
          out.push({ packageName: p.value.packageName, versionRange: p.value.versionRange });
      }
    } catch {
      // an unreadable annotation constrains nothing
    }
  }
  return out;
}

export class CatalogOperator extends OperatorBase {
  /** Fault injection: the next InstallPlan to execute fails with this message. */
  failNextInstallPlan?: string;
  /** Set by the wiring: runs the namespace's pass again after `ms` (a plan retrying until its timeout). */
  requeueAfter?: (ns: string, ms: number) => void;
  /** The namespace's RBAC when each failed scoped plan was first seen failed (by plan uid). */
  private readonly failedRbac = new Map<string, string>();
  /** How often each plan (by uid) has been refused in a row: its retry backs off as OLM's queue does. */
  private readonly refusals = new Map<string, number>();

  constructor(
    api: ApiServer,
    private readonly catalogs: CatalogSources,
  ) {
    super(api);
  }

  private get plans() {
    return this.res(OLM, 'v1alpha1', 'installplans');
  }

  private get catalogSources() {
    return this.res(OLM, 'v1alpha1', 'catalogsources');
  }

  // ---- Catalog operator: resolution (docs/olm/resolution.md) ----

  resolve(ns: string): void {
    const subs = this.api.storeList(this.subs, ns);
    if (subs.length === 0) return;
    // The resolution gate: a namespace whose every Subscription waits on its InstallPlan is
    // not resolved again until that plan finishes or goes away.
    const waiting = (s: KObject) => {
      const st = (s.status ?? {}) as { installPlanRef?: { name?: string }; state?: string };
      return !!st.installPlanRef?.name && st.state === 'UpgradePending';
    };
    if (subs.every(waiting)) return;
    // Resolution starts by reading the namespace's one OperatorGroup (fail-forward): with none or
    // several it stops there, writing nothing (docs/olm/resolution.md#operatorgroup-count; resolver/fail_forward.go).
    if (this.api.storeList(this.ogs, ns).length !== 1) return;
    // Every catalog of the namespace and the global namespace is a source of the resolution, and
    // one OLM cannot use fails it (cache.go's NamespacedOperatorCache.Error): one with neither image
    // nor address has no registry client; one given by an address nothing answers on cannot list
    // its bundles, in gRPC's words for a refused connection.
    const global = this.catalogs.globalNamespace;
    const sourceErrors: string[] = [];
    for (const cs of [
      ...this.api.storeList(this.catalogSources, ns),
      ...(ns === global ? [] : this.api.storeList(this.catalogSources, global)),
    ]) {
      const spec = (cs.spec ?? {}) as { sourceType?: string; image?: string; address?: string };
      const key = `${cs.metadata.namespace}/${cs.metadata.name}`;
      const entry = this.catalogs.entries.get(key);
      // (A catalog the sandbox serves from a folder, by annotation, is one with an image to OLM.)
      if (
        spec.sourceType === 'grpc' &&
        !spec.image &&
        !spec.address &&
        !cs.metadata.annotations?.[CATALOG_DIR_ANNOTATION]
      )
        sourceErrors.push(`error using catalogsource ${key}: no registry client established for catalogsource ${key}`);
      else if (entry && !entry.dir && !!entry.address && !entry.healthy && !entry.connecting)
        sourceErrors.push(
          `error using catalogsource ${key}: failed to list bundles: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp ${entry.address}: connect: connection refused"`,
        );
    }
    if (sourceErrors.length) {
      // Several are joined as Kubernetes' aggregate error joins them (in no fixed order in OLM).
      this.failResolution(ns, subs, {
        reason: 'ErrorPreventedResolution',
        message: sourceErrors.length === 1 ? sourceErrors[0]! : `[${sourceErrors.join(', ')}]`,
      });
      return;
    }
    const catalogs = this.catalogs
      .healthy()
      .filter((c) => c.namespace === ns || c.namespace === this.catalogs.globalNamespace);
    const installedCsvs = this.api
      .storeList(this.csvs, ns)
      .filter((c) => !isCopiedCsv(c as unknown as ClusterServiceVersion));
    const installedApis = installedCsvs.flatMap((c) =>
      (
        (c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } })
          .customresourcedefinitions?.owned ?? []
      ).map((d) => ({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind })),
    );
    // An existing CSV no Subscription refers to (the one being replaced, while its replacement
    // waits) provides the same API as one a Subscription requires: OLM's solver finds the two
    // cannot both stay, and says so in its own words.
    const owned = (c: KObject) =>
      (
        (c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } })
          .customresourcedefinitions?.owned ?? []
      ).map((d) => ({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind }));
    const referenced = new Map<string, string>();
    for (const sub of subs) {
      const st = (sub.status ?? {}) as { installedCSV?: string; currentCSV?: string };
      for (const n of [st.currentCSV, st.installedCSV])
        if (n && !referenced.has(n)) referenced.set(n, sub.metadata.name ?? '');
    }
    for (const orphan of installedCsvs.filter(
      (c) => !referenced.has(c.metadata.name ?? '') && !c.metadata.deletionTimestamp,
    )) {
      for (const api of owned(orphan)) {
        const other = installedCsvs.find(
          (c) =>
            c !== orphan &&
            referenced.has(c.metadata.name ?? '') &&
            owned(c).some((a) => a.group === api.group && a.version === api.version && a.kind === api.kind),
        );
        if (!other) continue;
        const [a, b, sub] = [
          orphan.metadata.name ?? '',
          other.metadata.name ?? '',
          referenced.get(other.metadata.name ?? '')!,
        ];
        this.failResolution(ns, subs, {
          reason: 'ConstraintsNotSatisfiable',
          message: `constraints not satisfiable: @existing/${ns}//${a} and @existing/${ns}//${b} provide ${api.kind} (${api.group}/${api.version}), clusterserviceversion ${a} exists and is not referenced by a subscription, subscription ${sub} exists, subscription ${sub} requires @existing/${ns}//${b}`,
        });
        return;
      }
    }
    const work: { sub: KObject; r: Extract<Resolution, { kind: 'install' }> }[] = [];
    // Resolution is one problem for the whole namespace: the first Subscription (by name) that
    // cannot be satisfied fails it, and every Subscription gets that same condition.
    let failure: { reason: string; message: string } | undefined;
    const clears: { sub: KObject; conditions: Cond[] | undefined }[] = [];
    for (const sub of [...subs].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
      if (waiting(sub)) continue;
      const spec = sub.spec as {
        name: string;
        source: string;
        sourceNamespace: string;
        channel?: string;
        startingCSV?: string;
      };
      const st = (sub.status ?? {}) as { installedCSV?: string; currentCSV?: string; conditions?: Cond[] };
      const installedName = st.installedCSV ?? st.currentCSV;
      const installed = installedName ? installedCsvs.find((c) => c.metadata.name === installedName) : undefined;
      // A currentCSV that is not there yet is still being installed: nothing new to resolve.
      if (st.currentCSV && !installed && (sub.status as { installPlanRef?: unknown } | undefined)?.installPlanRef)
        continue;
      // Nor while the plan that installs it is still writing its objects: real OLM's catalog
      // operator finishes a plan before it gets to resolve the namespace again, in practice.
      const ref = (sub.status as { installPlanRef?: { name?: string } } | undefined)?.installPlanRef?.name;
      if (ref && (this.exists(this.plans, ns, ref)?.status as { phase?: string } | undefined)?.phase === 'Installing')
        continue;
      const orphans = installedCsvs
        .filter((c) => !referenced.has(c.metadata.name ?? '') && !c.metadata.deletionTimestamp)
        .map((c) => c.metadata.name ?? '');
      let r = resolveSubscription(
        sub.metadata.name ?? '',
        spec,
        catalogs,
        installed
          ? { name: installed.metadata.name ?? '', version: (installed.spec as { version?: string }).version }
          : undefined,
        ns,
        orphans,
      );
      // The solver keeps every installed operator's package dependencies true: an upgrade that
      // would leave another operator's required range is not taken.
      if (
        r.kind === 'install' &&
        installed &&
        !satisfiesRequiredRanges(r.pkg.name, r.bundle.version, requiredRangesOf(installedCsvs))
      )
        r = { kind: 'none' };
      let conditions = st.conditions;
      if (r.kind === 'failed') {
        failure ??= { reason: r.reason, message: r.message };
        continue;
      }
      if (r.kind === 'install') {
        const unmet = unmetDependencies(r.bundle, dependencySources(catalogs), installedApis);
        if (unmet.length) {
          failure ??= {
            reason: 'ConstraintsNotSatisfiable',
            message: `constraints not satisfiable: ${unmet.join(', ')}`,
          };
          continue;
        }
      }
      conditions = removeCondition(conditions, 'ResolutionFailed');
      if (r.kind === 'install' && r.bundle.name !== st.currentCSV)
        work.push({ sub: { ...sub, status: { ...(sub.status as object), conditions } }, r });
      else if (JSON.stringify(conditions) !== JSON.stringify(st.conditions)) clears.push({ sub, conditions });
    }
    // One resolution for the namespace: a failure anywhere is every Subscription's, so a
    // condition is cleared only when the whole namespace resolved.
    if (failure) {
      this.failResolution(ns, subs, failure);
      return;
    }
    for (const { sub, conditions } of clears)
      this.writeStatus(this.subs, sub, { ...(sub.status as object), conditions });
    if (work.length === 0) return;
    // Dependencies go into the same plan, with a Subscription OLM creates for each.
    const subscribed = new Set(subs.map((s) => (s.spec as { name: string }).name));
    const deps: DependencyInstall[] = [];
    for (const { r } of work) {
      // What the plan's own bundles provide needs no dependency install.
      const planned = work.flatMap((w) => w.r.bundle.providedApis);
      for (const d of dependencyInstalls(
        r.bundle,
        dependencySources(catalogs),
        [...installedApis, ...planned, ...deps.flatMap((x) => x.bundle.providedApis)],
        new Set([...subscribed, ...deps.map((x) => x.pkg.name)]),
      )) {
        if (!deps.some((x) => x.bundle.name === d.bundle.name)) deps.push(d);
      }
    }
    this.createInstallPlan(ns, subs, work, deps);
  }

  /** One ResolutionFailed condition on every Subscription of the namespace (setSubsCond). */
  private failResolution(ns: string, subs: KObject[], failure: { reason: string; message: string }): void {
    for (const stale of subs) {
      const sub = this.exists(this.subs, ns, stale.metadata.name ?? '') ?? stale;
      const conditions = setCondition((sub.status as { conditions?: Cond[] } | undefined)?.conditions, {
        type: 'ResolutionFailed',
        status: 'True',
        ...failure,
      });
      if (
        JSON.stringify(conditions) !== JSON.stringify((sub.status as { conditions?: Cond[] } | undefined)?.conditions)
      )
        this.writeStatus(this.subs, sub, { ...(sub.status as object), conditions, lastUpdated: now() });
    }
  }

  private createInstallPlan(
    ns: string,
    subs: KObject[],
    work: { sub: KObject; r: Extract<Resolution, { kind: 'install' }> }[],
    deps: DependencyInstall[] = [],
  ): void {
    const manual = subs.some((s) => (s.spec as { installPlanApproval?: string }).installPlanApproval === 'Manual');
    const existing = this.api.storeList(this.plans, ns);
    const generation =
      1 +
      Math.max(
        0,
        ...existing.map((p) => (p.spec as { generation?: number }).generation ?? 0),
        ...subs.map((s) => (s.status as { installPlanGeneration?: number } | undefined)?.installPlanGeneration ?? 0),
      );
    const steps: PlanStep[] = [
      ...work.flatMap(({ r }) =>
        stepsForBundle(r.pkg, r.bundle, ns, r.replaces, { name: r.catalog.name, namespace: r.catalog.namespace }),
      ),
      ...deps.flatMap((d) =>
        stepsForBundle(d.pkg, d.bundle, ns, undefined, { name: d.source.name, namespace: d.source.namespace }),
      ),
      // Each dependency gets a Subscription of its own, created when the plan runs (resolver/steps.go).
      ...deps.map((d) => {
        const name = `${d.pkg.name}-${d.channel}-${d.source.name}-${d.source.namespace}`;
        const sub = {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'Subscription',
          metadata: { name, namespace: ns },
          spec: {
            source: d.source.name,
            sourceNamespace: d.source.namespace,
            name: d.pkg.name,
            channel: d.channel,
            startingCSV: d.bundle.name,
            installPlanApproval: 'Automatic',
          },
        };
        return {
          resolving: d.bundle.name,
          resource: {
            group: OLM,
            version: 'v1alpha1',
            kind: 'Subscription',
            name,
            manifest: JSON.stringify(sub),
            sourceName: d.source.name,
            sourceNamespace: d.source.namespace,
          },
          status: 'Unknown',
        };
      }),
    ];
    let plan = this.api.createObject(this.plans, {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'InstallPlan',
      metadata: {
        generateName: 'install-',
        namespace: ns,
        // No labels: the adoption controller labels the plan each Subscription points at (adoption.ts).
        ownerReferences: subs.map((s) => ({
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'Subscription',
          name: s.metadata.name ?? '',
          uid: s.metadata.uid ?? '',
          blockOwnerDeletion: false,
          controller: false,
        })),
      },
      spec: {
        clusterServiceVersionNames: [...work.map((w) => w.r.bundle.name), ...deps.map((d) => d.bundle.name)],
        approval: manual ? 'Manual' : 'Automatic',
        approved: !manual,
        generation,
      },
    });
    // Second write, as OLM does: the status with the plan.
    plan = this.writeStatus(this.plans, plan, {
      phase: manual ? 'RequiresApproval' : 'Installing',
      catalogSources: [...new Set([...work.map((w) => w.r.catalog.name), ...deps.map((d) => d.source.name)])],
      // No bundleLookups: this plan's bundles are inline, and OLM's Go type omits an empty list.
      plan: steps,
    });
    for (const { sub, r } of work) {
      const fresh = this.exists(this.subs, ns, sub.metadata.name ?? '') ?? sub;
      this.writeStatus(this.subs, fresh, {
        ...(fresh.status as object),
        conditions: (sub.status as { conditions?: Cond[] }).conditions,
        currentCSV: r.bundle.name,
        installPlanRef: {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: plan.metadata.name,
          namespace: ns,
          uid: plan.metadata.uid,
          resourceVersion: plan.metadata.resourceVersion,
        },
        installplan: {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: plan.metadata.name,
          uuid: plan.metadata.uid,
        },
        installPlanGeneration: generation,
        state: 'UpgradePending',
        lastUpdated: now(),
      });
    }
    // At most five InstallPlans per namespace: the oldest generations go.
    const all = this.api
      .storeList(this.plans, ns)
      .sort(
        (a, b) =>
          ((a.spec as { generation?: number }).generation ?? 0) - ((b.spec as { generation?: number }).generation ?? 0),
      );
    for (const old of all.slice(0, Math.max(0, all.length - MAX_PLANS)))
      this.api.deleteObject(this.plans, ns, old.metadata.name ?? '');
  }

  // ---- InstallPlan execution (docs/olm/install-plans.md#phases) ----

  executePlans(ns: string): void {
    for (const plan of this.api.storeList(this.plans, ns)) this.executePlan(plan);
  }

  /** The namespace's Roles, RoleBindings and ServiceAccounts as they are now (what triggerInstallPlanRetry watches). */
  private rbacFingerprint(ns: string): string {
    return ['roles', 'rolebindings']
      .map((k) => this.res('rbac.authorization.k8s.io', 'v1', k))
      .concat(this.res('', 'v1', 'serviceaccounts'))
      .flatMap((r) =>
        this.api.storeList(r, ns).map((o) => `${r.resource}/${o.metadata.name}@${o.metadata.resourceVersion}`),
      )
      .sort()
      .join(',');
  }

  private executePlan(plan: KObject): void {
    const ns = plan.metadata.namespace ?? '';
    let st = (plan.status ?? {}) as PlanStatus;
    // The subscription sync writes the steps; until then there is nothing to do.
    if (!st.plan?.length && !st.bundleLookups?.length) return;
    // A scoped plan that failed goes back to Installing when someone changes the namespace's
    // Roles, RoleBindings or ServiceAccounts (installplan_sync.go triggerInstallPlanRetry).
    if (st.phase === 'Failed' && st.attenuatedServiceAccountRef) {
      const key = plan.metadata.uid ?? '';
      const current = this.rbacFingerprint(ns);
      const at = this.failedRbac.get(key);
      if (at === undefined) this.failedRbac.set(key, current);
      if (at === undefined || at === current) return;
      this.failedRbac.delete(key);
      plan = this.writeStatus(this.plans, plan, { ...st, phase: 'Installing' });
      st = plan.status as PlanStatus;
    }
    // Complete and Failed are terminal.
    if (st.phase === 'Failed' || st.phase === 'Complete') return;
    // Which account the namespace's OperatorGroup names, if any (syncInstallPlans): when that
    // cannot be said, the plan says why and waits.
    const scope = namespaceServiceAccount(this.api.storeList(this.ogs, ns));
    if (scope.error) {
      this.writeStatus(this.plans, plan, {
        ...st,
        conditions: planCondition(st.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallCheckFailed',
          message: scope.error,
        }),
      });
      return;
    }
    // Once it can, the condition is reset (to reason Unknown, as OLM resets it), not removed.
    if (st.conditions?.find((c) => c.type === 'Installed')?.reason === 'InstallCheckFailed') {
      plan = this.writeStatus(this.plans, plan, {
        ...st,
        conditions: planCondition(st.conditions, { type: 'Installed', status: 'False', reason: 'Unknown' }),
      });
      st = plan.status as PlanStatus;
    }
    if (scope.ref && JSON.stringify(st.attenuatedServiceAccountRef) !== JSON.stringify(scope.ref)) {
      // Written on its own; the plan is executed on the next sync.
      this.writeStatus(this.plans, plan, { ...st, attenuatedServiceAccountRef: scope.ref });
      return;
    }
    if (st.phase === 'RequiresApproval' && (plan.spec as { approved?: boolean }).approved) {
      const { message: _m, ...rest } = st;
      void _m;
      plan = this.writeStatus(this.plans, plan, { ...rest, phase: 'Installing' });
    }
    const cur = (plan.status ?? {}) as PlanStatus;
    if (cur.phase !== 'Installing') return;
    if (this.failNextInstallPlan) {
      const message = this.failNextInstallPlan;
      this.failNextInstallPlan = undefined;
      this.writeStatus(this.plans, plan, {
        ...cur,
        phase: 'Failed',
        message,
        conditions: planCondition(cur.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallComponentFailed',
          message,
        }),
      });
      return;
    }
    const steps = (cur.plan ?? []).map((s) => ({ ...s, resource: { ...s.resource } }));
    const startTime = cur.startTime ?? now();
    const todo = (s: PlanStep) => s.status === 'Unknown' || s.status === 'NotPresent';
    // Real OLM creates the CSV first and its olm operator checks it before the catalog operator
    // has written the service accounts and roles of the same plan: every new CSV passes through
    // Pending/RequirementsNotMet. The sandbox makes that order explicit: the CSVs and CRDs first
    // (in the plan's order), the rest once each CSV this plan created has had its first check.
    const early = (k: string) => k === 'CustomResourceDefinition' || k === 'ClusterServiceVersion';
    const held = this.heldRbac(plan, steps);
    try {
      // With the group's account, the plan's objects are written with a token of that account
      // (scoped.requestSAToken); the CRDs are still written by OLM itself.
      const user = cur.attenuatedServiceAccountRef ? this.attenuatedUser(cur.attenuatedServiceAccountRef) : undefined;
      for (const step of steps.filter((x) => todo(x) && early(x.resource.kind))) this.executeStep(plan, step, user);
      const unchecked = steps.some((x) => {
        if (x.resource.kind !== 'ClusterServiceVersion' || x.status !== 'Created') return false;
        const csv = this.exists(this.csvs, ns, x.resource.name);
        const cst = (csv?.status ?? {}) as { phase?: string; reason?: string };
        return !!csv && (!cst.phase || (cst.phase === 'Pending' && cst.reason === 'RequirementsUnknown'));
      });
      if (unchecked) {
        this.writeStatus(this.plans, plan, { ...cur, plan: steps, startTime });
        return;
      }
      for (const step of steps.filter((x) => todo(x) && !held.has(x))) this.executeStep(plan, step, user);
    } catch (err) {
      if (err instanceof PlanStepError) {
        // Forbidden is never terminal: nobody knows when the account gets its rights. Anything
        // else is retried for --install-plan-retry-timeout (1 min) from the start.
        const elapsed = Date.now() - Date.parse(startTime);
        if (err.forbidden || elapsed < PLAN_RETRY_TIMEOUT_MS) {
          this.writeStatus(this.plans, plan, {
            ...cur,
            plan: steps,
            startTime,
            message: `retrying execution due to error: ${err.message}`,
          });
          if (!err.forbidden) this.requeueAfter?.(ns, PLAN_RETRY_TIMEOUT_MS - elapsed + 50);
          else {
            // OLM's sync returns the error and its rate-limited queue tries the plan again after
            // 5 ms doubling up to 1000 s (client-go's default controller rate limiter): a right
            // granted cluster-wide, which no namespace event announces, is found that way.
            const n = (this.refusals.get(plan.metadata.uid ?? '') ?? 0) + 1;
            this.refusals.set(plan.metadata.uid ?? '', n);
            this.requeueAfter?.(ns, Math.min(5 * 2 ** n, 1_000_000));
          }
          return;
        }
        this.writeStatus(this.plans, plan, {
          ...cur,
          plan: steps,
          phase: 'Failed',
          message: err.message,
          startTime,
          conditions: planCondition(cur.conditions, {
            type: 'Installed',
            status: 'False',
            reason: 'InstallComponentFailed',
            message: err.message,
          }),
        });
        return;
      }
      const message = `error creating objects: ${(err as Error).message}`;
      this.writeStatus(this.plans, plan, {
        ...cur,
        plan: steps,
        phase: 'Failed',
        message,
        startTime,
        conditions: planCondition(cur.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallComponentFailed',
          message,
        }),
      });
      return;
    }
    if (steps.some(todo)) {
      this.writeStatus(this.plans, plan, { ...cur, plan: steps, startTime });
      return;
    }
    this.refusals.delete(plan.metadata.uid ?? '');
    const { message: _m, ...rest } = cur;
    void _m;
    this.writeStatus(this.plans, plan, {
      ...rest,
      plan: steps,
      phase: 'Complete',
      startTime,
      conditions: planCondition(cur.conditions, { type: 'Installed', status: 'True' }),
    });
  }

  /**
   * The RBAC steps this pass leaves for later. On an upgrade whose service account the replaced
   * CSV already owns, real OLM's catalog operator merges the account's owners at once but writes
   * the new version's Role and RoleBinding only about a second later: meanwhile its olm operator
   * installs the new CSV on the strength of the old version's Role (its rule check reads every
   * binding of the account), deletes the old CSV, and the garbage collector takes the old Role
   * with it; the new CSV then fails its check ("requirements no longer met") until the new roles
   * arrive. The sandbox keeps that order: those steps wait until the CSV they serve has been
   * found wanting again (Pending, or Failed for another reason than its requirements), in a pass
   * after the account was merged.
   */
  private heldRbac(plan: KObject, steps: PlanStep[]): Set<PlanStep> {
    const held = new Set<PlanStep>();
    const before = (plan.status as PlanStatus | undefined)?.plan ?? [];
    for (const csvName of new Set(steps.map((s) => s.resolving))) {
      const mine = steps.filter((s) => s.resolving === csvName);
      const accounts = mine.filter((s) => s.resource.kind === 'ServiceAccount');
      const shared = accounts.some(
        (s) =>
          s.status === 'Present' ||
          (s.status !== 'Created' &&
            !!this.exists(this.res('', 'v1', 'serviceaccounts'), plan.metadata.namespace, s.resource.name)),
      );
      if (!shared) continue;
      const mergedEarlier = accounts.some(
        (s) =>
          before.find(
            (b) =>
              b.resolving === s.resolving &&
              b.resource.kind === 'ServiceAccount' &&
              b.resource.name === s.resource.name,
          )?.status === 'Present',
      );
      const csv = this.exists(this.csvs, plan.metadata.namespace, csvName);
      const cst = (csv?.status ?? {}) as {
        phase?: string;
        reason?: string;
        requirementStatus?: { status: string; message?: string }[];
      };
      // Found wanting by a check that saw the merged account (not one that found it another CSV's),
      // or held back for another reason (an OperatorCondition), or failed for one.
      const unmet = (cst.requirementStatus ?? []).some(
        (r) => r.status !== 'Present' && r.message !== 'Service account is owned by another ClusterServiceVersion',
      );
      const wanting =
        (cst.phase === 'Pending' &&
          (cst.reason === 'OperatorConditionNotUpgradeable' || (cst.reason === 'RequirementsNotMet' && unmet))) ||
        (cst.phase === 'Failed' && cst.reason !== 'RequirementsNotMet');
      // A CSV already on its way out (replaced in turn before its plan finished) waits for nothing.
      const leaving = !csv || !!csv.metadata.deletionTimestamp || cst.phase === 'Replacing' || cst.phase === 'Deleting';
      if ((mergedEarlier && wanting) || leaving) continue;
      for (const s of mine) if (RBAC_KINDS.has(s.resource.kind)) held.add(s);
    }
    return held;
  }

  /** The user a token of the account is (scoped.BearerTokenRetriever): the account must exist. */
  private attenuatedUser(ref: { name: string; namespace: string }): UserInfo {
    if (!this.exists(this.res('', 'v1', 'serviceaccounts'), ref.namespace, ref.name))
      throw new PlanStepError(`serviceaccounts "${ref.name}" not found`, false);
    return serviceAccountUser(ref.namespace, ref.name);
  }

  /**
   * Creates one step's object as step_ensurer.go does: a CRD is updated when it exists, a
   * service account gets the new CSV as another owner, roles and bindings are updated; with a
   * scoped account every write but the CRD's is the account's, refused as the API server would.
   */
  private executeStep(plan: KObject, step: PlanStep, user?: UserInfo): void {
    const ns = plan.metadata.namespace ?? '';
    const obj = JSON.parse(step.resource.manifest) as KObject;
    const r = this.api.resources.find(
      step.resource.group,
      step.resource.version,
      this.pluralOf(step.resource.group, step.resource.version, step.resource.kind),
    );
    if (!r) {
      step.status = 'UnsupportedResource';
      throw new ApiStatusError(422, 'Invalid', `${step.resource.kind} is not a supported resource`);
    }
    obj.metadata.labels = { ...obj.metadata.labels, 'olm.managed': 'true' };
    // getUpdatedOwnerReferences: the CSV's uid, read now.
    if (obj.metadata.ownerReferences?.length) {
      obj.metadata.ownerReferences = obj.metadata.ownerReferences.map((ref) => {
        if (ref.kind !== 'ClusterServiceVersion') return ref;
        const owner = this.exists(this.csvs, ns, ref.name);
        if (!owner)
          throw new PlanStepError(
            `error generating ownerrefs for ${step.resource.kind.toLowerCase()} ${obj.metadata.name}: clusterserviceversions.operators.coreos.com "${ref.name}" not found`,
            false,
          );
        return { ...ref, uid: owner.metadata.uid ?? '' };
      });
    }
    const kind = r.kind;
    const name = obj.metadata.name ?? '';
    const scoped = user && kind !== 'CustomResourceDefinition';
    const as = (prefix: string, verb: string, withName: boolean, extra?: () => void) => {
      if (!scoped) return;
      try {
        checkAccess(this.api.rbac, user!, {
          verb,
          group: r.group,
          resource: r.resource,
          namespace: r.namespaced ? obj.metadata.namespace : undefined,
          ...(withName ? { name } : {}),
        });
        extra?.();
      } catch (err) {
        if (err instanceof ApiStatusError) throw new PlanStepError(`${prefix}: ${err.message}`, err.code === 403);
        throw err;
      }
    };
    const escalation = () => {
      if (RBAC_KINDS.has(kind))
        checkNoEscalation(
          this.api.rbac,
          user!,
          obj,
          kind as 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding',
        );
    };
    as(createPrefix(kind, name), 'create', false, escalation);
    const found = this.exists(r, obj.metadata.namespace, name);
    if (!found) {
      if (kind === 'ClusterServiceVersion') obj.metadata.finalizers = [CSV_FINALIZER];
      if (kind === 'Subscription')
        obj.metadata.annotations = { ...obj.metadata.annotations, 'olm.generated-by': plan.metadata.name ?? '' };
      try {
        this.api.createObject(r, obj);
      } catch (err) {
        // Refused by the API server (a CSV its CRD's schema rejects): the step's error, retried
        // until the plan's timeout like any other that is not Forbidden.
        if (err instanceof ApiStatusError)
          throw new PlanStepError(`${createPrefix(kind, name)}: ${err.message}`, err.code === 403);
        throw err;
      }
      step.status = 'Created';
      return;
    }
    step.status = 'Present';
    if (kind === 'CustomResourceDefinition') {
      this.api.updateObject(r, {
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: found.metadata.resourceVersion },
      } as KObject);
      return;
    }
    if (kind === 'ClusterServiceVersion' || kind === 'Subscription') return;
    if (kind === 'ServiceAccount') {
      // Owners merged, secrets and annotations carried over; written only when something changed.
      as(`error getting older version of service account: ${name}`, 'get', true);
      const owners = [...(found.metadata.ownerReferences ?? [])];
      for (const o of obj.metadata.ownerReferences ?? []) if (!owners.some((x) => x.uid === o.uid)) owners.push(o);
      const labels = { ...found.metadata.labels, ...obj.metadata.labels };
      if (
        JSON.stringify(owners) === JSON.stringify(found.metadata.ownerReferences ?? []) &&
        JSON.stringify(labels) === JSON.stringify(found.metadata.labels ?? {})
      )
        return;
      as(`error updating service account: ${name}`, 'patch', true);
      this.api.updateObject(r, { ...found, metadata: { ...found.metadata, labels, ownerReferences: owners } });
      return;
    }
    // Roles and bindings are brought in line with the step's manifest (a ClusterRole then names
    // the newest CSV as its owner); other objects already there are left as they are.
    if (!RBAC_KINDS.has(kind)) return;
    if (kind === 'ClusterRole' || kind === 'ClusterRoleBinding')
      obj.metadata.labels = { ...obj.metadata.labels, 'olm.owner': step.resolving };
    as(updatePrefix(kind, name), 'patch', true, escalation);
    this.api.updateObject(r, {
      ...found,
      ...obj,
      metadata: {
        ...found.metadata,
        labels: { ...found.metadata.labels, ...obj.metadata.labels },
        ownerReferences: obj.metadata.ownerReferences ?? found.metadata.ownerReferences,
      },
    } as KObject);
  }

  private pluralOf(group: string, version: string, kind: string): string {
    return (
      this.api.resources.all().find((r) => r.group === group && r.versions.includes(version) && r.kind === kind)
        ?.resource ?? `${kind.toLowerCase()}s`
    );
  }

  // ---- Subscription status (docs/olm/subscriptions.md#state, docs/olm/subscriptions.md#conditions) ----

  syncSubscriptionStatus(ns: string): void {
    for (const sub of this.api.storeList(this.subs, ns)) {
      const spec = sub.spec as { source: string; sourceNamespace: string; startingCSV?: string };
      const st = { ...((sub.status ?? {}) as Record<string, unknown>) } as {
        currentCSV?: string;
        installedCSV?: string;
        state?: string;
        installPlanRef?: { name?: string } & Record<string, unknown>;
        installplan?: unknown;
        conditions?: Cond[];
        catalogHealth?: unknown[];
        lastUpdated?: string;
      };
      // A Subscription an InstallPlan created for a dependency points at that plan
      // (ensureSubscriptionInstallPlanState).
      const failForward = this.failForward(ns);
      const generatedBy = sub.metadata.annotations?.['olm.generated-by'];
      const generator = generatedBy && !st.installPlanRef ? this.exists(this.plans, ns, generatedBy) : undefined;
      if (generator) {
        st.installPlanRef = {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: generator.metadata.name,
          namespace: ns,
          uid: generator.metadata.uid,
          resourceVersion: generator.metadata.resourceVersion,
        };
        st.installplan = {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: generator.metadata.name,
          uuid: generator.metadata.uid,
        };
        // Under fail-forward a plan that failed leaves its Subscription UpgradeFailed, which
        // lets the namespace be resolved again (ensureSubscriptionInstallPlanState).
        st.state =
          failForward && (generator.status as { phase?: string } | undefined)?.phase === 'Failed'
            ? 'UpgradeFailed'
            : 'UpgradePending';
        st.currentCSV = spec.startingCSV;
        st.lastUpdated = now();
      }
      const entry = this.catalogs.entries.get(`${spec.sourceNamespace}/${spec.source}`);
      // Every catalog of the namespace and of the global namespace, as OLM lists them (sorted by
      // namespace and name run together). OLM assumes a catalog given only by address is healthy
      // (GrpcAddressRegistryReconciler has no health check): only those it serves can be unhealthy.
      const relevant = [...this.catalogs.entries.values()]
        .filter((e) => e.namespace === ns || e.namespace === this.catalogs.globalNamespace)
        .sort((a, b) =>
          a.namespace + a.name < b.namespace + b.name ? -1 : a.namespace + a.name > b.namespace + b.name ? 1 : 0,
        );
      const healthOf = (e: CatalogEntry) => e.healthy || (!e.dir && !!e.address);
      const t = now();
      const health: CatalogHealth[] = relevant.map((e) => ({
        catalogSourceRef: {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'CatalogSource',
          name: e.name,
          namespace: e.namespace,
          uid: this.exists(this.catalogSources, e.namespace, e.name)?.metadata.uid,
        },
        healthy: healthOf(e),
        lastUpdated: t,
      }));
      const updated = updateCatalogHealth(
        spec,
        { conditions: st.conditions, catalogHealth: st.catalogHealth as CatalogHealth[] | undefined },
        health,
        t,
      );
      if (updated) {
        st.conditions = updated.conditions;
        st.catalogHealth = updated.catalogHealth;
      }

      const planName = st.installPlanRef?.name;
      const plan = planName ? this.exists(this.plans, ns, planName) : undefined;
      const phase = (plan?.status as { phase?: string } | undefined)?.phase;
      if (planName && !plan) {
        if (st.state === 'UpgradePending') {
          delete st.installPlanRef;
          delete st.installplan;
          delete st.currentCSV;
          st.state = '';
        } else
          st.conditions = setCondition(st.conditions, {
            type: 'InstallPlanMissing',
            status: 'True',
            reason: 'ReferencedInstallPlanNotFound',
          });
      }
      if (plan) {
        st.conditions = removeCondition(st.conditions, 'InstallPlanMissing');
        const installed = (plan.status as { conditions?: Cond[] } | undefined)?.conditions?.find(
          (c) => c.type === 'Installed',
        );
        if (phase === 'Complete') {
          st.conditions = removeCondition(removeCondition(st.conditions, 'InstallPlanPending'), 'InstallPlanFailed');
        } else if (phase === 'Failed') {
          st.conditions = setCondition(removeCondition(st.conditions, 'InstallPlanPending'), {
            type: 'InstallPlanFailed',
            status: 'True',
            reason: installed?.reason ?? 'InstallPlanFailed',
            message: installed?.message ?? '',
          });
        } else {
          st.conditions = setCondition(st.conditions, {
            type: 'InstallPlanPending',
            status: 'True',
            reason: phase || 'InstallPlanNotYetReconciled',
            ...(installed?.message ? { message: installed.message } : {}),
          });
        }
      }
      // Deprecation of what is installed, from the catalog (docs/olm/subscriptions.md#deprecation-conditions): package, channel, bundle, roll-up.
      const pkgModel = entry?.catalog?.packages.get((sub.spec as { name: string }).name);
      const channel = (sub.spec as { channel?: string }).channel;
      const depr: Cond[] = [];
      if (pkgModel && st.installedCSV) {
        if (pkgModel.deprecation)
          depr.push({
            type: 'PackageDeprecated',
            status: 'True',
            message: `olm.package/${pkgModel.name}: ${pkgModel.deprecation}`,
          });
        const chDep = channel ? pkgModel.channels.get(channel)?.deprecation : undefined;
        if (chDep)
          depr.push({ type: 'ChannelDeprecated', status: 'True', message: `olm.channel/${channel}: ${chDep}` });
        const bDep = pkgModel.bundles.get(st.installedCSV)?.deprecation;
        if (bDep)
          depr.push({ type: 'BundleDeprecated', status: 'True', message: `olm.bundle/${st.installedCSV}: ${bDep}` });
      }
      if (depr.length)
        depr.push({ type: 'Deprecated', status: 'True', message: depr.map((c) => c.message).join('; ') });
      for (const t of ['PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated', 'Deprecated']) {
        const c = depr.find((d) => d.type === t);
        st.conditions = c ? setCondition(st.conditions, c) : removeCondition(st.conditions, t);
      }
      if (st.currentCSV) {
        if (this.exists(this.csvs, ns, st.currentCSV)) {
          st.state = 'AtLatestKnown';
          st.installedCSV = st.currentCSV;
        } else st.state = failForward && phase === 'Failed' ? 'UpgradeFailed' : 'UpgradePending';
      }
      const next = {
        ...st,
        lastUpdated:
          JSON.stringify({ ...st, lastUpdated: undefined }) ===
          JSON.stringify({ ...(sub.status as object), lastUpdated: undefined })
            ? st.lastUpdated
            : now(),
      };
      this.writeStatus(this.subs, sub, next);
    }
  }
}
