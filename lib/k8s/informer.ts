// List-then-watch with a reconnect loop. Watches end for many reasons (server timeouts, proxies,
// client-node 2.0 cut every one at 30 s); each end resumes from the last resourceVersion seen,
// and a 410 Gone (history compacted) relists and reports the difference as ordinary events, so
// a consumer's copy of the state never drifts.
import type { KubeClient, KubeObject, ListOptions, ResourceType } from './client';
import { resourcePath } from './client';
import { errorFromResponse, KubeError } from './errors';
import { openRequest } from './http';

export type InformerEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface InformerEvent<T extends KubeObject> {
  type: InformerEventType;
  object: T;
}

export type InformerState =
  | { state: 'listing' }
  | { state: 'watching'; resourceVersion: string }
  | { state: 'retrying'; error: KubeError | Error; attempt: number };

export interface InformerOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Called once per change, in order. */
  onEvent: (e: InformerEvent<T>) => void;
  onState?: (s: InformerState) => void;
  /** Server-side watch timeout; a random part spreads reconnects. */
  watchTimeoutSeconds?: number;
  maxBackoffMs?: number;
  /**
   * Start by watching from this resourceVersion instead of listing (a client that already holds
   * the state up to it). A 410 then relists as usual.
   */
  resumeFrom?: string;
  /**
   * Called with every full list (the first, and each relist after a 410) instead of reporting
   * the list as ADDED/MODIFIED/DELETED events: for consumers that replace their copy wholesale.
   */
  onSnapshot?: (items: T[], resourceVersion: string) => void;
}

export interface Informer<T extends KubeObject> {
  /** The current objects, keyed `namespace/name`. */
  readonly objects: ReadonlyMap<string, T>;
  readonly resourceVersion: string | undefined;
  /** Resolves after the first list has been applied. */
  readonly synced: Promise<void>;
  stop(): void;
}

export function objectKey(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

class GoneError extends Error {}

export function startInformer<T extends KubeObject>(
  client: KubeClient,
  type: ResourceType,
  opts: InformerOptions<T>,
): Informer<T> {
  const objects = new Map<string, T>();
  let resourceVersion: string | undefined;
  /** Failures in a row since a watch was last established (the backoff's exponent). */
  let attempt = 0;
  let stopped = false;
  const abort = new AbortController();
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((r) => (markSynced = r));
  const listOpts: ListOptions = {
    namespace: opts.namespace,
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
  };

  const emit = (type: InformerEventType, object: T) => {
    if (!stopped) opts.onEvent({ type, object });
  };

  async function relist(): Promise<void> {
    opts.onState?.({ state: 'listing' });
    // With the informer's signal: a stopped informer's list is not retried against a cluster gone.
    const list = await client.listAll<T>(type, { ...listOpts, signal: abort.signal });
    const seen = new Set<string>();
    const quiet = !!opts.onSnapshot;
    for (const item of list.items) {
      const key = objectKey(item);
      seen.add(key);
      const old = objects.get(key);
      objects.set(key, item);
      if (quiet) continue;
      if (!old) emit('ADDED', item);
      else if (old.metadata?.resourceVersion !== item.metadata?.resourceVersion) emit('MODIFIED', item);
    }
    for (const [key, old] of objects) {
      if (!seen.has(key)) {
        objects.delete(key);
        if (!quiet) emit('DELETED', old);
      }
    }
    resourceVersion = list.metadata.resourceVersion;
    if (quiet && !stopped) opts.onSnapshot!(list.items, resourceVersion ?? '');
    markSynced();
  }

  async function watchOnce(): Promise<void> {
    const timeout = (opts.watchTimeoutSeconds ?? 300) + Math.floor(Math.random() * 60);
    const { res } = await openRequest(client.kubeConfig, {
      method: 'GET',
      path: resourcePath(type, opts.namespace),
      query: {
        watch: 'true',
        resourceVersion,
        allowWatchBookmarks: 'true',
        timeoutSeconds: timeout,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
      },
      signal: abort.signal,
      stream: true,
    });
    const code = res.statusCode ?? 500;
    if (code === 410) {
      res.resume();
      throw new GoneError('resourceVersion too old');
    }
    if (code < 200 || code >= 300) {
      let text = '';
      for await (const c of res) text += String(c);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      throw errorFromResponse(code, body, `watch ${type.plural}`);
    }
    // The watch is established: whatever failed before is over, so the next cut retries at once
    // instead of after a backoff grown by earlier, already recovered, failures.
    attempt = 0;
    opts.onState?.({ state: 'watching', resourceVersion: resourceVersion ?? '' });
    res.setEncoding('utf8');
    let buffer = '';
    for await (const chunk of res) {
      buffer += chunk as string;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) handleLine(line);
      }
    }
  }

  function handleLine(line: string): void {
    const ev = JSON.parse(line) as { type: string; object: T & { code?: number; message?: string; reason?: string } };
    if (ev.type === 'ERROR') {
      if (ev.object.code === 410) throw new GoneError(ev.object.message ?? 'Gone');
      throw new KubeError({
        code: ev.object.code ?? 500,
        reason: ev.object.reason ?? 'InternalError',
        message: ev.object.message ?? 'watch error',
      });
    }
    const rv = ev.object.metadata?.resourceVersion;
    if (rv) resourceVersion = rv;
    if (ev.type === 'BOOKMARK') return;
    const key = objectKey(ev.object);
    if (ev.type === 'DELETED') {
      objects.delete(key);
      emit('DELETED', ev.object);
    } else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
      const existed = objects.has(key);
      objects.set(key, ev.object);
      // After a resume an ADDED can repeat an object the list already had.
      emit(existed ? 'MODIFIED' : 'ADDED', ev.object);
    }
  }

  async function loop(): Promise<void> {
    let needList = !opts.resumeFrom;
    if (opts.resumeFrom) {
      resourceVersion = opts.resumeFrom;
      markSynced();
    }
    while (!stopped) {
      try {
        if (needList) {
          await relist();
          needList = false;
        }
        await watchOnce();
        attempt = 0; // a clean end of stream: resume at once
      } catch (err) {
        if (stopped) return;
        if (err instanceof GoneError) {
          needList = true;
          continue;
        }
        attempt += 1;
        const error = err instanceof Error ? err : new Error(String(err));
        opts.onState?.({ state: 'retrying', error, attempt });
        const delay = Math.min(opts.maxBackoffMs ?? 30_000, 250 * 2 ** Math.min(attempt, 8));
        // Unref'd: a process whose cluster went away is not kept alive by its informers' retries
        // alone (a server has its listener; a test's process ends when its tests do).
        await new Promise((r) => setTimeout(r, delay).unref());
      }
    }
  }

  void loop();
  return {
    objects,
    get resourceVersion() {
      return resourceVersion;
    },
    synced,
    stop() {
      stopped = true;
      abort.abort();
    },
  };
}
