// The index's entries: one per catalog, with when it was read and how long that read counts as
// fresh, one read at a time per catalog, the last good read kept (and marked) when a re-read fails,
// and each person's pause after a failure (read-backoff.ts). What a person is shown of an entry is
// decided by catalog-index.ts, as that person.
import type { Catalog } from '../olm/fbc/catalog';
import type { CatalogSource } from '../olm/resources/catalog-source';
import { catalogReadDuration, catalogReads } from '../observability/metrics';
import type { CatalogIndexTotals } from '../observability/metrics';
import { summarizePackage, type PackageSummary } from './package-summary';
import { ReadBackoffs } from './read-backoff';
import type { RegistryRoute } from './registry-route';
import { readRegistry, type KeepCsv } from './registry-read';
import { logger } from '../observability/logger';
import { decodeSnapshot, encodeSnapshot, loadSnapshots, writeSnapshotFile, type Snapshot } from './index-snapshot';
import { snapshotIdOf, type SharedSnapshots } from './shared-snapshots';
import { trackWrite } from './background-writes';
import { trackLoad } from './snapshot-loads';

const FRESH_MS = 60_000;
// A re-read costs the console what the first read did (a 1,000-package catalog: seconds of CPU
// for hundreds of megabytes); background re-reads are spaced so they take at most ~2.5% of it.
const REREAD_COST_SHARE = 40;
/** How long reads wait for the replicas' shared snapshots at start, and for one looked up later. */
const SHARED_RESTORE_MS = 10_000;
const SHARED_LOOKUP_MS = 5_000;
/** A catalog missing from the shared snapshots is looked up again at most this often. */
const SHARED_LOOKUP_EVERY_MS = 30_000;

/** One catalog as the index holds it: its last read, or why there is none. */
export interface Entry {
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

/** What a stale entry's problem says: which read is served, and why there is no newer one. */
export function staleProblem(e: Entry): string {
  const at = new Date(e.fetchedAt).toISOString();
  return `the last read of its registry failed, so the packages read at ${at} are shown: ${e.problem}`;
}

/** Every catalog's entry, shared by everyone in the process. */
export class CatalogEntries {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** Per catalog and person: a failed read may have failed for that person only. */
  readonly backoffs: ReadBackoffs;
  /**
   * Reads restored from snapshots at start, not yet claimed: one becomes an entry only when a
   * person's CatalogSource shows the same registry address and content version (read()).
   */
  private readonly restored = new Map<string, Snapshot>();
  /** The restore under way; reads wait for it rather than read a registry the snapshot holds. */
  private restoring: Promise<void>;
  /** The same restore without the bound reads give it: over once every snapshot is checked and kept. */
  private loading: Promise<void>;
  /** The snapshots every replica shares (shared-snapshots.ts), once share() is called. */
  private shared?: SharedSnapshots;
  /** When each catalog was last looked up in the shared snapshots without one to restore. */
  private readonly lookedUp = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<void>>();
  /** Snapshots being written (to disk, to the shared carrier): a graceful stop waits for them. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly now: () => number,
    private readonly maxMessageBytes: number,
    /** Where CSVs read along the way are kept for the details pages. */
    private readonly keepCsv: KeepCsv,
    /** Where snapshots are kept (index-snapshot.ts); none without it. */
    private readonly snapshotDir?: string,
  ) {
    this.backoffs = new ReadBackoffs(now);
    this.restoring = snapshotDir ? this.restore(snapshotDir) : Promise.resolve();
    this.loading = this.restoring;
    trackLoad(this.loading);
  }

  /** Loads every snapshot that passes its checks; the restore never fails a read. */
  private async restore(dir: string): Promise<void> {
    try {
      for (const snap of await loadSnapshots(dir)) this.restored.set(snap.key, snap);
    } catch {
      // loadSnapshots logs each file it refuses; an unreadable folder means no snapshot.
    }
  }

  /** Resolves when the snapshots, if any, are loaded. */
  ready(): Promise<void> {
    return this.restoring;
  }

  /**
   * Resolves when every snapshot, the shared ones included, is checked and kept, however long that
   * takes (a read waits at most 10 s for the shared ones): what a replica's warm-up waits for
   * (bounded by its own limit) before it says it is ready.
   */
  loaded(): Promise<void> {
    return this.loading;
  }

  /**
   * Shares reads with the other replicas: restores what they shared (a newer read than the disk's
   * wins), and shares each read from now on. Reads wait for that restore, at most 10 s.
   */
  share(shared: SharedSnapshots): void {
    this.shared = shared;
    const restore = (async () => {
      for (const id of await shared.ids()) await this.restoreShared(id);
    })().catch((err: unknown) => {
      logger().warn({ err: (err as Error).message }, 'shared catalog snapshots: not restored');
    });
    const bounded = Promise.race([restore, new Promise<void>((r) => setTimeout(r, SHARED_RESTORE_MS).unref())]);
    this.restoring = this.restoring.then(() => bounded);
    this.loading = Promise.all([this.loading, restore]).then(() => undefined);
    trackLoad(this.loading);
  }

  /** One shared snapshot, checked as a file is, kept for claiming when newer than what is held. */
  private async restoreShared(id: string): Promise<void> {
    const data = await this.shared?.read(id);
    if (!data) return;
    try {
      const snap = await decodeSnapshot(data);
      if (snapshotIdOf(snap.key) !== id) throw new Error('it is filed under another catalog');
      const held = this.entries.get(snap.key) ?? this.restored.get(snap.key);
      if (!held || held.fetchedAt < snap.fetchedAt) this.restored.set(snap.key, snap);
    } catch (err) {
      logger().warn({ snapshot: id, err: (err as Error).message }, 'shared catalog snapshot: ignored');
    }
  }

  /**
   * Waits for the snapshots being written, at most `maxMs`; true when none is left. A graceful
   * stop calls it, so a console stopped right after a read restarts with that read.
   */
  async writesSettled(maxMs: number): Promise<boolean> {
    if (this.writing.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), maxMs)));
    const done = Promise.allSettled([...this.writing]).then(() => true);
    const settled = await Promise.race([done, timeout]);
    clearTimeout(timer);
    return settled && this.writing.size === 0;
  }

  /** Writes a read's snapshot to disk and to the replicas' carrier; never a request's problem. */
  private saveRead(entry: Entry, config: Parameters<typeof encodeSnapshot>[2]): void {
    const { snapshotDir: dir, shared } = this;
    if (!dir && !shared) return;
    const { key, address, version, fetchedAt, freshForMs, bytes = 0, summaries } = entry;
    const job = (async () => {
      let data: Buffer;
      try {
        const header = { key, address, version, fetchedAt, freshForMs: Math.round(freshForMs), bytes };
        data = await encodeSnapshot(header, summaries, config);
      } catch (err) {
        logger().warn({ catalog: key, err: (err as Error).message }, 'catalog snapshot: not written');
        return;
      }
      if (dir) await writeSnapshotFile(dir, key, data);
      if (shared) await shared.write(key, address, version, data);
    })();
    this.writing.add(job);
    void trackWrite(job).finally(() => this.writing.delete(job));
  }

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

  /** Whether a read of the catalog `namespace/name` is under way. */
  reading(key: string): boolean {
    return this.inflight.has(key);
  }

  /** The entry of the catalog `namespace/name`, whatever its state. */
  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  /** The entry of `namespace/name` if it holds a good read that still counts as fresh. */
  fresh(key: string): Entry | undefined {
    const e = this.entries.get(key);
    return e?.catalog && !e.problem && this.now() - e.fetchedAt < e.freshForMs ? e : undefined;
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
  async read(
    key: string,
    address: string,
    version: string,
    ref: PackageSummary['catalog'],
    route: () => Promise<RegistryRoute>,
    who: string,
  ): Promise<Entry> {
    await this.restoring;
    if (this.shared && !this.entries.has(key) && !this.restored.has(key)) await this.lookUpShared(key);
    const cached = this.entries.get(key) ?? this.claimSnapshot(key, address, version);
    const same = cached && cached.address === address && cached.version === version;
    if (same && !cached.problem && this.now() - cached.fetchedAt < cached.freshForMs) return cached;
    // A failed read is not kept as fresh for everyone: it may have failed for this person only (a
    // port-forward they may not open), and the next person may get through. The person it
    // failed for waits out their backoff.
    if (same && cached.problem && this.backoffs.active(key, who, version)) return cached;
    if (same && cached.catalog) {
      void this.fetch(key, address, version, ref, route, who).catch(() => undefined);
      return cached;
    }
    return this.fetch(key, address, version, ref, route, who);
  }

  /**
   * A catalog nobody here has read, looked up in the shared snapshots (another replica may have
   * read it since this one started), at most every 30 s and 5 s; claimed like any snapshot.
   */
  private lookUpShared(key: string): Promise<void> {
    // Requests arriving together wait for one lookup, rather than each start a registry read.
    const pending = this.lookups.get(key);
    if (pending) return pending;
    const last = this.lookedUp.get(key);
    if (last !== undefined && this.now() - last < SHARED_LOOKUP_EVERY_MS) return Promise.resolve();
    this.lookedUp.set(key, this.now());
    let timer: NodeJS.Timeout | undefined;
    const job = Promise.race([
      this.restoreShared(snapshotIdOf(key)),
      new Promise<void>((r) => (timer = setTimeout(r, SHARED_LOOKUP_MS))),
    ]).finally(() => {
      clearTimeout(timer);
      this.lookups.delete(key);
    });
    this.lookups.set(key, job);
    return job;
  }

  /**
   * The snapshot of this catalog, as an entry, if it holds the content the CatalogSource reports
   * now (same registry address, same content version); a snapshot of other content is dropped.
   * It counts as fresh as the read it holds: an old one is served while a re-read runs. It has no
   * route: the way a registry was reached is never taken from a file.
   */
  private claimSnapshot(key: string, address: string, version: string): Entry | undefined {
    const snap = this.restored.get(key);
    if (!snap) return undefined;
    this.restored.delete(key);
    if (snap.address !== address || snap.version !== version) return undefined;
    const { fetchedAt, freshForMs, catalog, bytes, summaries } = snap;
    const entry: Entry = { key, address, version, fetchedAt, freshForMs, catalog, bytes, summaries };
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Reads the catalog from its registry, once at a time per catalog (callers meanwhile share the
   * read under way). A failure keeps what was read before, marked with the problem, and starts
   * the person's backoff.
   */
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
      const started = performance.now();
      try {
        const way = await route();
        const read = await readRegistry(way.dial, this.maxMessageBytes, this.keepCsv, way.cacheKey);
        const summaries = [...read.catalog.packages.values()].map((p) =>
          summarizePackage(p, ref, read.heads.get(p.name)),
        );
        const freshForMs = Math.max(FRESH_MS, (performance.now() - started) * REREAD_COST_SHARE);
        catalogReads.inc({ outcome: 'ok' });
        catalogReadDuration.observe((performance.now() - started) / 1000);
        const entry: Entry = {
          key,
          address,
          route: way,
          version,
          fetchedAt: this.now(),
          freshForMs,
          catalog: read.catalog,
          bytes: read.bytes,
          summaries,
        };
        this.entries.set(key, entry);
        this.backoffs.forget(key);
        this.saveRead(entry, read.config);
        return entry;
      } catch (err) {
        catalogReads.inc({ outcome: 'failed' });
        this.backoffs.failed(key, who, version);
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
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, job);
    return job;
  }

  /** Forgets catalogs that are gone, so a deleted CatalogSource leaves the index. */
  forget(present: ReadonlySet<string>, covered: 'all' | ReadonlySet<string>): void {
    for (const key of this.restored.keys()) {
      const ns = key.slice(0, key.indexOf('/'));
      if ((covered === 'all' || covered.has(ns)) && !present.has(key)) this.restored.delete(key);
    }
    for (const key of this.entries.keys()) {
      const ns = key.slice(0, key.indexOf('/'));
      if ((covered === 'all' || covered.has(ns)) && !present.has(key)) {
        this.entries.delete(key);
        this.backoffs.forget(key);
      }
    }
  }
}

/** What changes when a catalog's content may have: a new connection, pod, or image poll. */
export function contentVersion(cs: CatalogSource): string {
  const st = cs.status;
  return [st?.connectionState?.lastConnect, st?.registryService?.createdAt, st?.latestImageRegistryPoll]
    .map((v) => v ?? '')
    .join('|');
}
