// catalogd v1.2.0's ClusterCatalog controller in the sandbox (internal/catalogd/controllers/core/
// clustercatalog_controller.go): the finalizer first, then "pull" the image — a catalog image the
// sandbox was started with, read from its folder — store its content for the HTTP API and write
// Serving/Progressing, resolvedSource, urls.base and lastUnpacked with catalogd's reasons and
// messages; Unavailable and deletion clear them. docs/olm-v1/catalogs.md.
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { storeCatalog } from './catalog-content';
import { findCondition, setCondition, type Condition } from './conditions';
import { parseImageRef } from './image-ref';
import type { ServedContent } from './content-server';

export const CATALOG_FINALIZER = 'olm.operatorframework.io/delete-server-cache';
export const METADATA_NAME_LABEL = 'olm.operatorframework.io/metadata.name';

const SUCCEEDED = 'Successfully unpacked and stored content from resolved source';
const SERVING = 'Serving desired content from resolved source';
const UNAVAILABLE = 'Catalog availability mode is set to Unavailable';

interface Spec {
  availabilityMode?: string;
  priority?: number;
  source?: { type?: string; image?: { ref?: string; pollIntervalMinutes?: number } };
}

export interface CatalogStatus {
  conditions?: Condition[];
  resolvedSource?: { type: 'Image'; image: { ref: string } };
  urls?: { base: string };
  lastUnpacked?: string;
}

/** What catalogd keeps in memory about a catalog it stored (its storedCatalogs map). */
interface Stored {
  ref: string;
  digest: string;
  lastUnpacked: string;
  lastSuccessfulPoll: number;
  generation: number;
}

export interface CatalogContent extends ServedContent {
  /** status.resolvedSource.image.ref of the content. */
  ref: string;
}

const seconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export class ClusterCatalogs {
  private readonly content = new Map<string, CatalogContent>();
  private readonly stored = new Map<string, Stored>();
  private readonly polls = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly api: ApiServer,
    /** Image reference → FBC folder: the catalog images the sandbox can "pull". */
    private readonly images: ReadonlyMap<string, string>,
    private readonly baseUrl: (name: string) => string,
    /** Asks for another pass over a catalog (a poll coming due). */
    private readonly requeue: (name: string) => void,
  ) {}

  private get resource(): ServedResource {
    return this.api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!;
  }

  /** The content served for a catalog, as catalogd's HTTP server has it. */
  served(name: string): CatalogContent | undefined {
    return this.content.get(name);
  }

  stop(): void {
    for (const t of this.polls.values()) clearTimeout(t);
    this.polls.clear();
  }

  async reconcile(name: string): Promise<void> {
    const cc = this.api.storeGet(this.resource, undefined, name);
    if (!cc) {
      this.forget(name);
      return;
    }
    const spec = (cc.spec ?? {}) as Spec;
    const generation = cc.metadata.generation ?? 1;
    const finalizers = cc.metadata.finalizers ?? [];
    const hasFinalizer = finalizers.includes(CATALOG_FINALIZER);

    if (spec.availabilityMode === 'Unavailable') {
      this.forget(name);
      let status = this.cleared(cc);
      status = this.progressing(status, generation, 'True', 'Succeeded', UNAVAILABLE);
      status.conditions = setCondition(status.conditions ?? [], {
        type: 'Serving',
        status: 'False',
        reason: 'UserSpecifiedUnavailable',
        message: UNAVAILABLE,
        observedGeneration: generation,
      });
      const updated = this.writeStatus(cc, status);
      // The finalizer serves no purpose while nothing is stored.
      if (hasFinalizer)
        this.writeFinalizers(
          updated,
          finalizers.filter((f) => f !== CATALOG_FINALIZER),
        );
      return;
    }
    if (cc.metadata.deletionTimestamp) {
      if (!hasFinalizer) return;
      this.forget(name);
      const status = this.cleared(cc);
      status.conditions = setCondition(status.conditions ?? [], {
        type: 'Serving',
        status: 'False',
        reason: 'Unavailable',
        message: '',
        observedGeneration: generation,
      });
      const updated = this.writeStatus(cc, status);
      this.writeFinalizers(
        updated,
        finalizers.filter((f) => f !== CATALOG_FINALIZER),
      );
      return;
    }
    // On create the finalizer goes on first, in a pass of its own; status comes with the next.
    if (!hasFinalizer) {
      this.writeFinalizers(cc, [...finalizers, CATALOG_FINALIZER]);
      return;
    }

    const record = this.stored.get(name);
    const status = (cc.status ?? {}) as CatalogStatus;
    const interval = spec.source?.image?.pollIntervalMinutes;
    const pollDue = record && interval !== undefined && record.lastSuccessfulPoll + interval * 60_000 < Date.now();
    const needsUnpack =
      !record ||
      !this.content.has(name) ||
      record.generation !== generation ||
      pollDue ||
      JSON.stringify(this.servingPart(status)) !==
        JSON.stringify(this.servingPart(this.expected(status, record, name)));
    if (!needsUnpack) {
      this.schedulePoll(name, record, interval);
      return;
    }
    this.unpack(cc, spec, generation, record, interval);
  }

  private unpack(cc: KObject, spec: Spec, generation: number, record: Stored | undefined, interval?: number): void {
    const name = cc.metadata.name ?? '';
    const ref = spec.source?.image?.ref ?? '';
    const fail = (message: string, terminal: boolean) => {
      // Any error drops what catalogd remembered, so the next pass pulls again.
      this.stored.delete(name);
      const status = this.progressing(
        (cc.status ?? {}) as CatalogStatus,
        generation,
        terminal ? 'False' : 'True',
        terminal ? 'Blocked' : 'Retrying',
        message,
      );
      this.writeStatus(cc, status);
    };
    const parsed = parseImageRef(ref);
    if ('error' in parsed)
      return fail(
        `source catalog content: terminal error: error parsing image reference "${ref}": ${parsed.error}`,
        true,
      );
    const image = this.pull(parsed.repository, ref, parsed.digest);
    if (!image)
      return fail(
        `source catalog content: error creating image source: the sandbox cannot pull ${ref}: it serves only the catalog images it was started with (--catalog, --catalog-image IMAGE=DIR)`,
        false,
      );
    let stored;
    try {
      stored = storeCatalog(image.dir);
    } catch (err) {
      return fail(`error storing fbc: error walking FBC root: ${(err as Error).message}`, false);
    }
    if (parsed.digest && parsed.digest !== stored.digest)
      return fail(
        `source catalog content: error getting manifest: manifest unknown: the sandbox's ${parsed.repository} has content ${stored.digest}`,
        false,
      );
    const resolved = `${parsed.repository}@${stored.digest}`;
    const now = new Date();
    // An image already unpacked (same digest) is a cache hit: its unpack time does not move.
    const lastUnpacked = record && record.digest === stored.digest ? record.lastUnpacked : seconds(now);
    this.content.set(name, { jsonl: stored.jsonl, modified: now, ref: resolved });
    const next: Stored = {
      ref: resolved,
      digest: stored.digest,
      lastUnpacked,
      lastSuccessfulPoll: now.getTime(),
      generation,
    };
    this.stored.set(name, next);
    this.writeStatus(cc, this.expected((cc.status ?? {}) as CatalogStatus, next, name));
    this.schedulePoll(name, next, interval);
  }

  /** The folder of an image the sandbox knows, by exact reference or by repository and digest. */
  private pull(repository: string, ref: string, digest?: string): { dir: string } | undefined {
    const exact = this.images.get(ref);
    if (exact) return { dir: exact };
    if (!digest) return undefined;
    for (const [known, dir] of this.images) {
      const p = parseImageRef(known);
      if (!('error' in p) && p.repository === repository) return { dir };
    }
    return undefined;
  }

  /** The status a successful unpack of `record` gives (catalogd's updateStatusServing/Progressing). */
  private expected(status: CatalogStatus, record: Stored, name: string): CatalogStatus {
    let next: CatalogStatus = {
      ...status,
      // catalogd keeps only the condition types it writes.
      conditions: (status.conditions ?? []).filter((c) => c.type === 'Serving' || c.type === 'Progressing'),
      resolvedSource: { type: 'Image', image: { ref: record.ref } },
      urls: { base: this.baseUrl(name) },
      lastUnpacked: record.lastUnpacked,
    };
    next = this.progressing(next, record.generation, 'True', 'Succeeded', SUCCEEDED);
    next.conditions = setCondition(next.conditions ?? [], {
      type: 'Serving',
      status: 'True',
      reason: 'Available',
      message: SERVING,
      observedGeneration: record.generation,
    });
    return next;
  }

  private servingPart(s: CatalogStatus) {
    const strip = (c?: Condition) => c && { ...c, lastTransitionTime: undefined };
    return [
      strip(findCondition(s.conditions, 'Serving')),
      strip(findCondition(s.conditions, 'Progressing')),
      s.resolvedSource,
      s.urls,
      s.lastUnpacked,
    ];
  }

  private progressing(
    status: CatalogStatus,
    generation: number,
    s: 'True' | 'False',
    reason: string,
    message: string,
  ): CatalogStatus {
    const conditions = setCondition(status.conditions ?? [], {
      type: 'Progressing',
      status: s,
      reason,
      message,
      observedGeneration: generation,
    });
    return { ...status, conditions };
  }

  private cleared(cc: KObject): CatalogStatus {
    const status = { ...((cc.status ?? {}) as CatalogStatus) };
    delete status.resolvedSource;
    delete status.urls;
    delete status.lastUnpacked;
    return status;
  }

  private schedulePoll(name: string, record: Stored, interval?: number): void {
    clearTimeout(this.polls.get(name));
    this.polls.delete(name);
    if (interval === undefined) return;
    // catalogd requeues at the last poll plus the interval, with up to 1% jitter.
    const due = record.lastSuccessfulPoll + interval * 60_000 * (1 + Math.random() * 0.01) - Date.now();
    this.polls.set(name, setTimeout(() => this.requeue(name), Math.max(0, due)).unref());
  }

  private forget(name: string): void {
    this.content.delete(name);
    this.stored.delete(name);
    clearTimeout(this.polls.get(name));
    this.polls.delete(name);
  }

  private writeStatus(cc: KObject, status: CatalogStatus): KObject {
    if (JSON.stringify(cc.status ?? {}) === JSON.stringify(status)) return cc;
    return this.api.updateObject(this.resource, { ...cc, status: status as Record<string, unknown> }, 'status');
  }

  private writeFinalizers(cc: KObject, finalizers: string[]): void {
    this.api.updateObject(this.resource, { ...cc, metadata: { ...cc.metadata, finalizers } });
  }
}
