// The sandbox's object store: every object of every resource in memory, one cluster-wide
// resourceVersion counter, a bounded history of changes so watches can resume, and (with a data
// file) an append-only log written before a change is acknowledged, so `kill -9` loses nothing
// that a client was told had succeeded.
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { StoreError, type KObject, type ResourceKey, type WatchEvent } from './types';

export interface ListOptions {
  namespace?: string;
  filter?: (o: KObject) => boolean;
  limit?: number;
  continueToken?: string;
}

export interface ListResult {
  items: KObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export interface Watcher {
  key: ResourceKey;
  namespace?: string;
  filter?: (o: KObject) => boolean;
  send: (e: WatchEvent) => void;
}

interface HistoryEntry {
  rv: number;
  keyId: string;
  event: WatchEvent;
}

interface LogRecord {
  op: 'put' | 'del';
  k: string;
  o: KObject;
}

const DEFAULT_HISTORY = 20_000;

export function keyId(key: Pick<ResourceKey, 'group' | 'resource'>): string {
  return `${key.group}/${key.resource}`;
}

function objectId(obj: KObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export function qualifiedResource(key: Pick<ResourceKey, 'group' | 'resource'>): string {
  return key.group ? `${key.resource}.${key.group}` : key.resource;
}

function nowRfc3339(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

export class Store {
  private readonly collections = new Map<string, Map<string, KObject>>();
  private readonly history: HistoryEntry[] = [];
  private readonly watchers = new Set<Watcher>();
  private rv = 0;
  private fd: number | undefined;

  private constructor(private readonly historyLimit: number) {}

  /**
   * In memory, or persisted to `dataFile` (replayed on open, then compacted). `historyLimit` is
   * how many changes a watch can resume across before it gets 410 Gone.
   */
  static async open(opts: { dataFile?: string; historyLimit?: number } = {}): Promise<Store> {
    const store = new Store(opts.historyLimit ?? DEFAULT_HISTORY);
    if (opts.dataFile) store.load(opts.dataFile);
    return store;
  }

  private load(file: string): void {
    if (existsSync(file)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      for (const [i, line] of lines.entries()) {
        if (!line) continue;
        let rec: LogRecord;
        try {
          rec = JSON.parse(line) as LogRecord;
        } catch {
          // Only the last line can be torn (a write cut by kill -9 before it was acknowledged).
          if (i >= lines.length - 2) break;
          throw new Error(`${file}: line ${i + 1} is not valid JSON; the data file is damaged`);
        }
        const coll = this.collection(rec.k);
        if (rec.op === 'put') coll.set(objectId(rec.o), rec.o);
        else coll.delete(objectId(rec.o));
        this.rv = Math.max(this.rv, Number(rec.o.metadata.resourceVersion ?? 0));
      }
    }
    // Compact: rewrite the live objects only, then append from there.
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w');
    for (const [k, coll] of this.collections) {
      for (const o of coll.values()) writeSync(fd, JSON.stringify({ op: 'put', k, o } satisfies LogRecord) + '\n');
    }
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
    this.fd = openSync(file, 'a');
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    for (const w of this.watchers) this.watchers.delete(w);
  }

  private collection(k: string): Map<string, KObject> {
    let c = this.collections.get(k);
    if (!c) {
      c = new Map();
      this.collections.set(k, c);
    }
    return c;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  /** The oldest resourceVersion a watch can still resume from. */
  get oldestResumable(): number {
    return this.history.length ? this.history[0]!.rv - 1 : this.rv;
  }

  private persist(op: 'put' | 'del', k: string, o: KObject): void {
    if (this.fd === undefined) return;
    // Synchronous append: the change is on disk (in the OS) before the client hears of it.
    appendFileSync(this.fd, JSON.stringify({ op, k, o } satisfies LogRecord) + '\n');
  }

  private emit(key: ResourceKey, event: WatchEvent): void {
    const rv = Number(event.object.metadata.resourceVersion);
    this.history.push({ rv, keyId: keyId(key), event });
    if (this.history.length > this.historyLimit) this.history.splice(0, this.history.length - this.historyLimit);
    for (const w of this.watchers) {
      if (keyId(w.key) !== keyId(key)) continue;
      if (w.namespace && event.object.metadata.namespace !== w.namespace) continue;
      if (w.filter && !w.filter(event.object)) continue;
      w.send(event);
    }
  }

  get(key: ResourceKey, namespace: string | undefined, name: string): KObject | undefined {
    const o = this.collections.get(keyId(key))?.get(`${key.namespaced ? (namespace ?? '') : ''}/${name}`);
    return o ? clone(o) : undefined;
  }

  /** Items sorted by namespace then name; `continueToken` is opaque to clients. */
  list(key: ResourceKey, opts: ListOptions = {}): ListResult {
    const coll = this.collections.get(keyId(key));
    let items = coll ? [...coll.values()] : [];
    if (opts.namespace) items = items.filter((o) => o.metadata.namespace === opts.namespace);
    if (opts.filter) items = items.filter(opts.filter);
    items.sort((a, b) => (objectId(a) < objectId(b) ? -1 : objectId(a) > objectId(b) ? 1 : 0));
    let start = 0;
    let listRv = this.rv;
    if (opts.continueToken) {
      let tok: { rv: number; after: string };
      try {
        tok = JSON.parse(Buffer.from(opts.continueToken, 'base64url').toString('utf8')) as {
          rv: number;
          after: string;
        };
      } catch {
        throw new StoreError('BadRequest', 400, 'continue key is not valid: illegal base64 data');
      }
      if (typeof tok.rv !== 'number' || typeof tok.after !== 'string')
        throw new StoreError('BadRequest', 400, 'continue key is not valid');
      if (tok.rv < this.oldestResumable) {
        throw new StoreError(
          'Gone',
          410,
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      }
      listRv = tok.rv;
      start = items.findIndex((o) => objectId(o) > tok.after);
      if (start < 0) start = items.length;
    }
    if (opts.limit && opts.limit > 0 && start + opts.limit < items.length) {
      const page = items.slice(start, start + opts.limit);
      const last = page[page.length - 1]!;
      const continueToken = Buffer.from(JSON.stringify({ rv: listRv, after: objectId(last) })).toString('base64url');
      return {
        items: page.map(clone),
        resourceVersion: String(listRv),
        continueToken,
        remainingItemCount: items.length - start - opts.limit,
      };
    }
    return { items: items.slice(start).map(clone), resourceVersion: String(listRv) };
  }

  /** Assigns uid, resourceVersion, creationTimestamp, generation; 409 AlreadyExists on a taken name. */
  create(key: ResourceKey, input: KObject, opts: { dryRun?: boolean } = {}): KObject {
    const obj = clone(input);
    const meta = obj.metadata;
    if (!meta.name) throw new StoreError('Invalid', 422, 'name or generateName is required');
    if (!key.namespaced) delete meta.namespace;
    const coll = this.collection(keyId(key));
    if (coll.has(objectId(obj)))
      throw new StoreError('AlreadyExists', 409, `${qualifiedResource(key)} "${meta.name}" already exists`, {
        name: meta.name,
        group: key.group,
        kind: key.resource,
      });
    meta.uid = randomUUID();
    meta.creationTimestamp = nowRfc3339();
    meta.generation = 1;
    delete meta.deletionTimestamp;
    if (opts.dryRun) return { ...obj, metadata: { ...meta, resourceVersion: this.resourceVersion } };
    meta.resourceVersion = String(++this.rv);
    this.persist('put', keyId(key), obj);
    coll.set(objectId(obj), obj);
    this.emit(key, { type: 'ADDED', object: clone(obj) });
    return clone(obj);
  }

  /**
   * Replaces an object. A resourceVersion in the input must match (409 Conflict otherwise).
   * `status` updates change only `.status`; other updates keep `.status` and bump `generation`
   * when anything outside metadata and status changed. Removing the last finalizer of an object
   * being deleted completes the deletion.
   */
  update(key: ResourceKey, input: KObject, opts: { subresource?: 'status'; dryRun?: boolean } = {}): KObject {
    const coll = this.collection(keyId(key));
    const id = `${key.namespaced ? (input.metadata.namespace ?? '') : ''}/${input.metadata.name ?? ''}`;
    const current = coll.get(id);
    if (!current)
      throw new StoreError('NotFound', 404, `${qualifiedResource(key)} "${input.metadata.name ?? ''}" not found`);
    const rv = input.metadata.resourceVersion;
    if (rv && rv !== current.metadata.resourceVersion) {
      throw new StoreError(
        'Conflict',
        409,
        `Operation cannot be fulfilled on ${qualifiedResource(key)} "${input.metadata.name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`,
        { name: input.metadata.name, group: key.group, kind: key.resource },
      );
    }
    let next: KObject;
    if (opts.subresource === 'status') {
      next = { ...clone(current), status: clone(input.status) };
    } else {
      next = clone(input);
      next.metadata = {
        ...next.metadata,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        generation: current.metadata.generation,
        deletionTimestamp: current.metadata.deletionTimestamp,
      };
      if (!key.namespaced) delete next.metadata.namespace;
      if ('status' in current) next.status = clone(current.status);
      else delete next.status;
      if (specChanged(current, next)) next.metadata.generation = (current.metadata.generation ?? 1) + 1;
    }
    if (next.metadata.deletionTimestamp === undefined) delete next.metadata.deletionTimestamp;
    if (unchanged(current, next)) return clone(current);
    if (opts.dryRun) return next;
    next.metadata.resourceVersion = String(++this.rv);
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
      this.persist('del', keyId(key), next);
      coll.delete(id);
      this.emit(key, { type: 'DELETED', object: clone(next) });
      return clone(next);
    }
    this.persist('put', keyId(key), next);
    coll.set(id, next);
    this.emit(key, { type: 'MODIFIED', object: clone(next) });
    return clone(next);
  }

  /**
   * Deletes an object, or, when it has finalizers, marks it with deletionTimestamp and leaves
   * it until they are removed. `uid`/`resourceVersion` preconditions give 409 when they differ.
   */
  delete(
    key: ResourceKey,
    namespace: string | undefined,
    name: string,
    opts: { uid?: string; resourceVersion?: string; dryRun?: boolean } = {},
  ): { object: KObject; deleted: boolean } {
    const coll = this.collection(keyId(key));
    const id = `${key.namespaced ? (namespace ?? '') : ''}/${name}`;
    const current = coll.get(id);
    if (!current) throw new StoreError('NotFound', 404, `${qualifiedResource(key)} "${name}" not found`);
    if (opts.uid && opts.uid !== current.metadata.uid) {
      throw new StoreError(
        'Conflict',
        409,
        `Operation cannot be fulfilled on ${qualifiedResource(key)} "${name}": Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${current.metadata.uid ?? ''}`,
      );
    }
    if (opts.resourceVersion && opts.resourceVersion !== current.metadata.resourceVersion) {
      throw new StoreError(
        'Conflict',
        409,
        `Operation cannot be fulfilled on ${qualifiedResource(key)} "${name}": Precondition failed: ResourceVersion in precondition: ${opts.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`,
      );
    }
    if (opts.dryRun) return { object: clone(current), deleted: !current.metadata.finalizers?.length };
    if (current.metadata.finalizers?.length) {
      if (current.metadata.deletionTimestamp) return { object: clone(current), deleted: false };
      const next = clone(current);
      next.metadata.deletionTimestamp = nowRfc3339();
      next.metadata.deletionGracePeriodSeconds = 0;
      next.metadata.resourceVersion = String(++this.rv);
      this.persist('put', keyId(key), next);
      coll.set(id, next);
      this.emit(key, { type: 'MODIFIED', object: clone(next) });
      return { object: clone(next), deleted: false };
    }
    const gone = clone(current);
    gone.metadata.resourceVersion = String(++this.rv);
    this.persist('del', keyId(key), gone);
    coll.delete(id);
    this.emit(key, { type: 'DELETED', object: clone(gone) });
    return { object: clone(gone), deleted: true };
  }

  /**
   * Registers a watcher and replays what happened after `sinceRv` (410 Gone when that history
   * is no longer kept). With no `sinceRv`, the caller sends the current state itself.
   */
  watch(w: Watcher, sinceRv?: number): () => void {
    if (sinceRv !== undefined && sinceRv < this.rv) {
      if (sinceRv < this.oldestResumable) {
        throw new StoreError('Gone', 410, `too old resource version: ${sinceRv} (${this.oldestResumable + 1})`);
      }
      const id = keyId(w.key);
      for (const h of this.history) {
        if (h.rv <= sinceRv || h.keyId !== id) continue;
        const o = h.event.object;
        if (w.namespace && o.metadata.namespace !== w.namespace) continue;
        if (w.filter && !w.filter(o)) continue;
        w.send(h.event);
      }
    }
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  /** Drops every watcher (fault injection: "drop all watches"); returns how many. */
  dropWatchers(): number {
    const n = this.watchers.size;
    this.watchers.clear();
    return n;
  }

  /** Every collection's key id, for garbage collection sweeps. */
  collectionIds(): string[] {
    return [...this.collections.keys()];
  }

  /** All objects of a collection id, unsorted and not copied: for internal scans only. */
  scan(id: string): Iterable<KObject> {
    return this.collections.get(id)?.values() ?? [];
  }
}

const metaKeys = new Set(['metadata', 'status', 'apiVersion', 'kind']);

function specChanged(a: KObject, b: KObject): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (metaKeys.has(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return true;
  }
  return false;
}

function unchanged(a: KObject, b: KObject): boolean {
  const strip = (o: KObject) => JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return strip(a) === strip(b);
}
