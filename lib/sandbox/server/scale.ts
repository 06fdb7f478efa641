// The `scale` subresource of Deployments, ReplicaSets and StatefulSets: an autoscaling/v1 Scale
// made from the workload (spec.replicas, status.replicas, the selector as a string), read with
// GET and written with PUT or a patch, which change only the workload's spec.replicas. This is
// what `kubectl scale` and autoscalers use.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../apimachinery/patch';
import type { KObject } from '../store/types';
import type { ApiCore } from './api-core';
import { ApiStatusError, readJsonBody, sendJson, sendObjectNotFound, sendStatus } from './http-util';
import type { ResourcePath } from './resource-path';
import { storeKey, type ServedResource } from './resources';
import { formatSelector } from './workload-columns';

interface Scale {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec?: { replicas?: number };
  status?: unknown;
}

function scaleOf(o: KObject): Scale {
  const spec = (o.spec ?? {}) as { replicas?: number; selector?: unknown };
  const status = (o.status ?? {}) as { replicas?: number };
  const m = o.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 1 },
    status: { replicas: status.replicas ?? 0, selector: formatSelector(spec.selector).replace(/^<none>$/, '') },
  };
}

const PATCHES: Record<string, (target: unknown, patch: unknown) => unknown> = {
  'application/json-patch+json': applyJsonPatch,
  'application/merge-patch+json': applyMergePatch,
  'application/strategic-merge-patch+json': applyStrategicMergePatch,
};

export async function serveScale(
  core: ApiCore,
  r: ServedResource,
  rp: ResourcePath & { name: string },
  verb: string,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const current = core.store.get(storeKey(r), rp.namespace, rp.name);
  if (!current) return sendObjectNotFound(res, r, rp.name);
  if (verb === 'get') return sendJson(res, 200, scaleOf(current));
  let next: Scale;
  if (verb === 'patch') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    const apply = PATCHES[type];
    if (!apply) return sendStatus(res, 415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
    next = apply(scaleOf(current), await readJsonBody(req)) as Scale;
  } else next = ((await readJsonBody(req)) ?? {}) as Scale;
  const replicas = next?.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw new ApiStatusError(
      422,
      'Invalid',
      `Scale.autoscaling "${rp.name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
    );
  // A resourceVersion in the Scale is a precondition on the workload, as on any update.
  const rv = (next.metadata?.resourceVersion as string | undefined) ?? current.metadata.resourceVersion;
  const updated = core.updateObject(
    r,
    {
      ...current,
      metadata: { ...current.metadata, resourceVersion: rv },
      spec: { ...(current.spec as object), replicas },
    },
    undefined,
    url.searchParams.get('dryRun') === 'All',
  );
  sendJson(res, 200, scaleOf(updated));
}
