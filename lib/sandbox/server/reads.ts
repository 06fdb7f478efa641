// Reads a client makes: get and list of stored objects (with selectors, paging and Table output)
// and of resources a provider computes (packageserver's PackageManifests).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toTable } from '../apimachinery/table';
import { type Store } from '../store/store';
import { sendJson, sendMethodNotAllowed, sendObjectNotFound } from './http-util';
import { objectFilter, present, wantsTable } from './presentation';
import type { ResourcePath } from './resource-path';
import { storeKey, type ServedResource } from './resources';

export function serveGet(
  store: Store,
  r: ServedResource,
  rp: ResourcePath,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const o = store.get(storeKey(r), rp.namespace, rp.name!);
  if (!o) return sendObjectNotFound(res, r, rp.name!);
  const obj = present(r, rp.version, o);
  if (wantsTable(req))
    return sendJson(
      res,
      200,
      toTable([obj], r.columns, { resourceVersion: o.metadata.resourceVersion ?? '' }, 'Metadata', !!r.crd),
    );
  sendJson(res, 200, obj);
}

export function serveList(
  store: Store,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const limit = Number(url.searchParams.get('limit') ?? 0) || undefined;
  const result = store.list(storeKey(r), {
    namespace: rp.namespace,
    filter: objectFilter(r, url),
    limit,
    continueToken: url.searchParams.get('continue') ?? undefined,
  });
  const items = result.items.map((o) => present(r, rp.version, o));
  // The API server counts what remains only when no selector filters the list.
  const filtered = !!(url.searchParams.get('labelSelector') || url.searchParams.get('fieldSelector'));
  const meta = {
    resourceVersion: result.resourceVersion,
    ...(result.continueToken ? { continue: result.continueToken } : {}),
    ...(result.remainingItemCount !== undefined && !filtered ? { remainingItemCount: result.remainingItemCount } : {}),
  };
  if (wantsTable(req))
    return sendJson(
      res,
      200,
      toTable(
        items,
        r.columns,
        { ...meta, continue: result.continueToken },
        (url.searchParams.get('includeObject') as 'None' | 'Metadata' | 'Object' | null) ?? 'Metadata',
        !!r.crd,
      ),
    );
  sendJson(res, 200, {
    kind: r.listKind,
    apiVersion: r.group ? `${r.group}/${rp.version}` : rp.version,
    metadata: meta,
    items,
  });
}

/** Read-only resources computed by a provider: get and list (with the only field selector packageserver knows), Table output, GET subresources. */
export function serveProvided(
  r: ServedResource,
  rp: ResourcePath,
  verb: string,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const p = r.provider!;
  if (verb === 'get' && rp.subresource) {
    const out = p.subresource?.(rp.namespace, rp.name!, rp.subresource, {
      ifNoneMatch: req.headers['if-none-match'],
    });
    if (!out) return sendObjectNotFound(res, r, rp.name!);
    res.writeHead(out.status, {
      'Content-Type': out.contentType,
      'Content-Length': out.body.length,
      ...(out.etag ? { ETag: out.etag } : {}),
    });
    res.end(out.body);
    return;
  }
  if (verb === 'get') {
    const o = p.get(rp.namespace, rp.name!);
    if (!o) return sendObjectNotFound(res, r, rp.name!);
    if (wantsTable(req)) return sendJson(res, 200, toTable([o], r.columns, { resourceVersion: '' }));
    return sendJson(res, 200, o);
  }
  if (verb !== 'list') return sendMethodNotAllowed(res);
  const filter = objectFilter(r, url);
  const items = p.list(rp.namespace).filter(filter);
  if (wantsTable(req)) return sendJson(res, 200, toTable(items, r.columns, { resourceVersion: '' }));
  sendJson(res, 200, {
    kind: r.listKind,
    apiVersion: `${r.group}/${rp.version}`,
    metadata: { resourceVersion: '' },
    items,
  });
}
