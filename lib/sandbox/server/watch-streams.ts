// Watch streams: events as kube-apiserver sends them (chunked JSON lines, bookmarks, a 410
// Expired ERROR for a resourceVersion too old, the stream ended after timeoutSeconds), and the
// set of open streams so the server can end them on stop or drop them for fault injection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toTable } from '../apimachinery/table';
import type { Store } from '../store/store';
import { StoreError, type WatchEvent } from '../store/types';
import { ApiStatusError, statusBody } from './http-util';
import { objectFilter, present, wantsTable } from './presentation';
import type { ResourcePath } from './resource-path';
import { storeKey, type ServedResource } from './resources';

export class WatchStreams {
  private readonly open = new Set<ServerResponse>();
  /** One serialisation per event and version, shared by every watcher that receives it. */
  private readonly eventJson = new WeakMap<object, Map<string, string>>();

  /** Ends every stream cleanly (the server stops). */
  endAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }

  /** Breaks every stream (fault injection): clients must reconnect and resume. Answers how many. */
  dropAll(): number {
    const n = this.open.size;
    for (const res of this.open) res.destroy();
    this.open.clear();
    return n;
  }

  serve(store: Store, r: ServedResource, rp: ResourcePath, url: URL, req: IncomingMessage, res: ServerResponse): void {
    const filter = objectFilter(r, url);
    const rvParam = url.searchParams.get('resourceVersion') ?? '';
    const table = wantsTable(req);
    const bookmarks = url.searchParams.get('allowWatchBookmarks') === 'true';
    const timeoutSeconds = Number(url.searchParams.get('timeoutSeconds') ?? 0) || 1800;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    // Clients wait for the headers before they read events; a resumed watch may have none yet.
    res.flushHeaders();
    this.open.add(res);
    let pending = '';
    const flush = () => {
      if (pending && !res.writableEnded && !res.destroyed) res.write(pending);
      pending = '';
    };
    const write = (e: WatchEvent) => {
      // A client that went away must never crash the server.
      if (res.writableEnded || res.destroyed) return;
      const variant = `${rp.version}${table ? '/table' : ''}`;
      let perEvent = this.eventJson.get(e);
      let line = perEvent?.get(variant);
      if (line === undefined) {
        const obj = e.type === 'BOOKMARK' || e.type === 'ERROR' ? e.object : present(r, rp.version, e.object);
        const object =
          table && e.type !== 'BOOKMARK' && e.type !== 'ERROR'
            ? toTable([obj], r.columns, { resourceVersion: obj.metadata.resourceVersion ?? '' }, 'Metadata', !!r.crd)
            : obj;
        line = JSON.stringify({ type: e.type, object }) + '\n';
        if (!perEvent) this.eventJson.set(e, (perEvent = new Map()));
        perEvent.set(variant, line);
      }
      // Events of one tick go out in one write: one TLS record and syscall per watcher per tick
      // rather than per event, which is what lets hundreds of watchers keep up.
      if (pending === '') setImmediate(flush);
      pending += line;
    };
    let unwatch: (() => void) | undefined;
    const key = storeKey(r);
    const watcher = { key, namespace: rp.namespace, filter, send: write };
    try {
      if (rvParam === '' || rvParam === '0') {
        for (const o of store.list(key, { namespace: rp.namespace, filter }).items) write({ type: 'ADDED', object: o });
        unwatch = store.watch(watcher);
      } else {
        const since = Number(rvParam);
        if (!Number.isInteger(since) || since < 0)
          throw new ApiStatusError(400, 'BadRequest', `invalid resource version: ${rvParam}`);
        unwatch = store.watch(watcher, since);
      }
    } catch (err) {
      const e =
        err instanceof StoreError && err.code === 410
          ? statusBody(410, 'Expired', err.message)
          : statusBody(400, 'BadRequest', (err as Error).message);
      flush();
      res.write(JSON.stringify({ type: 'ERROR', object: e }) + '\n');
      this.open.delete(res);
      res.end();
      return;
    }
    const bookmarkTimer = bookmarks
      ? setInterval(
          () =>
            write({
              type: 'BOOKMARK',
              object: {
                apiVersion: r.group ? `${r.group}/${rp.version}` : rp.version,
                kind: r.kind,
                metadata: { resourceVersion: store.resourceVersion },
              },
            }),
          5_000,
        )
      : undefined;
    const end = setTimeout(() => {
      flush();
      res.end();
    }, timeoutSeconds * 1000);
    const cleanup = () => {
      unwatch?.();
      if (bookmarkTimer) clearInterval(bookmarkTimer);
      clearTimeout(end);
      this.open.delete(res);
    };
    res.on('close', cleanup);
    res.on('finish', cleanup);
    res.on('error', cleanup);
  }
}
