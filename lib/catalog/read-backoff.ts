// Per-person pauses after a failed catalog read. A read may fail for one person only (a
// port-forward they may not open) while the next gets through, so a failure is never cached as
// the answer for everyone; the person it failed for waits before their requests read again.
import type { PackageSummary } from './package-summary';

/**
 * After a failed read, how long before the same person's requests read that catalog again:
 * 5 s, doubling with each failure in a row, at most 5 minutes. A failed read is not free (a
 * registry that accepts connections and then fails a 10 MB message costs what a good read does,
 * 25 times a request served from the index), and until the pause is over the last good index,
 * or packageserver's PackageManifests, are served. New content (the CatalogSource's
 * connection, pod or image poll changes) is read at once, pause or not.
 */
export const FAILED_READ_BACKOFF = { firstMs: 5_000, maxMs: 5 * 60_000 };

/** A person's failed reads of one catalog in a row, and when they may read it again. */
export interface Backoff {
  version: string;
  failures: number;
  retryAt: number;
  /** The packages packageserver listed for this person meanwhile (kept until `retryAt`). */
  manifests?: PackageSummary[];
}

/** The backoffs of every catalog and person, keyed `catalog|identity`. */
export class ReadBackoffs {
  private readonly byKey = new Map<string, Backoff>();

  constructor(private readonly now: () => number) {}

  /** This person's backoff for this version of the catalog's content, while it lasts. */
  active(catalog: string, who: string, version: string): Backoff | undefined {
    const b = this.byKey.get(`${catalog}|${who}`);
    return b && b.version === version && this.now() < b.retryAt ? b : undefined;
  }

  /** Counts a failed read; the pause doubles with each failure of the same content in a row. */
  failed(catalog: string, who: string, version: string): void {
    const key = `${catalog}|${who}`;
    const prev = this.byKey.get(key);
    const failures = prev && prev.version === version ? prev.failures + 1 : 1;
    const pause = Math.min(FAILED_READ_BACKOFF.firstMs * 2 ** (failures - 1), FAILED_READ_BACKOFF.maxMs);
    this.byKey.set(key, { version, failures, retryAt: this.now() + pause });
  }

  /** Drops every person's backoff for a catalog: it was read, or it is gone. */
  forget(catalog: string): void {
    for (const key of this.byKey.keys()) if (key.startsWith(`${catalog}|`)) this.byKey.delete(key);
  }
}
