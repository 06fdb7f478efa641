// Resolution (docs/olm/resolution.md): a namespace's Subscriptions resolved against the catalogs
// (resolver.ts, with lib/olm's dependency rules), and the InstallPlan that says what to install,
// or ResolutionFailed on every Subscription with the reason. Executing the plan is
// plan-execution.ts's.
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { isCopiedCsv } from '../../olm/resources/cluster-service-version';
import {
  dependencyInstalls,
  satisfiesRequiredRanges,
  unmetDependencies,
  type DependencyInstall as Dep,
  type PackageRange,
} from '../../olm/resolution/dependencies';

import type { ApiServer } from '../server/api-server';

import type { KObject } from '../store/types';
import { CATALOG_DIR_ANNOTATION, type CatalogEntry, type CatalogSources } from './catalog-sources';
import { BundleUnpacker, unpackSettings } from './bundle-unpack';
import { stepsForBundle, unpacksFromImage, type PlanStep } from './install-steps';

import { OLM, OperatorBase, now, removeCondition, setCondition, type Cond } from './operator-base';
import { dependencySources, resolveSubscription, type Resolution } from './resolver';

type DependencyInstall = Dep<CatalogEntry>;

const MAX_PLANS = 5;

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

export class SubscriptionResolution extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly catalogs: CatalogSources,
  ) {
    super(api);
    this.unpacker = new BundleUnpacker(api);
  }

  /** Set by the wiring: runs the namespace's pass again after `ms`. */
  requeueAfter?: (ns: string, ms: number) => void;
  private readonly unpacker: BundleUnpacker;

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
      // A resolution that reaches its plan has unpacked every bundle it needed.
      conditions = removeCondition(removeCondition(conditions, 'BundleUnpacking'), 'BundleUnpackFailed');
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
    const writeClears = () => {
      for (const { sub, conditions } of clears) {
        const fresh = this.exists(this.subs, ns, sub.metadata.name ?? '') ?? sub;
        this.writeStatus(this.subs, fresh, { ...(fresh.status as object), conditions });
      }
    };
    if (work.length === 0) {
      writeClears();
      return;
    }
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
    const lookups = bundleLookups(work, deps);
    if (lookups.length && !this.unpacked(ns, subs, lookups)) return;
    writeClears();
    this.createInstallPlan(ns, subs, work, deps, lookups);
  }

  /**
   * OLM's unpackBundles before a plan is written: every image-only bundle of the resolution
   * unpacked, or the Subscriptions told why not (BundleUnpackFailed with the Job's failure, else
   * BundleUnpacking) and the namespace looked at again in 5 s, as OLM requeues it.
   */
  private unpacked(ns: string, subs: KObject[], lookups: BundleLookup[]): boolean {
    const og = this.api.storeList(this.ogs, ns)[0];
    const settings = og ? unpackSettings(og) : { error: 'no OperatorGroup' };
    // OLM's sync ends on an annotation it cannot parse, and the namespace waits for its next change.
    if ('error' in settings) return false;
    const outcomes = lookups.map((l) => this.unpacker.unpack(l.path, l.catalogSourceRef, settings));
    const failed = outcomes.find((o) => o.state === 'failed');
    if (failed && failed.state === 'failed') {
      this.setSubsCondition(ns, subs, {
        type: 'BundleUnpackFailed',
        status: 'True',
        reason: 'BundleUnpackFailed',
        message: `bundle unpacking failed. Reason: ${failed.reason}, and Message: ${failed.message}`,
      });
      // OLM does not requeue a failed unpack: it looks again when something of the namespace
      // changes (a Subscription, the OperatorGroup, a catalog) or at its informers' periodic
      // resync, which is when a retry interval past gives a new Job. Only that resync is the
      // sandbox's to time; a retry due later than it waits for the resync after.
      if (settings.retryMs > 0) this.requeueAfter?.(ns, Math.ceil((settings.retryMs + 1) / RESYNC_MS) * RESYNC_MS);
      return false;
    }
    if (outcomes.every((o) => o.state === 'unpacked')) return true;
    this.setSubsCondition(ns, subs, { type: 'BundleUnpacking', status: 'True', reason: 'UnpackingInProgress' });
    this.requeueAfter?.(ns, UNPACK_REQUEUE_MS);
    return false;
  }

  /** setSubsCond: one condition on every Subscription of the namespace, written where it changes. */
  private setSubsCondition(ns: string, subs: KObject[], cond: Cond): void {
    for (const stale of subs) {
      const sub = this.exists(this.subs, ns, stale.metadata.name ?? '') ?? stale;
      const before = (sub.status as { conditions?: Cond[] } | undefined)?.conditions;
      const conditions = setCondition(before, cond);
      if (JSON.stringify(conditions) !== JSON.stringify(before))
        this.writeStatus(this.subs, sub, { ...(sub.status as object), conditions, lastUpdated: now() });
    }
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
    lookups: BundleLookup[] = [],
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
      // The bundles unpacked from images, their conditions gone once unpacked (OLM's Go type
      // omits an empty list, so a plan of inline bundles has none).
      ...(lookups.length ? { bundleLookups: lookups } : {}),
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
}

/**
 * The catalog operator's informers' resync period (its `--interval`, 15 min by default:
 * cmd/catalog/main.go), when every Subscription is synced again and its namespace resolved. OLM
 * jitters it by up to a fifth either way; the sandbox takes the middle.
 */
const RESYNC_MS = 15 * 60_000;

/** OLM requeues a namespace whose bundles are still unpacking after 5 s (syncResolvingNamespace). */
const UNPACK_REQUEUE_MS = 5000;

/** A plan's record of a bundle OLM unpacked from its image (v1alpha1 BundleLookup, conditions gone). */
interface BundleLookup {
  path: string;
  identifier: string;
  replaces: string;
  catalogSourceRef: { namespace: string; name: string };
  properties: string;
}

/** The resolution's bundles OLM unpacks: those the catalog gives by image only (install-steps.ts). */
function bundleLookups(
  work: { r: Extract<Resolution, { kind: 'install' }> }[],
  deps: DependencyInstall[],
): BundleLookup[] {
  const entries = [
    ...work.map(({ r }) => ({ bundle: r.bundle, replaces: r.replaces, source: r.catalog })),
    ...deps.map((d) => ({ bundle: d.bundle, replaces: undefined, source: d.source })),
  ];
  return entries
    .filter((e) => unpacksFromImage(e.bundle))
    .map((e) => ({
      path: e.bundle.image!,
      identifier: e.bundle.name,
      replaces: e.replaces ?? '',
      catalogSourceRef: { namespace: e.source.namespace, name: e.source.name },
      properties: JSON.stringify({ properties: e.bundle.properties }),
    }));
}
