// Writes a client makes over HTTP: create, replace, patch (JSON, merge, strategic merge), delete
// and deletecollection. Each reads and checks the request as kube-apiserver does, admits it, and
// hands the object to the core's writes (object-lifecycle.ts), which controllers use too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../apimachinery/patch';
import { checkRbacWrite, RBAC_KINDS, type RbacKind } from '../auth/escalation';
import { authorize, type UserInfo } from '../auth/rbac';
import type { KObject } from '../store/types';
import type { ApiCore } from './api-core';
import {
  ApiStatusError,
  readJsonBody,
  sendJson,
  sendMethodNotAllowed,
  sendObjectNotFound,
  sendStatus,
} from './http-util';
import { objectFilter, present } from './presentation';
import type { ResourcePath } from './resource-path';
import { storeKey, type ServedResource } from './resources';

/**
 * Admission of a client's write (controllers writing through the core are not admitted), after
 * RBAC's own refusal to grant what the writer does not hold, which kube-apiserver makes in its
 * RBAC storage before validation.
 */
function admit(core: ApiCore, r: ServedResource, user: UserInfo, object: KObject, old?: KObject): void {
  if (r.group === 'rbac.authorization.k8s.io' && RBAC_KINDS.has(r.kind))
    checkRbacWrite(core.rbac, user, { kind: r.kind as RbacKind, object, old });
  core.hooks.admit?.({ resource: r, user, object, old, may: (attrs) => authorize(core.rbac, user, attrs) });
}

function objectFromBody(r: ServedResource, rp: ResourcePath, body: unknown): KObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiStatusError(400, 'BadRequest', 'the request body must be a JSON object');
  const o = structuredClone(body) as KObject;
  o.metadata ??= {};
  const expectApi = r.group ? `${r.group}/${rp.version}` : rp.version;
  if (o.kind && o.kind !== r.kind)
    throw new ApiStatusError(
      400,
      'BadRequest',
      `the API version in the data (${o.apiVersion ?? ''}) does not match the expected API version (${expectApi})`,
    );
  if (o.apiVersion && !r.versions.some((v) => (r.group ? `${r.group}/${v}` : v) === o.apiVersion)) {
    throw new ApiStatusError(
      400,
      'BadRequest',
      `the API version in the data (${o.apiVersion}) does not match the expected API version (${expectApi})`,
    );
  }
  o.apiVersion = r.group ? `${r.group}/${r.versions[0]}` : r.versions[0]!;
  o.kind = r.kind;
  if (r.namespaced) {
    if (o.metadata.namespace && rp.namespace && o.metadata.namespace !== rp.namespace) {
      throw new ApiStatusError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    o.metadata.namespace = rp.namespace ?? o.metadata.namespace;
  } else delete o.metadata.namespace;
  return o;
}

export async function serveCreate(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
): Promise<void> {
  if (rp.name) return sendMethodNotAllowed(res);
  const o = objectFromBody(r, rp, await readJsonBody(req));
  // As the API server's strategies do for kinds with a status subresource: a client cannot
  // create an object with a status of its choosing; its controllers write status.
  if (r.hasStatus) delete o.status;
  admit(core, r, user, o);
  const created = core.createObject(r, o, url.searchParams.get('dryRun') === 'All', rp.version);
  sendJson(res, 201, present(r, rp.version, created));
}

export async function serveUpdate(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
): Promise<void> {
  if (!rp.name) return sendMethodNotAllowed(res);
  const o = objectFromBody(r, rp, await readJsonBody(req));
  if (o.metadata.name && o.metadata.name !== rp.name) {
    throw new ApiStatusError(
      400,
      'BadRequest',
      `the name of the object (${o.metadata.name}) does not match the name on the URL (${rp.name})`,
    );
  }
  o.metadata.name = rp.name;
  const current = core.store.get(storeKey(r), rp.namespace, rp.name);
  if (!current) return sendObjectNotFound(res, r, rp.name);
  if (rp.subresource !== 'status') admit(core, r, user, o, current);
  const updated = core.updateObject(r, o, rp.subresource, url.searchParams.get('dryRun') === 'All', rp.version);
  sendJson(res, 200, present(r, rp.version, updated));
}

export async function servePatch(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
): Promise<void> {
  if (!rp.name) return sendMethodNotAllowed(res);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  const patchTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ];
  // As kube-apiserver's content negotiation: a media type no patch has is refused before the body is read.
  if (!patchTypes.includes(type))
    return sendStatus(res, 415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
  if (type === 'application/apply-patch+yaml')
    return sendStatus(
      res,
      415,
      'UnsupportedMediaType',
      'the sandbox does not implement server-side apply; use a JSON, merge or strategic merge patch (or kubectl apply without --server-side)',
    );
  const patch = await readJsonBody(req);
  const current = core.store.get(storeKey(r), rp.namespace, rp.name);
  if (!current) return sendObjectNotFound(res, r, rp.name);
  let next: unknown;
  if (type === 'application/json-patch+json') next = applyJsonPatch(current, patch);
  else if (type === 'application/merge-patch+json') next = applyMergePatch(current, patch);
  else if (type === 'application/strategic-merge-patch+json') {
    if (r.crd)
      return sendStatus(
        res,
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      );
    next = applyStrategicMergePatch(current, patch);
  } else {
    return sendStatus(
      res,
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json${r.crd ? '' : ', application/strategic-merge-patch+json'}`,
    );
  }
  const o = next as KObject;
  if (typeof o !== 'object' || o === null || typeof o.metadata !== 'object')
    throw new ApiStatusError(422, 'Invalid', 'the patched object has no metadata');
  o.metadata.name = rp.name;
  o.metadata.namespace = rp.namespace;
  o.apiVersion = current.apiVersion;
  o.kind = current.kind;
  // A patch applies to the current object; only a resourceVersion written in the patch itself
  // is a precondition.
  const patchRv = (patch as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
  o.metadata.resourceVersion = patchRv ?? current.metadata.resourceVersion;
  if (rp.subresource !== 'status') admit(core, r, user, o, current);
  const updated = core.updateObject(r, o, rp.subresource, url.searchParams.get('dryRun') === 'All', rp.version);
  sendJson(res, 200, present(r, rp.version, updated));
}

function deleteOptions(url: URL, body: unknown) {
  const b = (body ?? {}) as {
    propagationPolicy?: string;
    orphanDependents?: boolean;
    preconditions?: { uid?: string; resourceVersion?: string };
    dryRun?: string[];
  };
  const policy =
    url.searchParams.get('propagationPolicy') ?? b.propagationPolicy ?? (b.orphanDependents ? 'Orphan' : undefined);
  if (policy && !['Orphan', 'Background', 'Foreground'].includes(policy)) {
    throw new ApiStatusError(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  return {
    propagationPolicy: policy ?? undefined,
    uid: b.preconditions?.uid,
    resourceVersion: b.preconditions?.resourceVersion,
    dryRun: url.searchParams.get('dryRun') === 'All' || (b.dryRun ?? []).includes('All'),
  };
}

export async function serveDelete(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const opts = deleteOptions(url, await readJsonBody(req));
  const object = core.deleteObject(r, rp.namespace, rp.name!, opts);
  sendJson(res, 200, present(r, rp.version, object));
}

export async function serveDeleteCollection(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const opts = deleteOptions(url, await readJsonBody(req));
  const items = core.store.list(storeKey(r), { namespace: rp.namespace, filter: objectFilter(r, url) }).items;
  const out = items.map((o) =>
    present(
      r,
      rp.version,
      core.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', {
        ...opts,
        uid: undefined,
        resourceVersion: undefined,
      }),
    ),
  );
  sendJson(res, 200, {
    kind: r.listKind,
    apiVersion: r.group ? `${r.group}/${rp.version}` : rp.version,
    metadata: { resourceVersion: core.store.resourceVersion },
    items: out,
  });
}
