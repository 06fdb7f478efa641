// The console's catalog index: one entry per CatalogSource, read from its registry gRPC API
// (ListBundles gives the whole graph), shared by every user and served to a person only for the
// catalogs whose namespace they may list PackageManifests in (SelfSubjectAccessReview).
import { status } from '@grpc/grpc-js';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { Catalog } from '../olm/fbc/catalog';
import type { PackageModel } from '../olm/fbc/model';
import { catalogFromRegistry } from '../olm/fbc/from-registry';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import type { ResourceType } from '../olm/resources/common';
import type { CatalogInfo } from '../hub/package-summary';
import { csvOfBundle, type CsvLike } from '../olm/resources/csv-description';
import { summarizeManifest, summarizePackage, summaryHead, type PackageSummary } from './package-summary';
import { PACKAGE_MANIFEST_TYPE, type PackageManifest } from '../olm/resources/package-manifest';
import { catalogReadDuration, catalogReads, reportCatalogIndexTotals } from '../observability/metrics';
import type { CatalogIndexTotals } from '../observability/metrics';
import { logger } from '../observability/logger';
import { bundleMessageChars, parseCsvCapped, slimListedBundle } from './bundle-caps';
import { keepHeadMetadataOnly } from './head-metadata';
import { MAX_REGISTRY_MESSAGE_BYTES, RegistryClient, RegistryError } from './registry-client';
import { identityOf, RegistryRoutes, type RegistryRoute } from './registry-route';

const SSAR: ResourceType = {
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'selfsubjectaccessreviews',
  namespaced: false,
  kind: 'SelfSubjectAccessReview',
};
const FRESH_MS = 60_000;
// A re-read costs the console what the first read did (a 1,000-package catalog: seconds of CPU
// for hundreds of megabytes); background re-reads are spaced so they take at most ~2.5% of it.
const REREAD_COST_SHARE = 40;
/**
 * After a failed read, how long before the same person's requests read that catalog again:
 * 5 s, doubling with each failure in a row, at most 5 minutes. A failed read is not free (a
 * registry that accepts connections and then fails a 10 MB message costs what a good read does,
 * 25 times a request served from the index), and until the pause is over the last good index,
 * or packageserver's PackageManifests, are served. New content (the CatalogSource's
 * connection, pod or image poll changes) is read at once, pause or not.
 */
export const FAILED_READ_BACKOFF = { firstMs: 5_000, maxMs: 5 * 60_000 };

/** Where catalogs every namespace can use live (upstream OLM, OpenShift). */
export const GLOBAL_CATALOG_NAMESPACES = ['olm', 'openshift-marketplace'];

export type IndexedCatalog = CatalogInfo;

interface Entry {
  key: string;
  /** What the CatalogSource reports; a different one means different content. */
  address: string;
  /** How the last read reached the registry. */
  route?: RegistryRoute;
  version: string;
  /** When `catalog` was read; without one, when the last read ended. */
  fetchedAt: number;
  /** How long this read counts as fresh: a minute, longer for catalogs that are slow to read. */
  freshForMs: number;
  catalog?: Catalog;
  /** Bytes of registry messages in the read of `catalog`. */
  bytes?: number;
  summaries: PackageSummary[];
  /** Why the last read failed; with `catalog`, what is served is the read of `fetchedAt`. */
  problem?: string;
}

/** A person's failed reads of one catalog in a row, and when they may read it again. */
interface Backoff {
  version: string;
  failures: number;
  retryAt: number;
  /** The packages packageserver listed for this person meanwhile (kept until `retryAt`). */
  manifests?: PackageSummary[];
}

/** What a stale entry's problem says: which read is served, and why there is no newer one. */
function staleProblem(e: Entry): string {
  return `the last read of its registry failed, so the packages read at ${new Date(e.fetchedAt).toISOString()} are shown: ${e.problem}`;
}

export interface PackageRef {
  namespace: string;
  catalog: string;
  package: string;
}

/** Where a package's content comes from for this person. */
export type PackageLookup =
  | { source: 'registry'; catalog: PackageSummary['catalog']; pkg: PackageModel; address: string }
  | { source: 'packagemanifests'; manifest: PackageManifest };

export interface IconBytes {
  data: Buffer;
  mediatype: string;
}

const MAX_CACHED_CSVS = 300;
/**
 * And at most this many characters of them: descriptions are capped (bundle-caps.ts), but a CSV
 * also carries its icon, examples and CRD descriptions. The largest CSV in ../shared/catalogs is
 * 0.5 MB, most are under 50 KB.
 */
const MAX_CACHED_CSV_CHARS = 64 * 1024 * 1024;

export interface CatalogIndexOptions {
  /** The largest registry message accepted (tests lower it). */
  maxMessageBytes?: number;
}

/** One per console process: catalog content is the same for everyone. */
export class CatalogIndex {
  private readonly entries = new Map<string, Entry>();

  /**
   * The index counted, for /metrics: catalogs read, served stale (the last read failed, an earlier
   * one is served) and unreadable (nothing to serve), with the packages and bytes served. Counts
   * only: the index is everyone's, and which catalog has a problem is told as the person who may
   * see it (forUser, the Catalogs page), never to whoever reaches an operational endpoint.
   */
  health(): CatalogIndexTotals {
    const t: CatalogIndexTotals = { read: 0, stale: 0, unreadable: 0, packages: 0, bytes: 0 };
    for (const e of this.entries.values()) {
      if (!e.problem) t.read++;
      else if (e.catalog) t.stale++;
      else t.unreadable++;
      t.packages += e.catalog?.packages.size ?? 0;
      if (e.catalog) t.bytes += e.bytes ?? 0;
    }
    return t;
  }
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** Per catalog and person (`key|identity`): a failed read may have failed for that person only. */
  private readonly backoffs = new Map<string, Backoff>();
  // Full CSVs (GetBundle) and icons are fetched on demand and kept, bounded: they are what a
  // details page and the tiles need, and the registry serves them one bundle at a time.
  private readonly csvs = new Map<string, Record<string, unknown> | null>();
  private readonly csvChars = new Map<string, number>();
  private csvCharsTotal = 0;
  private readonly icons = new Map<string, IconBytes | null>();

  private readonly routes: RegistryRoutes;
  private readonly maxMessageBytes: number;

  constructor(
    private readonly now: () => number = Date.now,
    opts: CatalogIndexOptions = {},
  ) {
    this.routes = new RegistryRoutes(now);
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_REGISTRY_MESSAGE_BYTES;
  }

  /** Whether a read of the catalog `namespace/name` is under way. */
  reading(key: string): boolean {
    return this.inflight.has(key);
  }

  /** The way to this catalog's registry for this person, or why there is none. */
  private routeFor(client: KubeClient, cs: CatalogSource): () => Promise<RegistryRoute> {
    return () => this.routes.route(client, cs);
  }

  /**
   * The catalog's content. `version` is what the CatalogSource says about its content (the last
   * connection to its registry, which changes when OLM rolls a new catalog pod): a new version
   * is read at once; within a version, content older than a minute (40 times the read's own
   * duration, for catalogs slower to read than 1.5 s) is served while a re-read runs in the
   * background, so no request waits on a big catalog twice. After a failed read, the same
   * person's requests do not read again until their backoff is over (FAILED_READ_BACKOFF); the
   * last good content, if any, is served meanwhile, marked with the problem.
   */
  private async read(
    key: string,
    address: string,
    version: string,
    ref: PackageSummary['catalog'],
    route: () => Promise<RegistryRoute>,
    who: string,
  ): Promise<Entry> {
    const cached = this.entries.get(key);
    const same = cached && cached.address === address && cached.version === version;
    if (same && !cached.problem && this.now() - cached.fetchedAt < cached.freshForMs) return cached;
    // A failed read is not kept as fresh for everyone: it may have failed for this person only (a
    // port-forward they may not open), and the next person may get through. The person it
    // failed for waits out their backoff.
    if (same && cached.problem && this.activeBackoff(key, who, version)) return cached;
    if (same && cached.catalog) {
      void this.fetch(key, address, version, ref, route, who).catch(() => undefined);
      return cached;
    }
    return this.fetch(key, address, version, ref, route, who);
  }

  /** This person's backoff for this catalog's content, while it lasts. */
  private activeBackoff(key: string, who: string, version: string): Backoff | undefined {
    const b = this.backoffs.get(`${key}|${who}`);
    return b && b.version === version && this.now() < b.retryAt ? b : undefined;
  }

  private failed(key: string, who: string, version: string): void {
    const bk = `${key}|${who}`;
    const prev = this.backoffs.get(bk);
    const failures = prev && prev.version === version ? prev.failures + 1 : 1;
    const pause = Math.min(FAILED_READ_BACKOFF.firstMs * 2 ** (failures - 1), FAILED_READ_BACKOFF.maxMs);
    this.backoffs.set(bk, { version, failures, retryAt: this.now() + pause });
  }

  private forgetBackoffs(key: string): void {
    for (const bk of this.backoffs.keys()) if (bk.startsWith(`${key}|`)) this.backoffs.delete(bk);
  }

  private fetch(
    key: string,
    address: string,
    version: string,
    ref: PackageSummary['catalog'],
    route: () => Promise<RegistryRoute>,
    who: string,
  ): Promise<Entry> {
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const job = (async () => {
      let client: RegistryClient | undefined;
      const started = performance.now();
      try {
        const way = await route();
        client = new RegistryClient(way.dial, 20_000, this.maxMessageBytes);
        const names = await client.listPackages();
        const packages = await Promise.all(names.map((n) => client!.getPackage(n)));
        // Each message is slimmed as it arrives: its manifests (a catalog of inline bundles sends
        // every CSV and CRD, tens of megabytes) are never all held at once.
        let bytes = 0;
        const bundles = await client.listBundles((b) => {
          bytes += bundleMessageChars(b);
          return slimListedBundle(b);
        });
        keepHeadMetadataOnly(packages, bundles);
        const catalog = catalogFromRegistry(packages, bundles);
        const heads = await this.headCsvs(client, way.dial, catalog);
        const summaries = [...catalog.packages.values()].map((p) => summarizePackage(p, ref, heads.get(p.name)));
        const freshForMs = Math.max(FRESH_MS, (performance.now() - started) * REREAD_COST_SHARE);
        catalogReads.inc({ outcome: 'ok' });
        catalogReadDuration.observe((performance.now() - started) / 1000);
        const fetchedAt = this.now();
        const entry: Entry = { key, address, route: way, version, fetchedAt, freshForMs, catalog, bytes, summaries };
        this.entries.set(key, entry);
        this.forgetBackoffs(key);
        return entry;
      } catch (err) {
        catalogReads.inc({ outcome: 'failed' });
        this.failed(key, who, version);
        // Keep what was read before (and when), and say why it is not fresh.
        const cached = this.entries.get(key);
        const entry: Entry = {
          key,
          address,
          route: cached?.route,
          version,
          fetchedAt: cached?.catalog ? cached.fetchedAt : this.now(),
          freshForMs: FRESH_MS,
          catalog: cached?.catalog,
          bytes: cached?.bytes,
          summaries: cached?.summaries ?? [],
          problem: (err as Error).message,
        };
        this.entries.set(key, entry);
        return entry;
      } finally {
        client?.close();
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, job);
    return job;
  }

  /**
   * The CSVs of the tiles' heads that ListBundles did not carry (a bundle whose CSV is only in
   * `olm.bundle.object`, which the registry strips from properties), one GetBundleForChannel
   * each, a few at a time; kept as the full CSVs the details pages ask for next. One head that
   * cannot be had (over the message limit, not JSON, not found) leaves its tile described from
   * the package alone; the registry failing altogether fails the read.
   */
  private async headCsvs(client: RegistryClient, dial: string, catalog: Catalog): Promise<Map<string, CsvLike>> {
    const missing: { pkg: string; channel: string; csvName: string }[] = [];
    for (const pkg of catalog.packages.values()) {
      const { channel, head } = summaryHead(pkg);
      if (channel && head && !csvOfBundle(head)) missing.push({ pkg: pkg.name, channel, csvName: head.name });
    }
    const out = new Map<string, CsvLike>();
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const m = missing[next++]!;
        let b;
        try {
          b = await client.getBundleForChannel(m.pkg, m.channel);
        } catch (err) {
          if (!(err instanceof RegistryError) || !ONE_BUNDLE_FAILURES.has(err.code)) throw err;
          logger().warn(
            { registry: dial, package: m.pkg, channel: m.channel, err: err.message },
            'catalog index: a channel head could not be read; its tile is described from the package',
          );
          continue;
        }
        const parsed = b.csvJson ? parseCsvCapped(b.csvJson) : undefined;
        if (!parsed) continue;
        this.rememberCsv(`${dial}|${m.pkg}|${m.channel}|${m.csvName}`, parsed.csv, parsed.chars);
        out.set(m.pkg, parsed.csv as CsvLike);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, missing.length) }, worker));
    return out;
  }

  /** Forgets catalogs that are gone, so a deleted CatalogSource leaves the index. */
  private forget(present: ReadonlySet<string>, covered: 'all' | ReadonlySet<string>): void {
    for (const key of this.entries.keys()) {
      const ns = key.slice(0, key.indexOf('/'));
      if ((covered === 'all' || covered.has(ns)) && !present.has(key)) {
        this.entries.delete(key);
        this.forgetBackoffs(key);
      }
    }
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
          ? await this.read(
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
        };
      }
    }
    for (const ns of new Set([ref.namespace, ...viewerNamespaces])) {
      let pm: PackageManifest;
      try {
        pm = await client.get<PackageManifest>(PACKAGE_MANIFEST_TYPE, ref.package, ns);
      } catch (err) {
        if (isKubeError(err, 403) || isKubeError(err, 404)) continue;
        throw err;
      }
      if (pm.status?.catalogSource !== ref.catalog || pm.status.catalogSourceNamespace !== ref.namespace) continue;
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
        };
      return { source: 'packagemanifests', manifest: pm };
    }
    return undefined;
  }

  private remember<V>(cache: Map<string, V>, key: string, value: V): V {
    cache.set(key, value);
    if (cache.size > MAX_CACHED_CSVS) cache.delete(cache.keys().next().value!);
    return value;
  }

  /** Keeps a CSV (capped already) of about `chars` characters; the oldest go past either bound. */
  private rememberCsv(key: string, csv: Record<string, unknown> | null, chars: number): Record<string, unknown> | null {
    this.csvCharsTotal -= this.csvChars.get(key) ?? 0;
    this.csvs.delete(key);
    this.csvs.set(key, csv);
    this.csvChars.set(key, chars);
    this.csvCharsTotal += chars;
    while (this.csvs.size > 1 && (this.csvs.size > MAX_CACHED_CSVS || this.csvCharsTotal > MAX_CACHED_CSV_CHARS)) {
      const oldest = this.csvs.keys().next().value!;
      this.csvs.delete(oldest);
      this.csvCharsTotal -= this.csvChars.get(oldest) ?? 0;
      this.csvChars.delete(oldest);
    }
    return csv;
  }

  /**
   * The bundle's whole CSV (GetBundle gives csvJson; ListBundles leaves it out), its
   * descriptions capped (bundle-caps.ts), or undefined.
   */
  async fullCsv(
    address: string,
    pkg: string,
    channel: string,
    csvName: string,
  ): Promise<Record<string, unknown> | undefined> {
    const key = `${address}|${pkg}|${channel}|${csvName}`;
    if (this.csvs.has(key)) return this.csvs.get(key) ?? undefined;
    if (!address) return undefined;
    const client = new RegistryClient(address, 10_000, this.maxMessageBytes);
    try {
      const b = await client.getBundle(pkg, channel, csvName);
      const parsed = b.csvJson ? parseCsvCapped(b.csvJson) : undefined;
      return this.rememberCsv(key, parsed?.csv ?? null, parsed?.chars ?? 0) ?? undefined;
    } catch {
      // The list's metadata still describes the version; a failed fetch is not remembered.
      return undefined;
    } finally {
      client.close();
    }
  }

  /**
   * The manifests a bundle ships, from GetBundle's objects (not cached: asked for once per
   * rollback or scoped-install plan), or why they are not known: a bundle served as an image
   * carries no objects until OLM unpacks it.
   */
  async bundleObjects(
    address: string,
    pkg: string,
    channel: string,
    csvName: string,
  ): Promise<Record<string, unknown>[] | string> {
    if (!address) return 'the catalog is not reachable through its registry';
    const client = new RegistryClient(address, 10_000, this.maxMessageBytes);
    try {
      const b = await client.getBundle(pkg, channel, csvName);
      const objects = (b.object ?? []).flatMap((o) => {
        try {
          return [JSON.parse(o) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
      if (!objects.length)
        return `its bundle is the image ${b.bundlePath || 'of the catalog'}, whose manifests OLM reads only when it installs it`;
      return objects;
    } catch (err) {
      return `the catalog's registry did not answer: ${(err as Error).message}`;
    } finally {
      client.close();
    }
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

  /** The package icon: the default channel head's CSV icon, from the registry or packageserver. */
  async icon(client: KubeClient, lookup: PackageLookup): Promise<IconBytes | undefined> {
    if (lookup.source === 'packagemanifests') {
      const pm = lookup.manifest;
      const r = await client.getBytes(PACKAGE_MANIFEST_TYPE, pm.metadata?.name ?? '', pm.metadata?.namespace, 'icon');
      return r.body.length ? { data: r.body, mediatype: r.contentType.split(';')[0]!.trim() } : undefined;
    }
    const { pkg, address } = lookup;
    const key = `${address}|${pkg.name}`;
    if (this.icons.has(key)) return this.icons.get(key) ?? undefined;
    if (pkg.icon)
      return (
        this.remember<IconBytes | null>(this.icons, key, {
          data: Buffer.from(pkg.icon.base64data, 'base64'),
          mediatype: pkg.icon.mediatype,
        }) ?? undefined
      );
    if (!address) return undefined;
    const registry = new RegistryClient(address, 10_000, this.maxMessageBytes);
    try {
      const channel = pkg.defaultChannel ?? [...pkg.channels.keys()][0] ?? '';
      const b = await registry.getBundleForChannel(pkg.name, channel);
      const csv = b.csvJson
        ? (JSON.parse(b.csvJson) as { spec?: { icon?: { base64data?: unknown; mediatype?: unknown }[] } })
        : undefined;
      const first = Array.isArray(csv?.spec?.icon) ? csv.spec.icon[0] : undefined;
      const icon =
        typeof first?.base64data === 'string' && first.base64data && typeof first.mediatype === 'string'
          ? { data: Buffer.from(first.base64data, 'base64'), mediatype: first.mediatype }
          : null;
      return this.remember(this.icons, key, icon) ?? undefined;
    } finally {
      registry.close();
    }
  }

  /** The catalog model behind an indexed CatalogSource, if it has been read. */
  catalogOf(namespace: string, name: string): Catalog | undefined {
    return this.entries.get(`${namespace}/${name}`)?.catalog;
  }

  /**
   * The catalogs this person may see, and their package summaries. CatalogSources are listed as
   * the person; namespaces they cannot list are skipped, not errors.
   */
  /**
   * `contentKey` names what was served (each catalog and the read it came from); it is absent
   * when a catalog came from PackageManifests, which are read anew each time.
   */
  async forUser(
    client: KubeClient,
    namespaces: readonly string[],
  ): Promise<{ catalogs: IndexedCatalog[]; packages: PackageSummary[]; contentKey?: string }> {
    const { items: sources, covered } = await visibleCatalogSources(client, namespaces);
    this.forget(new Set(sources.map((cs) => `${cs.metadata?.namespace ?? ''}/${cs.metadata?.name ?? ''}`)), covered);
    const catalogs: IndexedCatalog[] = [];
    const packages: PackageSummary[] = [];
    const allowed = new Map<string, boolean>();
    const stamps: string[] = [];
    let cacheable = true;
    const who = identityOf(client);
    for (const cs of sources) {
      const ns = cs.metadata?.namespace ?? '';
      const name = cs.metadata?.name ?? '';
      if (!allowed.has(ns)) allowed.set(ns, await mayListPackages(client, ns));
      if (!allowed.get(ns)) continue;
      const state = cs.status?.connectionState?.lastObservedState ?? 'UNKNOWN';
      const address = cs.status?.connectionState?.address || cs.spec.address || '';
      const base = {
        name,
        namespace: ns,
        displayName: cs.spec.displayName || name,
        publisher: cs.spec.publisher ?? '',
        state,
      };
      if (state !== 'READY' || !address) {
        catalogs.push({
          ...base,
          problem: state === 'READY' ? 'the CatalogSource reports no registry address' : `the catalog is ${state}`,
          packages: 0,
        });
        stamps.push(`${ns}/${name}:${state}`);
        continue;
      }
      const entry = await this.read(
        `${ns}/${name}`,
        address,
        contentVersion(cs),
        { name, namespace: ns, displayName: base.displayName },
        this.routeFor(client, cs),
        who,
      );
      if (!entry.catalog) {
        // The registry could not be read (for this person): packageserver still lists the
        // packages, without their edges. Within the person's backoff the list is kept with it:
        // a catalog's PackageManifests can weigh as much as its registry read.
        const backoff = this.activeBackoff(`${ns}/${name}`, who, contentVersion(cs));
        const summaries =
          backoff?.manifests ?? (await catalogManifests(client, ns, name)).map((pm) => summarizeManifest(pm));
        if (backoff) backoff.manifests = summaries;
        if (summaries.length > 0) {
          catalogs.push({
            ...base,
            source: 'packagemanifests',
            problem: `read through PackageManifests, without upgrade edges: ${entry.problem ?? 'the registry could not be read'}`,
            packages: summaries.length,
          });
          cacheable = false;
          packages.push(...summaries);
          continue;
        }
      }
      const stale =
        entry.catalog && entry.problem
          ? { problem: staleProblem(entry), staleSince: new Date(entry.fetchedAt).toISOString() }
          : entry.problem
            ? { problem: entry.problem }
            : {};
      catalogs.push({
        ...base,
        ...(entry.catalog ? { source: 'registry' as const } : {}),
        ...stale,
        packages: entry.summaries.length,
      });
      stamps.push(`${ns}/${name}:${entry.fetchedAt}:${entry.problem ?? ''}:${base.displayName}`);
      packages.push(...entry.summaries);
    }
    // Catalogs the person cannot read as CatalogSources but sees through packageserver (global
    // catalogs appear in every namespace): from the shared index when it has them, else from
    // the PackageManifests themselves.
    const seen = new Set(catalogs.map((c) => `${c.namespace}/${c.name}`));
    // A person who listed the CatalogSources of every namespace asked about already knows every
    // catalog packageserver could show them there: skip the (large) PackageManifest lists.
    const allKnown = covered === 'all' || namespaces.every((ns) => covered.has(ns));
    for (const ns of allKnown ? [] : new Set(namespaces)) {
      if (allowed.get(ns) === false) continue;
      if (!allowed.has(ns)) allowed.set(ns, await mayListPackages(client, ns));
      if (!allowed.get(ns)) continue;
      let manifests: PackageManifest[];
      try {
        manifests = (await client.listAll<PackageManifest>(PACKAGE_MANIFEST_TYPE, { namespace: ns })).items;
      } catch (err) {
        if (isKubeError(err, 403) || isKubeError(err, 404)) continue;
        throw err;
      }
      const byCatalog = new Map<string, PackageManifest[]>();
      for (const pm of manifests) {
        const key = `${pm.status.catalogSourceNamespace}/${pm.status.catalogSource}`;
        if (!seen.has(key)) byCatalog.set(key, [...(byCatalog.get(key) ?? []), pm]);
      }
      for (const [key, pms] of byCatalog) {
        seen.add(key);
        const first = pms[0]!.status;
        const base = {
          name: first.catalogSource,
          namespace: first.catalogSourceNamespace,
          displayName: first.catalogSourceDisplayName || first.catalogSource,
          publisher: first.catalogSourcePublisher ?? '',
          state: 'READY',
        };
        const cached = this.entries.get(key);
        if (cached?.catalog && !cached.problem && this.now() - cached.fetchedAt < cached.freshForMs) {
          catalogs.push({ ...base, source: 'registry', packages: cached.summaries.length });
          stamps.push(`${key}:${cached.fetchedAt}`);
          packages.push(...cached.summaries);
        } else {
          const summaries = pms.map((pm) => summarizeManifest(pm));
          catalogs.push({ ...base, source: 'packagemanifests', packages: summaries.length });
          cacheable = false;
          packages.push(...summaries);
        }
      }
    }
    return { catalogs, packages, ...(cacheable ? { contentKey: stamps.join('|') } : {}) };
  }
}

/** One catalog's PackageManifests in its namespace, if the person may list them. */
async function catalogManifests(client: KubeClient, namespace: string, catalog: string): Promise<PackageManifest[]> {
  try {
    const { items } = await client.listAll<PackageManifest>(PACKAGE_MANIFEST_TYPE, {
      namespace,
      labelSelector: `catalog=${catalog}`,
    });
    return items.filter((pm) => pm.status?.catalogSource === catalog && pm.status.catalogSourceNamespace === namespace);
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return [];
    throw err;
  }
}

/** What changes when a catalog's content may have: a new connection, pod, or image poll. */
function contentVersion(cs: CatalogSource): string {
  const st = cs.status;
  return [st?.connectionState?.lastConnect, st?.registryService?.createdAt, st?.latestImageRegistryPoll]
    .map((v) => v ?? '')
    .join('|');
}

/** The CatalogSources this person may list, and the namespaces that list covers ('all'). */
export async function visibleCatalogSources(
  client: KubeClient,
  namespaces: readonly string[],
): Promise<{ items: CatalogSource[]; covered: 'all' | Set<string> }> {
  try {
    return { items: (await client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE)).items, covered: 'all' };
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
  }
  const items: CatalogSource[] = [];
  const covered = new Set<string>();
  for (const ns of new Set(namespaces)) {
    try {
      items.push(...(await client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE, { namespace: ns })).items);
      covered.add(ns);
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
    }
  }
  return { items, covered };
}

async function mayListPackages(client: KubeClient, namespace: string): Promise<boolean> {
  const r = await client.create<{ apiVersion?: string; kind?: string; spec?: unknown; status?: { allowed?: boolean } }>(
    SSAR,
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          verb: 'list',
          group: 'packages.operators.coreos.com',
          resource: 'packagemanifests',
          namespace,
        },
      },
    },
  );
  return r.status?.allowed === true;
}

/**
 * Failures of one GetBundleForChannel that say nothing about the rest of the catalog: the bundle
 * is over the message limit (RESOURCE_EXHAUSTED), or the registry could not make it (UNKNOWN,
 * INTERNAL: not found, no single head, a broken CSV).
 */
const ONE_BUNDLE_FAILURES = new Set<number>([status.RESOURCE_EXHAUSTED, status.UNKNOWN, status.INTERNAL]);

const GLOBAL_KEY = Symbol.for('olm-console.catalog-index');

/** The process's index: one for every route (Next may load a module once per route bundle). */
export function sharedCatalogIndex(): CatalogIndex {
  const g = globalThis as { [GLOBAL_KEY]?: CatalogIndex };
  if (!g[GLOBAL_KEY]) {
    const index = new CatalogIndex();
    g[GLOBAL_KEY] = index;
    // Only this one is counted in /metrics: an index made elsewhere (tests) serves nobody.
    reportCatalogIndexTotals(() => index.health());
  }
  return g[GLOBAL_KEY];
}
