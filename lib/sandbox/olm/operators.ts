// The catalog operator and the OLM operator of the sandbox, level-triggered per namespace: each
// pass reads the namespace's Subscriptions, InstallPlans, CSVs and OperatorGroup and moves them
// one step the way OLM does (../shared/olm-behaviour.md §2–§5). The rules about graphs, install
// modes and targets are lib/olm's; this file writes the resulting objects and statuses.
import { randomBytes } from 'node:crypto';
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { isCopiedCsv, isReplacementOf } from '../../olm/resources/cluster-service-version';
import { operatorGroupTargets, targetNamespacesAnnotation, isAllNamespaces } from '../../olm/install-modes/operator-group-targets';
import { supportsTargetNamespaces } from '../../olm/install-modes/supports';
import { formatApi, formatProvidedAPIs, groupSurface, operatorGroupsIntersect, parseProvidedAPIs, providedApiOutcome } from '../../olm/install-modes/provided-apis';
import type { OperatorGroup } from '../../olm/resources/operator-group';
import { upgradeBlock, type OperatorCondition } from '../../olm/resources/operator-condition';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import type { CatalogSources } from './catalog-sources';
import { crdRoles, operatorGroupRoles } from './generated-roles';
import { olmRoleName, stepsForBundle, type PlanStep } from './install-steps';
import { minKubeVersionStatus, permissionStatuses, type Permission } from './requirements';
import { dependencyInstalls, satisfiesRequiredRanges, unmetDependencies, type DependencyInstall as Dep, type PackageRange } from '../../olm/resolution/dependencies';
import type { CatalogEntry } from './catalog-sources';
import { dependencySources, resolveSubscription, type Resolution } from './resolver';

type DependencyInstall = Dep<CatalogEntry>;

const OLM = 'operators.coreos.com';
const CSV_FINALIZER = 'operators.coreos.com/csv-cleanup';
const OG_FAILURE_REASONS = new Set(['NoOperatorGroup', 'TooManyOperatorGroups', 'UnsupportedOperatorGroup', 'NoTargetNamespaces', 'InvalidInstallModes', 'InterOperatorGroupOwnerConflict', 'CannotModifyStaticOperatorGroupProvidedAPIs']);
const NOT_COPIABLE = new Set(['Copied', ...OG_FAILURE_REASONS]);
const MAX_PLANS = 5;

export interface OperatorOptions {
  /** How long created Deployments take to report available (there is no kubelet). */
  deploymentDelayMs: number;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

type Cond = { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string; lastHeartbeatTime?: string };

function setCondition(conds: Cond[] | undefined, c: Cond): Cond[] {
  const list = [...(conds ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const prev = i >= 0 ? list[i] : undefined;
  const next = { ...c, lastTransitionTime: prev && prev.status === c.status && prev.reason === c.reason ? prev.lastTransitionTime : now() };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

function removeCondition(conds: Cond[] | undefined, type: string): Cond[] {
  return (conds ?? []).filter((c) => c.type !== type);
}

/** The `olm.package.required` ranges of the installed CSVs (from the properties OLM annotates them with). */
function requiredRangesOf(installed: readonly KObject[]): PackageRange[] {
  const out: PackageRange[] = [];
  for (const csv of installed) {
    const text = csv.metadata.annotations?.['operatorframework.io/properties'];
    if (!text) continue;
    try {
      for (const p of (JSON.parse(text) as { properties?: { type: string; value: { packageName?: string; versionRange?: string } }[] }).properties ?? []) {
        if (p.type === 'olm.package.required' && p.value.packageName && p.value.versionRange) out.push({ packageName: p.value.packageName, versionRange: p.value.versionRange });
      }
    } catch {
      // an unreadable annotation constrains nothing
    }
  }
  return out;
}

export class Operators {
  /** Fault injection: the next InstallPlan to execute fails with this message. */
  failNextInstallPlan?: string;

  constructor(
    private readonly api: ApiServer,
    private readonly catalogs: CatalogSources,
    private readonly opts: OperatorOptions,
  ) {}

  private res(group: string, version: string, resource: string): ServedResource {
    const r = this.api.resources.find(group, version, resource);
    if (!r) throw new Error(`no resource ${group}/${version}/${resource}`);
    return r;
  }

  private get subs() {
    return this.res(OLM, 'v1alpha1', 'subscriptions');
  }
  private get plans() {
    return this.res(OLM, 'v1alpha1', 'installplans');
  }
  private get csvs() {
    return this.res(OLM, 'v1alpha1', 'clusterserviceversions');
  }
  private get ogs() {
    return this.res(OLM, 'v1', 'operatorgroups');
  }
  private get deployments() {
    return this.res('apps', 'v1', 'deployments');
  }
  private get namespaces() {
    return this.res('', 'v1', 'namespaces');
  }

  private writeStatus(r: ServedResource, obj: KObject, status: unknown): KObject {
    if (JSON.stringify(obj.status) === JSON.stringify(status)) return obj;
    return this.api.updateObject(r, { ...obj, status } as KObject, 'status');
  }

  private exists(r: ServedResource, ns: string | undefined, name: string): KObject | undefined {
    return this.api.storeGet(r, ns, name);
  }

  /** One pass over a namespace; returns whether anything changed (the caller repeats until stable). */
  reconcileNamespace(ns: string): void {
    this.syncOperatorGroups(ns);
    this.resolve(ns);
    for (const plan of this.api.storeList(this.plans, ns)) this.executePlan(plan);
    for (const csv of this.api.storeList(this.csvs, ns)) if (!isCopiedCsv(csv as unknown as ClusterServiceVersion)) this.syncCsv(csv);
    this.syncSubscriptionStatus(ns);
    this.syncOlmConfig();
  }

  /** OLMConfig's DisabledCopiedCSVs condition (§4.4). */
  private syncOlmConfig(): void {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    if (!cfgRes || !cfg) return;
    const disabled = (cfg.spec as { features?: { disableCopiedCSVs?: boolean } } | undefined)?.features?.disableCopiedCSVs === true;
    const copiesOfGlobal = this.api.storeList(this.csvs).some((c) => {
      const from = c.metadata.labels?.['olm.copiedFrom'];
      if (!from) return false;
      const src = this.exists(this.csvs, from, c.metadata.name ?? '');
      return src?.metadata.annotations?.['olm.targetNamespaces'] === '';
    });
    const condition = !disabled
      ? { type: 'DisabledCopiedCSVs', status: 'False', reason: 'CopiedCSVsEnabled', message: 'Copied CSVs are enabled and present across the cluster' }
      : copiesOfGlobal
        ? { type: 'DisabledCopiedCSVs', status: 'False', reason: 'CopiedCSVsDisabled', message: 'Copied CSVs are disabled and at least one unexpected copied CSV was found for an operator installed in AllNamespace mode' }
        : { type: 'DisabledCopiedCSVs', status: 'True', reason: 'CopiedCSVsDisabled', message: 'Copied CSVs are disabled and no unexpected copied CSVs were found for operators installed in AllNamespace mode' };
    const st = (cfg.status ?? {}) as { conditions?: Cond[] };
    const conditions = setCondition(st.conditions, condition);
    this.writeStatus(cfgRes, cfg, { ...st, conditions });
  }

  // ---- OperatorGroups (§5.1) ----

  private namespaceFacts() {
    return this.api.storeList(this.namespaces).filter((n) => !n.metadata.deletionTimestamp).map((n) => ({ name: n.metadata.name ?? '', labels: n.metadata.labels }));
  }

  private syncOperatorGroups(ns: string): void {
    const groups = this.api.storeList(this.ogs, ns);
    for (const og of groups) {
      const targets = operatorGroupTargets(og as unknown as OperatorGroup, this.namespaceFacts());
      const namespaces = 'namespaces' in targets ? targets.namespaces : [];
      const prev = (og.status ?? {}) as { namespaces?: string[]; conditions?: Cond[]; lastUpdated?: string };
      let conditions = prev.conditions ?? [];
      conditions = groups.length > 1
        ? setCondition(conditions, { type: 'MultipleOperatorGroup', status: 'True', reason: 'MultipleOperatorGroupsFound', message: 'Multiple OperatorGroup found in the same namespace' })
        : removeCondition(conditions, 'MultipleOperatorGroup');
      const same = JSON.stringify(prev.namespaces ?? []) === JSON.stringify(namespaces) && JSON.stringify(prev.conditions ?? []) === JSON.stringify(conditions);
      if (!same) {
        this.writeStatus(this.ogs, og, { ...(namespaces.length ? { namespaces } : {}), lastUpdated: now(), ...(conditions.length ? { conditions } : {}) });
        // A group whose status changed annotates every CSV of its namespace as its own
        // (operatorgroup.go annotateCSVs), even while another group there makes them fail.
        this.annotateCsvs(ns, og.metadata.name ?? '', namespaces);
      }
      this.pruneProvidedApis(og);
      this.ensureOperatorGroupRoles(og);
    }
  }

  private annotateCsvs(ns: string, og: string, targets: string[]): void {
    const want = { 'olm.operatorGroup': og, 'olm.operatorNamespace': ns, 'olm.targetNamespaces': targetNamespacesAnnotation(targets) };
    for (const csv of this.api.storeList(this.csvs, ns)) {
      if (isCopiedCsv(csv as unknown as ClusterServiceVersion) || csv.metadata.deletionTimestamp) continue;
      const have = csv.metadata.annotations ?? {};
      if (Object.entries(want).every(([k, v]) => have[k] === v)) continue;
      this.api.updateObject(this.csvs, { ...csv, metadata: { ...csv.metadata, annotations: { ...have, ...want } } });
    }
  }

  private get clusterRoles() {
    return this.res('rbac.authorization.k8s.io', 'v1', 'clusterroles');
  }

  /** Creates a generated ClusterRole, or brings its rules and aggregation in line. */
  private ensureClusterRole(role: KObject): void {
    const cur = this.exists(this.clusterRoles, undefined, role.metadata.name ?? '');
    if (!cur) {
      this.api.createObject(this.clusterRoles, role);
      return;
    }
    if (JSON.stringify(cur.rules) === JSON.stringify(role.rules) && JSON.stringify(cur.aggregationRule) === JSON.stringify(role.aggregationRule)) return;
    this.api.updateObject(this.clusterRoles, { ...cur, rules: role.rules, aggregationRule: role.aggregationRule } as KObject);
  }

  private ensureOperatorGroupRoles(og: KObject): void {
    const cur = this.exists(this.ogs, og.metadata.namespace, og.metadata.name ?? '') ?? og;
    const apis = [...parseProvidedAPIs(cur.metadata.annotations?.['olm.providedAPIs'])];
    for (const role of operatorGroupRoles({ name: cur.metadata.name ?? '', namespace: cur.metadata.namespace ?? '' }, apis)) this.ensureClusterRole(role);
  }

  private ensureCrdRoles(csv: KObject): void {
    const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    for (const d of (csv.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } }).customresourcedefinitions?.owned ?? []) {
      const crd = this.exists(crdRes, undefined, d.name);
      if (!crd) continue;
      const spec = crd.spec as { group: string; names: { plural: string } };
      for (const role of crdRoles({ name: d.name, group: spec.group, plural: spec.names.plural, version: d.version, kind: d.kind, uid: crd.metadata.uid })) this.ensureClusterRole(role);
    }
  }

  /** OperatorGroup roles go with their OperatorGroup. */
  sweepOperatorGroupRoles(): void {
    for (const role of this.api.storeList(this.clusterRoles)) {
      const labels = role.metadata.labels ?? {};
      if (labels['olm.owner.kind'] !== 'OperatorGroup') continue;
      if (this.exists(this.ogs, labels['olm.owner.namespace'], labels['olm.owner'] ?? '')) continue;
      this.api.deleteObject(this.clusterRoles, undefined, role.metadata.name ?? '');
    }
  }

  /** The annotation loses the APIs no CSV in the namespace provides any more (not while one is pending). */
  private pruneProvidedApis(og: KObject): void {
    if ((og.spec as { staticProvidedAPIs?: boolean } | undefined)?.staticProvidedAPIs) return;
    const ns = og.metadata.namespace ?? '';
    const csvs = this.api.storeList(this.csvs, ns).filter((c) => !isCopiedCsv(c as unknown as ClusterServiceVersion));
    if (csvs.some((c) => ['', 'Pending', undefined].includes((c.status as { phase?: string } | undefined)?.phase))) return;
    const provided = csvs
      // A CSV refused for an API conflict was never granted its APIs; every other CSV keeps them
      // (pruning them while it waits on its OperatorGroup would make the two passes undo each other).
      .filter((c) => !['InterOperatorGroupOwnerConflict', 'CannotModifyStaticOperatorGroupProvidedAPIs'].includes((c.status as { reason?: string } | undefined)?.reason ?? ''))
      .flatMap((c) => ((c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } }).customresourcedefinitions?.owned ?? []).map((d) => formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind })));
    const cur = this.exists(this.ogs, ns, og.metadata.name ?? '')!;
    const have = cur.metadata.annotations?.['olm.providedAPIs'] ?? '';
    // Pruning only removes: APIs are added by the CSV checks, never here.
    const still = new Set(provided);
    const want = formatProvidedAPIs([...parseProvidedAPIs(have)].filter((a) => still.has(a)));
    if (have === want) return;
    // Pruned to nothing, the annotation stays, empty, as OLM leaves it.
    const annotations = { ...cur.metadata.annotations, 'olm.providedAPIs': want };
    this.api.updateObject(this.ogs, { ...cur, metadata: { ...cur.metadata, annotations } });
  }

  private operatorGroupOf(ns: string): { og?: KObject; error?: { reason: string; message: string } } {
    const groups = this.api.storeList(this.ogs, ns);
    if (groups.length === 0) return { error: { reason: 'NoOperatorGroup', message: 'csv in namespace with no operatorgroups' } };
    if (groups.length > 1) return { error: { reason: 'TooManyOperatorGroups', message: `csv created in namespace with multiple operatorgroups, can't pick one automatically` } };
    return { og: groups[0] };
  }

  // ---- Catalog operator: resolution (§2, §3, §6.2) ----

  private resolve(ns: string): void {
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
    // several it stops there, writing nothing (§2, "Inferred"; resolver/fail_forward.go).
    if (this.api.storeList(this.ogs, ns).length !== 1) return;
    // A catalog given by an address nothing answers on: OLM's resolver cannot list its bundles, and
    // the namespace's resolution fails on it with gRPC's words for a refused connection.
    const unreachable = subs.map((s) => {
      const spec = s.spec as { source?: string; sourceNamespace?: string };
      return this.catalogs.entries.get(`${spec.sourceNamespace}/${spec.source}`);
    }).find((src) => !!src && !src.dir && !!src.address && !src.healthy && !src.connecting);
    if (unreachable) {
      const message = `error using catalogsource ${unreachable.namespace}/${unreachable.name}: failed to list bundles: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp ${unreachable.address}: connect: connection refused"`;
      this.failResolution(ns, subs, { reason: 'ErrorPreventedResolution', message });
      return;
    }
    const catalogs = this.catalogs.healthy().filter((c) => c.namespace === ns || c.namespace === this.catalogs.globalNamespace);
    const installedCsvs = this.api.storeList(this.csvs, ns).filter((c) => !isCopiedCsv(c as unknown as ClusterServiceVersion));
    const installedApis = installedCsvs.flatMap((c) => ((c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } }).customresourcedefinitions?.owned ?? []).map((d) => ({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind })));
    // An existing CSV no Subscription refers to (the one being replaced, while its replacement
    // waits) provides the same API as one a Subscription requires: OLM's solver finds the two
    // cannot both stay, and says so in its own words.
    const owned = (c: KObject) => ((c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } }).customresourcedefinitions?.owned ?? []).map((d) => ({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind }));
    const referenced = new Map<string, string>();
    for (const sub of subs) {
      const st = (sub.status ?? {}) as { installedCSV?: string; currentCSV?: string };
      for (const n of [st.currentCSV, st.installedCSV]) if (n && !referenced.has(n)) referenced.set(n, sub.metadata.name ?? '');
    }
    for (const orphan of installedCsvs.filter((c) => !referenced.has(c.metadata.name ?? '') && !c.metadata.deletionTimestamp)) {
      for (const api of owned(orphan)) {
        const other = installedCsvs.find((c) => c !== orphan && referenced.has(c.metadata.name ?? '') && owned(c).some((a) => a.group === api.group && a.version === api.version && a.kind === api.kind));
        if (!other) continue;
        const [a, b, sub] = [orphan.metadata.name ?? '', other.metadata.name ?? '', referenced.get(other.metadata.name ?? '')!];
        this.failResolution(ns, subs, { reason: 'ConstraintsNotSatisfiable', message: `constraints not satisfiable: @existing/${ns}//${a} and @existing/${ns}//${b} provide ${api.kind} (${api.group}/${api.version}), clusterserviceversion ${a} exists and is not referenced by a subscription, subscription ${sub} exists, subscription ${sub} requires @existing/${ns}//${b}` });
        return;
      }
    }
    const work: { sub: KObject; r: Extract<Resolution, { kind: 'install' }> }[] = [];
    // Resolution is one problem for the whole namespace: the first Subscription (by name) that
    // cannot be satisfied fails it, and every Subscription gets that same condition.
    let failure: { reason: string; message: string } | undefined;
    for (const sub of [...subs].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
      if (waiting(sub)) continue;
      const spec = sub.spec as { name: string; source: string; sourceNamespace: string; channel?: string; startingCSV?: string };
      const st = (sub.status ?? {}) as { installedCSV?: string; currentCSV?: string; conditions?: Cond[] };
      const installedName = st.installedCSV ?? st.currentCSV;
      const installed = installedName ? installedCsvs.find((c) => c.metadata.name === installedName) : undefined;
      // A currentCSV that is not there yet is still being installed: nothing new to resolve.
      if (st.currentCSV && !installed && (sub.status as { installPlanRef?: unknown } | undefined)?.installPlanRef) continue;
      let r = resolveSubscription(sub.metadata.name ?? '', spec, catalogs, installed ? { name: installed.metadata.name ?? '', version: (installed.spec as { version?: string }).version } : undefined);
      // The solver keeps every installed operator's package dependencies true: an upgrade that
      // would leave another operator's required range is not taken.
      if (r.kind === 'install' && installed && !satisfiesRequiredRanges(r.pkg.name, r.bundle.version, requiredRangesOf(installedCsvs))) r = { kind: 'none' };
      let conditions = st.conditions;
      if (r.kind === 'failed') {
        failure ??= { reason: r.reason, message: r.message };
        continue;
      }
      if (r.kind === 'install') {
        const unmet = unmetDependencies(r.bundle, dependencySources(catalogs), installedApis);
        if (unmet.length) {
          failure ??= { reason: 'ConstraintsNotSatisfiable', message: `constraints not satisfiable: ${unmet.join(', ')}` };
          continue;
        }
      }
      conditions = removeCondition(conditions, 'ResolutionFailed');
      if (r.kind === 'install' && r.bundle.name !== st.currentCSV) work.push({ sub: { ...sub, status: { ...(sub.status as object), conditions } }, r });
      else if (JSON.stringify(conditions) !== JSON.stringify(st.conditions)) this.writeStatus(this.subs, sub, { ...(sub.status as object), conditions });
    }
    if (failure) {
      this.failResolution(ns, subs, failure);
      return;
    }
    if (work.length === 0) return;
    // Dependencies go into the same plan, with a Subscription OLM creates for each.
    const subscribed = new Set(subs.map((s) => (s.spec as { name: string }).name));
    const deps: DependencyInstall[] = [];
    for (const { r } of work) {
      // What the plan's own bundles provide needs no dependency install.
      const planned = work.flatMap((w) => w.r.bundle.providedApis);
      for (const d of dependencyInstalls(r.bundle, dependencySources(catalogs), [...installedApis, ...planned, ...deps.flatMap((x) => x.bundle.providedApis)], new Set([...subscribed, ...deps.map((x) => x.pkg.name)]))) {
        if (!deps.some((x) => x.bundle.name === d.bundle.name)) deps.push(d);
      }
    }
    this.createInstallPlan(ns, subs, work, deps);
  }

  /** One ResolutionFailed condition on every Subscription of the namespace (setSubsCond). */
  private failResolution(ns: string, subs: KObject[], failure: { reason: string; message: string }): void {
    for (const stale of subs) {
      const sub = this.exists(this.subs, ns, stale.metadata.name ?? '') ?? stale;
      const conditions = setCondition((sub.status as { conditions?: Cond[] } | undefined)?.conditions, { type: 'ResolutionFailed', status: 'True', ...failure });
      if (JSON.stringify(conditions) !== JSON.stringify((sub.status as { conditions?: Cond[] } | undefined)?.conditions)) this.writeStatus(this.subs, sub, { ...(sub.status as object), conditions, lastUpdated: now() });
    }
  }

  private createInstallPlan(ns: string, subs: KObject[], work: { sub: KObject; r: Extract<Resolution, { kind: 'install' }> }[], deps: DependencyInstall[] = []): void {
    const manual = subs.some((s) => (s.spec as { installPlanApproval?: string }).installPlanApproval === 'Manual');
    const existing = this.api.storeList(this.plans, ns);
    const generation = 1 + Math.max(0, ...existing.map((p) => (p.spec as { generation?: number }).generation ?? 0), ...subs.map((s) => (s.status as { installPlanGeneration?: number } | undefined)?.installPlanGeneration ?? 0));
    const steps: PlanStep[] = [
      ...work.flatMap(({ r }) => stepsForBundle(r.pkg, r.bundle, ns, r.replaces, { name: r.catalog.name, namespace: r.catalog.namespace })),
      ...deps.flatMap((d) => stepsForBundle(d.pkg, d.bundle, ns, undefined, { name: d.source.name, namespace: d.source.namespace })),
      // Each dependency gets a Subscription of its own, created when the plan runs (resolver/steps.go).
      ...deps.map((d) => {
        const name = `${d.pkg.name}-${d.channel}-${d.source.name}-${d.source.namespace}`;
        const sub = { apiVersion: `${OLM}/v1alpha1`, kind: 'Subscription', metadata: { name, namespace: ns }, spec: { source: d.source.name, sourceNamespace: d.source.namespace, name: d.pkg.name, channel: d.channel, startingCSV: d.bundle.name, installPlanApproval: 'Automatic' } };
        return { resolving: d.bundle.name, resource: { group: OLM, version: 'v1alpha1', kind: 'Subscription', name, manifest: JSON.stringify(sub), sourceName: d.source.name, sourceNamespace: d.source.namespace }, status: 'Unknown' };
      }),
    ];
    const labels: Record<string, string> = {};
    for (const { sub } of work) labels[`operators.coreos.com/${(sub.spec as { name: string }).name}.${ns}`] = '';
    let plan = this.api.createObject(this.plans, {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'InstallPlan',
      metadata: {
        generateName: 'install-',
        namespace: ns,
        labels,
        ownerReferences: subs.map((s) => ({ apiVersion: `${OLM}/v1alpha1`, kind: 'Subscription', name: s.metadata.name ?? '', uid: s.metadata.uid ?? '', blockOwnerDeletion: false, controller: false })),
      },
      spec: { clusterServiceVersionNames: [...work.map((w) => w.r.bundle.name), ...deps.map((d) => d.bundle.name)], approval: manual ? 'Manual' : 'Automatic', approved: !manual, generation },
    });
    // Second write, as OLM does: the status with the plan.
    plan = this.writeStatus(this.plans, plan, {
      phase: manual ? 'RequiresApproval' : 'Installing',
      catalogSources: [...new Set([...work.map((w) => w.r.catalog.name), ...deps.map((d) => d.source.name)])],
      plan: steps,
      bundleLookups: [],
    });
    for (const { sub, r } of work) {
      const fresh = this.exists(this.subs, ns, sub.metadata.name ?? '') ?? sub;
      this.writeStatus(this.subs, fresh, {
        ...(fresh.status as object),
        conditions: (sub.status as { conditions?: Cond[] }).conditions,
        currentCSV: r.bundle.name,
        installPlanRef: { apiVersion: `${OLM}/v1alpha1`, kind: 'InstallPlan', name: plan.metadata.name, namespace: ns, uid: plan.metadata.uid, resourceVersion: plan.metadata.resourceVersion },
        installplan: { apiVersion: `${OLM}/v1alpha1`, kind: 'InstallPlan', name: plan.metadata.name, uuid: plan.metadata.uid },
        installPlanGeneration: generation,
        state: 'UpgradePending',
        lastUpdated: now(),
      });
    }
    // At most five InstallPlans per namespace: the oldest generations go.
    const all = this.api.storeList(this.plans, ns).sort((a, b) => ((a.spec as { generation?: number }).generation ?? 0) - ((b.spec as { generation?: number }).generation ?? 0));
    for (const old of all.slice(0, Math.max(0, all.length - MAX_PLANS))) this.api.deleteObject(this.plans, ns, old.metadata.name ?? '');
  }

  // ---- InstallPlan execution (§3) ----

  private executePlan(plan: KObject): void {
    const st = (plan.status ?? {}) as { phase?: string; plan?: PlanStep[]; conditions?: Cond[] };
    const spec = plan.spec as { approved?: boolean };
    if (st.phase === 'RequiresApproval' && spec.approved) {
      plan = this.writeStatus(this.plans, plan, { ...st, phase: 'Installing' });
    }
    const cur = (plan.status ?? {}) as typeof st;
    if (cur.phase !== 'Installing') return;
    if (this.failNextInstallPlan) {
      const message = this.failNextInstallPlan;
      this.failNextInstallPlan = undefined;
      this.writeStatus(this.plans, plan, { ...cur, phase: 'Failed', message, conditions: setCondition(cur.conditions, { type: 'Installed', status: 'False', reason: 'InstallComponentFailed', message }) });
      return;
    }
    const steps = (cur.plan ?? []).map((s) => ({ ...s, resource: { ...s.resource } }));
    const startTime = (cur as { startTime?: string }).startTime ?? now();
    const todo = (s: PlanStep) => s.status === 'Unknown' || s.status === 'NotPresent';
    // Real OLM creates the CSV first and its olm operator checks it before the catalog operator
    // has written the service accounts and roles of the same plan: every new CSV passes through
    // Pending/RequirementsNotMet. The sandbox makes that order explicit: CRDs and CSVs first, the
    // rest once each CSV this plan created has had its first requirement check.
    const early = (k: string) => (k === 'CustomResourceDefinition' ? 0 : k === 'ClusterServiceVersion' ? 1 : 2);
    try {
      for (const step of steps.filter((x) => todo(x) && early(x.resource.kind) < 2).sort((a, b) => early(a.resource.kind) - early(b.resource.kind))) this.executeStep(plan, step);
      const unchecked = steps.some((x) => {
        if (x.resource.kind !== 'ClusterServiceVersion' || x.status !== 'Created') return false;
        const csv = this.exists(this.csvs, plan.metadata.namespace, x.resource.name);
        const cst = (csv?.status ?? {}) as { phase?: string; reason?: string };
        return !!csv && (!cst.phase || (cst.phase === 'Pending' && cst.reason === 'RequirementsUnknown'));
      });
      if (unchecked) {
        this.writeStatus(this.plans, plan, { ...cur, plan: steps, startTime });
        return;
      }
      for (const step of steps.filter(todo)) this.executeStep(plan, step);
    } catch (err) {
      const message = `error creating objects: ${(err as Error).message}`;
      this.writeStatus(this.plans, plan, { ...cur, plan: steps, phase: 'Failed', message, startTime, conditions: setCondition(cur.conditions, { type: 'Installed', status: 'False', reason: 'InstallComponentFailed', message }) });
      return;
    }
    this.writeStatus(this.plans, plan, { ...cur, plan: steps, phase: 'Complete', startTime, conditions: setCondition(cur.conditions, { type: 'Installed', status: 'True' }) });
  }

  /** Creates one step's object (a CRD is updated when it exists); sets the step's status. */
  private executeStep(plan: KObject, step: PlanStep): void {
    const obj = JSON.parse(step.resource.manifest) as KObject;
    const r = this.api.resources.find(step.resource.group, step.resource.version, this.pluralOf(step.resource.group, step.resource.version, step.resource.kind));
    if (!r) {
      step.status = 'UnsupportedResource';
      throw new ApiStatusError(422, 'Invalid', `${step.resource.kind} is not a supported resource`);
    }
    obj.metadata.labels = { ...obj.metadata.labels, 'olm.managed': 'true' };
    const found = this.exists(r, obj.metadata.namespace, obj.metadata.name ?? '');
    if (found) {
      step.status = 'Present';
      if (r.kind === 'CustomResourceDefinition') this.api.updateObject(r, { ...obj, metadata: { ...obj.metadata, resourceVersion: found.metadata.resourceVersion } } as KObject);
      return;
    }
    if (r.kind === 'ClusterServiceVersion') obj.metadata.finalizers = [CSV_FINALIZER];
    if (r.kind === 'Subscription') obj.metadata.annotations = { ...obj.metadata.annotations, 'olm.generated-by': plan.metadata.name ?? '' };
    this.api.createObject(r, obj);
    step.status = 'Created';
  }

  private pluralOf(group: string, version: string, kind: string): string {
    return this.api.resources.all().find((r) => r.group === group && r.versions.includes(version) && r.kind === kind)?.resource ?? `${kind.toLowerCase()}s`;
  }

  // ---- OLM operator: the CSV phase machine (§4) ----

  private setPhase(csv: KObject, phase: string, reason: string, message: string, extra: Record<string, unknown> = {}): KObject {
    const st = (csv.status ?? {}) as { phase?: string; reason?: string; message?: string; conditions?: unknown[] };
    if (st.phase === phase && st.reason === reason && st.message === message && Object.keys(extra).length === 0) return csv;
    const t = now();
    const conditions = st.phase === phase && st.reason === reason ? st.conditions : [...(st.conditions ?? []), { phase, reason, message, lastUpdateTime: t, lastTransitionTime: t }].slice(-20);
    const next = this.writeStatus(this.csvs, csv, { ...st, ...extra, phase, reason, message, lastUpdateTime: t, lastTransitionTime: st.phase === phase ? (st as { lastTransitionTime?: string }).lastTransitionTime : t, conditions });
    if (st.phase !== phase || st.reason !== reason) this.event(next, phase === 'Failed' ? 'Warning' : 'Normal', reason, message);
    return next;
  }

  private event(obj: KObject, type: string, reason: string, message: string): void {
    const evRes = this.res('', 'v1', 'events');
    const t = now();
    try {
      this.api.createObject(evRes, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${obj.metadata.name}.${randomBytes(8).toString('hex')}`, namespace: obj.metadata.namespace },
        involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
        reason, message, type, count: 1, firstTimestamp: t, lastTimestamp: t, source: { component: 'operator-lifecycle-manager' }, reportingComponent: 'operator-lifecycle-manager',
      });
    } catch {
      // events are best effort, as in a real cluster
    }
  }

  private syncCsv(csv: KObject): void {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    if (csv.metadata.deletionTimestamp) {
      this.deleteCopies(csv, []);
      if (csv.metadata.finalizers?.includes(CSV_FINALIZER)) this.api.updateObject(this.csvs, { ...csv, metadata: { ...csv.metadata, finalizers: csv.metadata.finalizers.filter((f) => f !== CSV_FINALIZER) } });
      return;
    }
    this.ensureOperatorCondition(csv);
    const spec = csv.spec as { installModes?: { type: string; supported: boolean }[]; replaces?: string; install?: { spec?: { deployments?: { name: string; spec: Record<string, unknown>; label?: Record<string, string> }[] } }; customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[]; required?: { name: string; version: string; kind: string }[] } };
    const st = (csv.status ?? {}) as { phase?: string; reason?: string };
    let phase = st.phase ?? '';

    // Pre-checks: OperatorGroup membership and install modes (§4.1, §7).
    const { og, error } = this.operatorGroupOf(ns);
    if (error) {
      this.setPhase(csv, 'Failed', error.reason, error.message);
      return;
    }
    const targets = ((og!.status as { namespaces?: string[] } | undefined)?.namespaces) ?? [];
    const annotations = { 'olm.operatorGroup': og!.metadata.name ?? '', 'olm.operatorNamespace': ns, 'olm.targetNamespaces': targetNamespacesAnnotation(targets) };
    const have = csv.metadata.annotations ?? {};
    if (Object.entries(annotations).some(([k, v]) => have[k] !== v)) {
      csv = this.api.updateObject(this.csvs, { ...csv, metadata: { ...csv.metadata, annotations: { ...have, ...annotations } } });
    }
    if (targets.length === 0) {
      this.setPhase(csv, 'Failed', 'NoTargetNamespaces', 'no targetNamespaces are matched operatorgroups namespace selection');
      return;
    }
    const verdict = supportsTargetNamespaces(spec.installModes ?? [], ns, targets);
    if (!verdict.ok) {
      this.setPhase(csv, 'Failed', verdict.reason, verdict.message);
      return;
    }
    // Provided APIs: no two intersecting OperatorGroups may provide the same API (§5.3).
    const apis = new Set((spec.customresourcedefinitions?.owned ?? []).map((d) => formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind })));
    if (apis.size > 0) {
      const ownSurface = groupSurface(ns, targets);
      const others = this.api.storeList(this.ogs).filter((o) => o.metadata.uid !== og!.metadata.uid && operatorGroupsIntersect(ownSurface, groupSurface(o.metadata.namespace ?? '', (o.status as { namespaces?: string[] } | undefined)?.namespaces ?? [])));
      const union = new Set(others.flatMap((o) => [...parseProvidedAPIs(o.metadata.annotations?.['olm.providedAPIs'])]));
      const outcome = providedApiOutcome(apis, parseProvidedAPIs(og!.metadata.annotations?.['olm.providedAPIs']), union, (og!.spec as { staticProvidedAPIs?: boolean } | undefined)?.staticProvidedAPIs === true);
      if (outcome.action === 'fail') {
        this.setPhase(csv, 'Failed', outcome.reason, outcome.message);
        return;
      }
      if (outcome.action === 'add' || outcome.action === 'remove') {
        const cur = this.exists(this.ogs, ns, og!.metadata.name ?? '')!;
        this.api.updateObject(this.ogs, { ...cur, metadata: { ...cur.metadata, annotations: { ...cur.metadata.annotations, 'olm.providedAPIs': outcome.annotation } } });
        return;
      }
    }
    if (phase === 'Failed' && OG_FAILURE_REASONS.has(st.reason ?? '')) {
      csv = this.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
      phase = 'Pending';
    }

    const others = this.api.storeList(this.csvs, ns).filter((c) => c.metadata.name !== name && !isCopiedCsv(c as unknown as ClusterServiceVersion));
    const replacer = others.find((c) => isReplacementOf(c as unknown as ClusterServiceVersion, name));

    switch (phase) {
      case '':
      case 'None':
        this.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
        return;
      case 'Pending': {
        // The installed version may hold its replacement back (OperatorCondition
        // Upgradeable=False); OLM asks before it checks requirements.
        if (spec.replaces) {
          const old = others.find((c) => c.metadata.name === spec.replaces);
          const oc = old ? this.exists(this.res(OLM, 'v2', 'operatorconditions'), ns, old.metadata.name ?? '') : undefined;
          const block = oc ? upgradeBlock(oc as unknown as OperatorCondition) : { blocked: false as const };
          if (block.blocked) {
            this.setPhase(csv, 'Pending', 'OperatorConditionNotUpgradeable', block.message);
            return;
          }
        }
        const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
        const required = [...(spec.customresourcedefinitions?.owned ?? []), ...(spec.customresourcedefinitions?.required ?? [])];
        const crdStatuses = required.map((d) => {
          const crd = this.exists(crdRes, undefined, d.name);
          return { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', name: d.name, status: crd ? 'Present' : 'NotPresent', message: crd ? 'CRD is present and Established condition is true' : 'CRD is not present', ...(crd ? { uuid: crd.metadata.uid } : {}) };
        });
        const install = (spec.install?.spec ?? {}) as { permissions?: Permission[]; clusterPermissions?: Permission[] };
        const requirementStatus = [
          ...minKubeVersionStatus(name, (csv.spec as { minKubeVersion?: string }).minKubeVersion, this.api.version.gitVersion),
          ...crdStatuses,
          ...permissionStatuses(
            { namespaced: install.permissions ?? [], cluster: install.clusterPermissions ?? [] },
            (sa) => !!this.exists(this.res('', 'v1', 'serviceaccounts'), ns, sa),
            (p, cluster) => {
              // OLM's own Role (ClusterRole) and binding for this account, by the name it gives them.
              const roleName = olmRoleName(name, ns, p, cluster);
              const kinds = cluster ? ['clusterroles', 'clusterrolebindings'] : ['roles', 'rolebindings'];
              return kinds.every((k) => !!this.exists(this.res('rbac.authorization.k8s.io', 'v1', k), cluster ? undefined : ns, roleName));
            },
          ),
        ];
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.setPhase(csv, 'Pending', 'RequirementsNotMet', 'one or more requirements couldn\'t be found', { requirementStatus });
          return;
        }
        if (spec.replaces) {
          const old = others.find((c) => c.metadata.name === spec.replaces);
          if (old && (old.status as { phase?: string } | undefined)?.phase !== 'Replacing') return;
        }
        this.setPhase(csv, 'InstallReady', 'AllRequirementsMet', 'all requirements found, attempting install', { requirementStatus });
        return;
      }
      case 'InstallReady': {
        for (const d of spec.install?.spec?.deployments ?? []) this.ensureDeployment(csv, d);
        this.setPhase(csv, 'Installing', 'InstallSucceeded', 'waiting for install components to report healthy');
        return;
      }
      case 'Installing': {
        const waitingFor = (spec.install?.spec?.deployments ?? []).find((d) => !this.deploymentAvailable(ns, d.name));
        if (waitingFor) {
          this.setPhase(csv, 'Installing', 'InstallWaiting', `installing: waiting for deployment ${waitingFor.name} to become ready: deployment "${waitingFor.name}" not available: Deployment does not have minimum availability.`);
          return;
        }
        this.setPhase(csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
        return;
      }
      case 'Succeeded': {
        this.ensureCrdRoles(csv);
        if (replacer) {
          this.setPhase(csv, 'Replacing', 'BeingReplaced', `being replaced by csv: ${replacer.metadata.name}`);
          return;
        }
        this.syncCopies(csv, og!, targets);
        return;
      }
      case 'Replacing': {
        if (replacer && (replacer.status as { phase?: string } | undefined)?.phase === 'Succeeded') {
          this.setPhase(csv, 'Deleting', 'Replaced', 'has been replaced by a newer ClusterServiceVersion that has successfully installed.');
        }
        return;
      }
      case 'Deleting':
        this.api.deleteObject(this.csvs, ns, name);
        return;
      default:
        return;
    }
  }

  /** One OperatorCondition per installed CSV (§1.8): owned by it, naming its accounts and deployments. */
  private ensureOperatorCondition(csv: KObject): void {
    const ocRes = this.res(OLM, 'v2', 'operatorconditions');
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const install = (csv.spec as { install?: { spec?: { permissions?: { serviceAccountName: string }[]; clusterPermissions?: { serviceAccountName: string }[]; deployments?: { name: string }[] } } }).install?.spec;
    const accounts = [...new Set([...(install?.permissions ?? []), ...(install?.clusterPermissions ?? [])].map((p) => p.serviceAccountName))];
    let oc = this.exists(ocRes, ns, name);
    if (!oc) {
      oc = this.api.createObject(ocRes, {
        apiVersion: `${OLM}/v2`,
        kind: 'OperatorCondition',
        metadata: { name, namespace: ns, ownerReferences: [{ apiVersion: `${OLM}/v1alpha1`, kind: 'ClusterServiceVersion', name, uid: csv.metadata.uid ?? '', controller: true, blockOwnerDeletion: false }] },
        spec: { serviceAccounts: accounts.length ? accounts : ['default'], deployments: (install?.deployments ?? []).map((d) => d.name) },
      });
    }
    // The operator writes spec.conditions; OLM mirrors them into the status with observedGeneration.
    const conditions = ((oc.spec as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? []).map((c) => ({ ...c, observedGeneration: oc!.metadata.generation }));
    if (conditions.length || (oc.status as { conditions?: unknown[] } | undefined)?.conditions?.length) this.writeStatus(ocRes, oc, { conditions });
  }

  private ensureDeployment(csv: KObject, d: { name: string; spec: Record<string, unknown>; label?: Record<string, string> }): void {
    const ns = csv.metadata.namespace ?? '';
    const metadata = {
      name: d.name,
      namespace: ns,
      labels: { ...d.label, 'olm.owner': csv.metadata.name ?? '', 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': ns, 'olm.managed': 'true' },
      ownerReferences: [{ apiVersion: `${OLM}/v1alpha1`, kind: 'ClusterServiceVersion', name: csv.metadata.name ?? '', uid: csv.metadata.uid ?? '', controller: false, blockOwnerDeletion: false }],
    };
    const existing = this.exists(this.deployments, ns, d.name);
    if (existing) {
      // An upgrade takes over the previous version's deployment: new spec, new owner, and it
      // rolls out again (not available until the new pods would be).
      this.api.updateObject(this.deployments, { ...existing, metadata: { ...existing.metadata, ...metadata, resourceVersion: existing.metadata.resourceVersion }, spec: d.spec } as KObject);
      const cur = this.exists(this.deployments, ns, d.name)!;
      this.api.updateObject(this.deployments, { ...cur, status: {} } as KObject, 'status');
    } else {
      this.api.createObject(this.deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec: d.spec });
    }
    // There is no kubelet: the deployment reports available after a delay.
    const t = setTimeout(() => {
      const cur = this.exists(this.deployments, ns, d.name);
      if (!cur) return;
      const replicas = ((cur.spec as { replicas?: number }).replicas ?? 1);
      this.api.updateObject(this.deployments, { ...cur, status: { observedGeneration: cur.metadata.generation, replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastTransitionTime: now() }] } }, 'status');
    }, this.opts.deploymentDelayMs);
    t.unref();
  }

  private deploymentAvailable(ns: string, name: string): boolean {
    const d = this.exists(this.deployments, ns, name);
    const st = (d?.status ?? {}) as { availableReplicas?: number };
    const replicas = ((d?.spec as { replicas?: number } | undefined)?.replicas ?? 1);
    return !!d && (st.availableReplicas ?? 0) >= replicas;
  }

  // ---- Copied CSVs (§4.4) ----

  private copiesDisabled(targets: readonly string[]): boolean {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    return isAllNamespaces(targets) && (cfg?.spec as { features?: { disableCopiedCSVs?: boolean } } | undefined)?.features?.disableCopiedCSVs === true;
  }

  private syncCopies(csv: KObject, og: KObject, targets: string[]): void {
    const ns = csv.metadata.namespace ?? '';
    const reason = (csv.status as { reason?: string } | undefined)?.reason ?? '';
    const ownOnly = targets.length === 1 && targets[0] === ns;
    if (ownOnly || NOT_COPIABLE.has(reason) || this.copiesDisabled(targets)) {
      this.deleteCopies(csv, []);
      return;
    }
    const all = isAllNamespaces(targets) ? this.namespaceFacts().map((n) => n.name) : targets;
    const wanted = all.filter((t) => t !== ns && this.exists(this.namespaces, undefined, t));
    for (const target of wanted) this.ensureCopy(csv, target);
    this.deleteCopies(csv, wanted);
    void og;
  }

  private ensureCopy(csv: KObject, target: string): void {
    const ns = csv.metadata.namespace ?? '';
    const annotations = { ...csv.metadata.annotations };
    delete annotations['olm.targetNamespaces'];
    delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
    const labels = Object.fromEntries(Object.entries(csv.metadata.labels ?? {}).filter(([k]) => !k.startsWith('operators.coreos.com/')));
    labels['olm.copiedFrom'] = ns;
    const status = { ...(csv.status as object), reason: 'Copied', message: `The operator is running in ${ns} but is managing this namespace` };
    const existing = this.exists(this.csvs, target, csv.metadata.name ?? '');
    if (!existing) {
      const created = this.api.createObject(this.csvs, { apiVersion: csv.apiVersion, kind: csv.kind, metadata: { name: csv.metadata.name, namespace: target, labels, annotations }, spec: csv.spec } as KObject);
      this.writeStatus(this.csvs, created, status);
      return;
    }
    if (!isCopiedCsv(existing as unknown as ClusterServiceVersion)) return;
    let cur = existing;
    if (JSON.stringify(cur.spec) !== JSON.stringify(csv.spec) || JSON.stringify(cur.metadata.labels) !== JSON.stringify(labels)) {
      cur = this.api.updateObject(this.csvs, { ...cur, metadata: { ...cur.metadata, labels, annotations }, spec: csv.spec } as KObject);
    }
    this.writeStatus(this.csvs, cur, status);
  }

  /** Deletes this CSV's copies everywhere except in `keep`. */
  private deleteCopies(csv: KObject, keep: readonly string[]): void {
    const ns = csv.metadata.namespace ?? '';
    for (const c of this.api.storeList(this.csvs)) {
      if (c.metadata.name !== csv.metadata.name || c.metadata.namespace === ns) continue;
      if (c.metadata.labels?.['olm.copiedFrom'] !== ns) continue;
      if (keep.includes(c.metadata.namespace ?? '')) continue;
      try {
        this.api.deleteObject(this.csvs, c.metadata.namespace, c.metadata.name ?? '');
      } catch (err) {
        if (!(err instanceof ApiStatusError && err.code === 404)) throw err;
      }
    }
  }

  /** Removes copies whose source CSV is gone (the source's namespace pass cannot see them). */
  sweepOrphanCopies(): void {
    for (const c of this.api.storeList(this.csvs)) {
      const from = c.metadata.labels?.['olm.copiedFrom'];
      if (!from) continue;
      const src = this.exists(this.csvs, from, c.metadata.name ?? '');
      if (!src || src.metadata.deletionTimestamp) {
        try {
          this.api.deleteObject(this.csvs, c.metadata.namespace, c.metadata.name ?? '');
        } catch {
          // gone already
        }
      }
    }
  }

  // ---- Subscription status (§2.1, §2.2) ----

  private syncSubscriptionStatus(ns: string): void {
    for (let sub of this.api.storeList(this.subs, ns)) {
      // OLM's adoption controller labels every Subscription with its Operator, named
      // <package>.<namespace>, whether or not the package resolves.
      const operatorLabel = `operators.coreos.com/${(sub.spec as { name?: string }).name}.${ns}`;
      if ((sub.spec as { name?: string }).name && sub.metadata.labels?.[operatorLabel] === undefined) {
        sub = this.api.updateObject(this.subs, { ...sub, metadata: { ...sub.metadata, labels: { ...sub.metadata.labels, [operatorLabel]: '' } } });
      }
      const spec = sub.spec as { source: string; sourceNamespace: string; startingCSV?: string };
      const st = { ...((sub.status ?? {}) as Record<string, unknown>) } as { currentCSV?: string; installedCSV?: string; state?: string; installPlanRef?: { name?: string } & Record<string, unknown>; installplan?: unknown; conditions?: Cond[]; catalogHealth?: unknown[]; lastUpdated?: string };
      // A Subscription an InstallPlan created for a dependency points at that plan
      // (ensureSubscriptionInstallPlanState).
      const generatedBy = sub.metadata.annotations?.['olm.generated-by'];
      const generator = generatedBy && !st.installPlanRef ? this.exists(this.plans, ns, generatedBy) : undefined;
      if (generator) {
        st.installPlanRef = { apiVersion: `${OLM}/v1alpha1`, kind: 'InstallPlan', name: generator.metadata.name, namespace: ns, uid: generator.metadata.uid, resourceVersion: generator.metadata.resourceVersion };
        st.installplan = { apiVersion: `${OLM}/v1alpha1`, kind: 'InstallPlan', name: generator.metadata.name, uuid: generator.metadata.uid };
        st.state = 'UpgradePending';
        st.currentCSV = spec.startingCSV;
        st.lastUpdated = now();
      }
      const entry = this.catalogs.entries.get(`${spec.sourceNamespace}/${spec.source}`);
      const healthy = !!entry && (entry.healthy || (!entry.dir && !!entry.address));
      const relevant = this.catalogs.healthy().concat([...this.catalogs.entries.values()].filter((e) => !e.healthy)).filter((e) => e.namespace === ns || e.namespace === this.catalogs.globalNamespace);
      // OLM assumes a catalog given only by address is healthy (GrpcAddressRegistryReconciler
      // has no health check): only the catalogs it serves itself can be unhealthy here.
      const healthOf = (e: CatalogEntry) => e.healthy || (!e.dir && !!e.address);
      st.catalogHealth = relevant.map((e) => ({ catalogSourceRef: { apiVersion: `${OLM}/v1alpha1`, kind: 'CatalogSource', name: e.name, namespace: e.namespace }, healthy: healthOf(e), lastUpdated: st.lastUpdated ?? now() })).sort((a, b) => a.catalogSourceRef.name.localeCompare(b.catalogSourceRef.name));
      st.conditions = healthy
        ? setCondition(st.conditions, { type: 'CatalogSourcesUnhealthy', status: 'False', reason: 'AllCatalogSourcesHealthy', message: 'all available catalogsources are healthy' })
        : setCondition(st.conditions, { type: 'CatalogSourcesUnhealthy', status: 'True', reason: 'UnhealthyCatalogSourceFound', message: `targeted catalogsource ${spec.sourceNamespace}/${spec.source} ${entry ? 'unhealthy' : 'missing'}` });

      const planName = st.installPlanRef?.name;
      const plan = planName ? this.exists(this.plans, ns, planName) : undefined;
      const phase = (plan?.status as { phase?: string } | undefined)?.phase;
      if (planName && !plan) {
        if (st.state === 'UpgradePending') {
          delete st.installPlanRef;
          delete st.installplan;
          delete st.currentCSV;
          st.state = '';
        } else st.conditions = setCondition(st.conditions, { type: 'InstallPlanMissing', status: 'True', reason: 'ReferencedInstallPlanNotFound' });
      }
      if (plan) {
        st.conditions = removeCondition(st.conditions, 'InstallPlanMissing');
        const installed = (plan.status as { conditions?: Cond[] } | undefined)?.conditions?.find((c) => c.type === 'Installed');
        if (phase === 'Complete') {
          st.conditions = removeCondition(removeCondition(st.conditions, 'InstallPlanPending'), 'InstallPlanFailed');
        } else if (phase === 'Failed') {
          st.conditions = setCondition(removeCondition(st.conditions, 'InstallPlanPending'), { type: 'InstallPlanFailed', status: 'True', reason: installed?.reason ?? 'InstallPlanFailed', message: installed?.message ?? '' });
        } else {
          st.conditions = setCondition(st.conditions, { type: 'InstallPlanPending', status: 'True', reason: phase || 'InstallPlanNotYetReconciled', ...(installed?.message ? { message: installed.message } : {}) });
        }
      }
      // Deprecation of what is installed, from the catalog (§2.2): package, channel, bundle, roll-up.
      const pkgModel = entry?.catalog?.packages.get((sub.spec as { name: string }).name);
      const channel = (sub.spec as { channel?: string }).channel;
      const depr: Cond[] = [];
      if (pkgModel && st.installedCSV) {
        if (pkgModel.deprecation) depr.push({ type: 'PackageDeprecated', status: 'True', message: `olm.package/${pkgModel.name}: ${pkgModel.deprecation}` });
        const chDep = channel ? pkgModel.channels.get(channel)?.deprecation : undefined;
        if (chDep) depr.push({ type: 'ChannelDeprecated', status: 'True', message: `olm.channel/${channel}: ${chDep}` });
        const bDep = pkgModel.bundles.get(st.installedCSV)?.deprecation;
        if (bDep) depr.push({ type: 'BundleDeprecated', status: 'True', message: `olm.bundle/${st.installedCSV}: ${bDep}` });
      }
      if (depr.length) depr.push({ type: 'Deprecated', status: 'True', message: depr.map((c) => c.message).join('; ') });
      for (const t of ['PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated', 'Deprecated']) {
        const c = depr.find((d) => d.type === t);
        st.conditions = c ? setCondition(st.conditions, c) : removeCondition(st.conditions, t);
      }
      if (st.currentCSV) {
        if (this.exists(this.csvs, ns, st.currentCSV)) {
          st.state = 'AtLatestKnown';
          st.installedCSV = st.currentCSV;
        } else st.state = 'UpgradePending';
      }
      const next = { ...st, lastUpdated: JSON.stringify({ ...st, lastUpdated: undefined }) === JSON.stringify({ ...(sub.status as object), lastUpdated: undefined }) ? st.lastUpdated : now() };
      this.writeStatus(this.subs, sub, next);
    }
  }
}
