// The console's catalog index: one entry per CatalogSource, read from its registry gRPC API
// (ListBundles gives the whole graph), shared by every user and served to a person only for the
// catalogs whose namespace they may list PackageManifests in (SelfSubjectAccessReview). This file
// keeps the entries and decides what each person is served; reading is registry-read.ts, the
// bundle caches bundle-cache.ts, failed-read pauses read-backoff.ts, who may see what
// catalog-visibility.ts.
import type { KubeClient } from '../k8s/client';
import type { Catalog } from '../olm/fbc/catalog';
import type { PackageModel } from '../olm/fbc/model';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { isKubeError } from '../k8s/errors';
import type { CatalogInfo } from '../hub/package-summary';
import { summarizeManifest, type PackageSummary } from './package-summary';
import { PACKAGE_MANIFEST_TYPE, type PackageManifest } from '../olm/resources/package-manifest';
import { reportCatalogIndexTotals } from '../observability/metrics';
import type { CatalogIndexTotals } from '../observability/metrics';
import { logger } from '../observability/logger';
import { MAX_REGISTRY_MESSAGE_BYTES } from './registry-client';
import { identityOf, RegistryRoutes, type RegistryRoute } from './registry-route';
import { CsvCache, IconCache } from './bundle-cache';
import { CatalogEntries, contentVersion, staleProblem } from './catalog-entries';
import type { SharedSnapshots } from './shared-snapshots';
import { fetchBundleObjects, fetchFullCsv, fetchHeadIcon, type IconBytes } from './registry-read';
import {
  catalogManifests,
  manifestsByCatalog,
  mayListPackages,
  visibleCatalogSources,
  visibleManifest,
} from './catalog-visibility';

export { FAILED_READ_BACKOFF } from './read-backoff';
export { GLOBAL_CATALOG_NAMESPACES, visibleCatalogSources } from './catalog-visibility';
export type { IconBytes } from './registry-read';

export type IndexedCatalog = CatalogInfo;

export interface PackageRef {
  namespace: string;
  catalog: string;
  package: string;
}

/** Where a package's content comes from for this person. */
export type PackageLookup =
  | {
      source: 'registry';
      catalog: PackageSummary['catalog'];
      pkg: PackageModel;
      /** Where to read its bundles for this person ('' when there is no way), and what they are cached under. */
      address: string;
      cacheKey: string;
    }
  | { source: 'packagemanifests'; manifest: PackageManifest };

export interface CatalogIndexOptions {
  /** The largest registry message accepted (tests lower it). */
  maxMessageBytes?: number;
  /** Where catalog snapshots are kept across restarts (index-snapshot.ts); none without it. */
  snapshotDir?: string;
  /**
   * Whether an address a CatalogSource reports may be dialed from the console at all (before the
   * trusted-namespace rule); an index for another cluster of the fleet narrows it (lib/server/fleet/
   * catalog-indexes.ts), since that cluster's addresses mean something else from the console's network.
   */
  mayDial?: (address: string) => boolean;
}

/** What forUser answers: the catalogs a person sees and their packages. */
export interface UserCatalogs {
  catalogs: IndexedCatalog[];
  packages: PackageSummary[];
  /**
   * Names what was served (each catalog and the read it came from); absent when a catalog came
   * from PackageManifests, which are read anew each time.
   */
  contentKey?: string;
}

/** What forUser gathers, catalog by catalog. */
interface Gathered {
  catalogs: IndexedCatalog[];
  packages: PackageSummary[];
  stamps: string[];
  cacheable: boolean;
}

/** One per console process: catalog content is the same for everyone. */
export class CatalogIndex {
  private readonly entries: CatalogEntries;
  // Full CSVs (GetBundle) and icons are fetched on demand and kept, bounded: they are what a
  // details page and the tiles need, and the registry serves them one bundle at a time.
  private readonly csvs = new CsvCache();
  private readonly icons = new IconCache();
  private readonly routes: RegistryRoutes;
  private readonly maxMessageBytes: number;

  constructor(now: () => number = Date.now, opts: CatalogIndexOptions = {}) {
    this.routes = new RegistryRoutes(now, undefined, opts.mayDial);
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_REGISTRY_MESSAGE_BYTES;
    this.entries = new CatalogEntries(
      now,
      this.maxMessageBytes,
      (k, csv, chars) => this.csvs.remember(k, csv, chars),
      opts.snapshotDir,
    );
  }

  /** The index counted, for /metrics (CatalogEntries.health). */
  health(): CatalogIndexTotals {
    return this.entries.health();
  }

  /** Whether a read of the catalog `namespace/name` is under way. */
  reading(key: string): boolean {
    return this.entries.reading(key);
  }

  /** Resolves when the snapshots, if any, are loaded (the first read waits for them anyway). */
  ready(): Promise<void> {
    return this.entries.ready();
  }

  /** Resolves when every snapshot, the shared ones included, is loaded, however long it takes. */
  loaded(): Promise<void> {
    return this.entries.loaded();
  }

  /** Shares reads with the other replicas through `shared` (shared-snapshots.ts); see CatalogEntries.share. */
  shareSnapshots(shared: SharedSnapshots): void {
    this.entries.share(shared);
  }

  /** Waits, at most `maxMs`, for the snapshots being written; true when none is left. */
  writesSettled(maxMs: number): Promise<boolean> {
    return this.entries.writesSettled(maxMs);
  }

  /**
   * Closes its registry connections (port-forwards) and their sweeper, for an index that is being
   * dropped (another cluster's, lib/server/fleet/catalog-indexes.ts); the shared index is never closed.
   */
  close(): Promise<void> {
    return this.routes.close();
  }

  /**
   * Lets go of its registry connections once the reads under way on them are over, for an index
   * being dropped while a person may still be reading through it (RegistryRoutes.retire).
   */
  retire(): Promise<void> {
    return this.routes.retire();
  }

  /** The way to this catalog's registry for this person, or why there is none. */
  private routeFor(client: KubeClient, cs: CatalogSource): () => Promise<RegistryRoute> {
    return () => this.routes.route(client, cs);
  }

  /**
   * A package of a catalog, if this person may see it: through the CatalogSource (read from its
   * registry), else through a PackageManifest in the catalog's namespace or one of theirs
   * (global catalogs show in every namespace). Undefined when it is not there or not visible.
   */
  async lookupPackage(
    client: KubeClient,
    ref: PackageRef,
    viewerNamespaces: readonly string[],
  ): Promise<PackageLookup | undefined> {
    const key = `${ref.namespace}/${ref.catalog}`;
    let cs: CatalogSource | undefined;
    try {
      cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, ref.catalog, ref.namespace);
    } catch (err) {
      if (!isKubeError(err, 403) && !isKubeError(err, 404)) throw err;
    }
    if (cs && (await mayListPackages(client, ref.namespace))) {
      const displayName = cs.spec.displayName || ref.catalog;
      const address = cs.status?.connectionState?.address || cs.spec.address || '';
      const ready = cs.status?.connectionState?.lastObservedState === 'READY';
      const entry =
        ready && address
          ? await this.entries.read(
              key,
              address,
              contentVersion(cs),
              { name: ref.catalog, namespace: ref.namespace, displayName },
              this.routeFor(client, cs),
              identityOf(client),
            )
          : this.entries.get(key);
      if (entry?.catalog) {
        const pkg = entry.catalog.packages.get(ref.package);
        if (!pkg) return undefined;
        // Bundles fetched one by one later (full CSV, icon) go this person's way to the registry.
        const way = await this.routes.route(client, cs).catch(() => undefined);
        return {
          source: 'registry',
          catalog: { name: ref.catalog, namespace: ref.namespace, displayName },
          pkg,
          address: way?.dial ?? '',
          cacheKey: way?.cacheKey ?? '',
        };
      }
    }
    for (const ns of new Set([ref.namespace, ...viewerNamespaces])) {
      const pm = await visibleManifest(client, ref.package, ns, ref.namespace, ref.catalog);
      if (!pm) continue;
      // The person sees this catalog's package: the shared copy of the registry, if any, has
      // its edges.
      const pkg = this.entries.get(key)?.catalog?.packages.get(ref.package);
      // Only a registry anyone can dial is handed on: a port-forward is someone else's identity.
      const route = this.entries.get(key)?.route;
      if (pkg)
        return {
          source: 'registry',
          catalog: { name: ref.catalog, namespace: ref.namespace, displayName: pm.status.catalogSourceDisplayName },
          pkg,
          address: route?.via === 'direct' ? route.dial : '',
          cacheKey: route?.via === 'direct' ? route.cacheKey : '',
        };
      return { source: 'packagemanifests', manifest: pm };
    }
    return undefined;
  }

  /**
   * The bundle's whole CSV (GetBundle gives csvJson; ListBundles leaves it out), its
   * descriptions capped (bundle-caps.ts), or undefined. A registry that cannot give it is logged
   * and not remembered: the list's metadata still describes the version, and the next request
   * asks again.
   */
  async fullCsv(
    address: string,
    pkg: string,
    channel: string,
    csvName: string,
    cacheKey = address,
  ): Promise<Record<string, unknown> | undefined> {
    const key = `${cacheKey}|${pkg}|${channel}|${csvName}`;
    if (this.csvs.has(key)) return this.csvs.get(key) ?? undefined;
    if (!address) return undefined;
    try {
      const got = await fetchFullCsv(address, this.maxMessageBytes, pkg, channel, csvName);
      return this.csvs.remember(key, got?.csv ?? null, got?.chars ?? 0) ?? undefined;
    } catch (err) {
      bundleFetchFailed(address, pkg, 'its full CSV', err);
      return undefined;
    }
  }

  /**
   * The manifests a bundle ships (not cached: asked for once per rollback or scoped-install
   * plan), or why they are not known.
   */
  async bundleObjects(
    address: string,
    pkg: string,
    channel: string,
    csvName: string,
  ): Promise<Record<string, unknown>[] | string> {
    if (!address) return 'the catalog is not reachable through its registry';
    return fetchBundleObjects(address, this.maxMessageBytes, pkg, channel, csvName);
  }

  /**
   * The packages of a catalog this index has read, for a caller that has already looked the
   * catalog up as the person (lookupPackage): what OLM's resolver would pick dependencies from.
   */
  packagesOf(namespace: string, name: string): PackageModel[] | undefined {
    const packages = this.entries.get(`${namespace}/${name}`)?.catalog?.packages;
    return packages ? [...packages.values()] : undefined;
  }

  /** The CRDs a bundle ships, or why they are not known. */
  async bundleCrds(
    address: string,
    pkg: string,
    channel: string,
    csvName: string,
  ): Promise<Record<string, unknown>[] | string> {
    const objects = await this.bundleObjects(address, pkg, channel, csvName);
    return typeof objects === 'string' ? objects : objects.filter((o) => o.kind === 'CustomResourceDefinition');
  }

  /**
   * The package icon: the default channel head's CSV icon, from the registry or packageserver.
   * As with fullCsv, a registry that cannot give it is logged and not remembered (the tile shows
   * no icon, the next request asks again); packageserver's errors keep their Kubernetes reason.
   */
  async icon(client: KubeClient, lookup: PackageLookup): Promise<IconBytes | undefined> {
    if (lookup.source === 'packagemanifests') {
      const pm = lookup.manifest;
      const r = await client.getBytes(PACKAGE_MANIFEST_TYPE, pm.metadata?.name ?? '', pm.metadata?.namespace, 'icon');
      return r.body.length ? { data: r.body, mediatype: r.contentType.split(';')[0]!.trim() } : undefined;
    }
    const { pkg, address, catalog } = lookup;
    // By catalog as well as address: catalogs reached without an address of their own all have ''
    // here, and one's package icon must never be served as another's of the same package name.
    const key = `${catalog.namespace}/${catalog.name}|${address}|${pkg.name}`;
    if (this.icons.has(key)) return this.icons.get(key) ?? undefined;
    if (pkg.icon) {
      const data = Buffer.from(pkg.icon.base64data, 'base64');
      return this.icons.remember(key, { data, mediatype: pkg.icon.mediatype }) ?? undefined;
    }
    if (!address) return undefined;
    try {
      return this.icons.remember(key, await fetchHeadIcon(address, this.maxMessageBytes, pkg)) ?? undefined;
    } catch (err) {
      bundleFetchFailed(address, pkg.name, 'its icon', err);
      return undefined;
    }
  }

  /** The catalog model behind an indexed CatalogSource, if it has been read. */
  catalogOf(namespace: string, name: string): Catalog | undefined {
    return this.entries.get(`${namespace}/${name}`)?.catalog;
  }

  /**
   * The catalogs this person may see, and their package summaries: first the CatalogSources they
   * may list (namespaces they cannot list are skipped, not errors), then the catalogs they see only
   * through packageserver.
   */
  async forUser(client: KubeClient, namespaces: readonly string[]): Promise<UserCatalogs> {
    const { items: sources, covered } = await visibleCatalogSources(client, namespaces);
    this.entries.forget(
      new Set(sources.map((cs) => `${cs.metadata?.namespace ?? ''}/${cs.metadata?.name ?? ''}`)),
      covered,
    );
    const out: Gathered = { catalogs: [], packages: [], stamps: [], cacheable: true };
    const who = identityOf(client);
    const namespacesOfSources = [...new Set(sources.map((cs) => cs.metadata?.namespace ?? ''))];
    const allowed = new Map(
      await Promise.all(namespacesOfSources.map(async (ns) => [ns, await mayListPackages(client, ns)] as const)),
    );
    // Catalogs are read at once, not one after another (OpenShift has four by default, each a read
    // of seconds when cold); each into its own part, joined in the list's order.
    const parts = await Promise.all(
      sources.map(async (cs) => {
        const part: Gathered = { catalogs: [], packages: [], stamps: [], cacheable: true };
        if (allowed.get(cs.metadata?.namespace ?? '')) await this.gatherSource(client, cs, who, part);
        return part;
      }),
    );
    for (const part of parts) {
      out.catalogs.push(...part.catalogs);
      out.packages.push(...part.packages);
      out.stamps.push(...part.stamps);
      out.cacheable &&= part.cacheable;
    }
    // A person who listed the CatalogSources of every namespace asked about already knows every
    // catalog packageserver could show them there: skip the (large) PackageManifest lists.
    const allKnown = covered === 'all' || namespaces.every((ns) => covered.has(ns));
    if (!allKnown) await this.gatherManifestsOnly(client, namespaces, allowed, out);
    const { catalogs, packages, stamps, cacheable } = out;
    return { catalogs, packages, ...(cacheable ? { contentKey: stamps.join('|') } : {}) };
  }

  /** One CatalogSource the person may see: from the index, read as them, or packageserver's list. */
  private async gatherSource(client: KubeClient, cs: CatalogSource, who: string, out: Gathered): Promise<void> {
    const ns = cs.metadata?.namespace ?? '';
    const name = cs.metadata?.name ?? '';
    const state = cs.status?.connectionState?.lastObservedState ?? 'UNKNOWN';
    const address = cs.status?.connectionState?.address || cs.spec.address || '';
    const displayName = cs.spec.displayName || name;
    const base = { name, namespace: ns, displayName, publisher: cs.spec.publisher ?? '', state };
    if (state !== 'READY' || !address) {
      const problem = state === 'READY' ? 'the CatalogSource reports no registry address' : `the catalog is ${state}`;
      out.catalogs.push({ ...base, problem, packages: 0 });
      out.stamps.push(`${ns}/${name}:${state}`);
      return;
    }
    const key = `${ns}/${name}`;
    const ref = { name, namespace: ns, displayName };
    const entry = await this.entries.read(key, address, contentVersion(cs), ref, this.routeFor(client, cs), who);
    if (!entry.catalog) {
      // The registry could not be read (for this person): packageserver still lists the
      // packages, without their edges. Within the person's backoff the list is kept with it:
      // a catalog's PackageManifests can weigh as much as its registry read.
      const backoff = this.entries.backoffs.active(key, who, contentVersion(cs));
      const summaries =
        backoff?.manifests ?? (await catalogManifests(client, ns, name)).map((pm) => summarizeManifest(pm));
      if (backoff) backoff.manifests = summaries;
      if (summaries.length > 0) {
        const why = entry.problem ?? 'the registry could not be read';
        const problem = `read through PackageManifests, without upgrade edges: ${why}`;
        out.catalogs.push({ ...base, source: 'packagemanifests', problem, packages: summaries.length });
        out.cacheable = false;
        out.packages.push(...summaries);
        return;
      }
    }
    const stale =
      entry.catalog && entry.problem
        ? { problem: staleProblem(entry), staleSince: new Date(entry.fetchedAt).toISOString() }
        : entry.problem
          ? { problem: entry.problem }
          : {};
    out.catalogs.push({
      ...base,
      ...(entry.catalog ? { source: 'registry' as const } : {}),
      ...stale,
      packages: entry.summaries.length,
    });
    out.stamps.push(`${key}:${entry.fetchedAt}:${entry.problem ?? ''}:${displayName}`);
    out.packages.push(...entry.summaries);
  }

  /**
   * Catalogs the person cannot read as CatalogSources but sees through packageserver (global
   * catalogs appear in every namespace): from the shared index when it has them fresh, else from
   * the PackageManifests themselves.
   */
  private async gatherManifestsOnly(
    client: KubeClient,
    namespaces: readonly string[],
    allowed: Map<string, boolean>,
    out: Gathered,
  ): Promise<void> {
    const seen = new Set(out.catalogs.map((c) => `${c.namespace}/${c.name}`));
    for (const ns of new Set(namespaces)) {
      if (allowed.get(ns) === false) continue;
      if (!allowed.has(ns)) allowed.set(ns, await mayListPackages(client, ns));
      if (!allowed.get(ns)) continue;
      const byCatalog = await manifestsByCatalog(client, ns);
      for (const [key, pms] of byCatalog ?? []) {
        if (seen.has(key)) continue;
        seen.add(key);
        const first = pms[0]!.status;
        const base = {
          name: first.catalogSource,
          namespace: first.catalogSourceNamespace,
          displayName: first.catalogSourceDisplayName || first.catalogSource,
          publisher: first.catalogSourcePublisher ?? '',
          state: 'READY',
        };
        const cached = this.entries.fresh(key);
        if (cached) {
          out.catalogs.push({ ...base, source: 'registry', packages: cached.summaries.length });
          out.stamps.push(`${key}:${cached.fetchedAt}`);
          out.packages.push(...cached.summaries);
        } else {
          const summaries = pms.map((pm) => summarizeManifest(pm));
          out.catalogs.push({ ...base, source: 'packagemanifests', packages: summaries.length });
          out.cacheable = false;
          out.packages.push(...summaries);
        }
      }
    }
  }
}

/** Logs a bundle the registry could not give for a details page or a tile. */
function bundleFetchFailed(address: string, pkg: string, what: string, err: unknown): void {
  logger().warn(
    { registry: address, package: pkg, err: (err as Error).message },
    `catalog index: ${what} could not be read from the registry; shown without it`,
  );
}

// lib/server/http/unfinished-writes.ts finds the index under this symbol too, for a graceful stop.
const GLOBAL_KEY = Symbol.for('olm-console.catalog-index');

/** The process's index: one for every route (Next may load a module once per route bundle). */
export function sharedCatalogIndex(): CatalogIndex {
  const g = globalThis as { [GLOBAL_KEY]?: CatalogIndex };
  if (!g[GLOBAL_KEY]) {
    // Snapshots only where the start says (npm start, the deployment's cache volume): a test or
    // a benchmark that loads a route never leaves files behind.
    const snapshotDir = process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR || undefined;
    const index = new CatalogIndex(Date.now, { snapshotDir });
    g[GLOBAL_KEY] = index;
    // Only this one is counted in /metrics: an index made elsewhere (tests) serves nobody.
    reportCatalogIndexTotals(() => index.health());
  }
  return g[GLOBAL_KEY];
}
