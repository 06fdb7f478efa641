// Faults on demand, for tests and demos: `POST /sandbox/faults` (cluster-admin only) with a JSON
// body, e.g. `kubectl create --raw /sandbox/faults -f faults.json`. Every field is optional:
//   { "catalogUnhealthy": { "namespace": "olm", "name": "demo", "unhealthy": true },
//     "failNextInstallPlan": "image pull failed",
//     "dropWatches": true,
//     "errors": { "share": 0.2, "code": 500 },      // or 429, 503, 504, "reset"; share 0 turns it off
//     "latencyMs": 300,
//     "failCreate": { "resource": "subscriptions", "namespace": "x", "times": 1 },   // 500 on creates
//     "failDelete": { "resource": "clusterserviceversions", "namespace": "x", "times": 1 },  // and deletes
//     "packageserverUnavailable": true }
// `packageserverUnavailable` answers every request to packages.operators.coreos.com (discovery
// included) as kube-apiserver does while packageserver's APIService is registered but not
// Available (its pods down): a plain-text 503 `service unavailable`, after authentication and
// authorization (kube-aggregator handler_proxy.go); `false` serves it again.
// `errors` may also say `"retryAfterSeconds": N` (a Retry-After header on the failed answers) and
// `"after": true`: writes (POST, PUT, PATCH, DELETE) are carried out, and only then answered with
// the error or a closed connection, as when an API server loses the answer to a committed write.
// `"reset"` closes the connection without an answer. `failCreate` takes `"after": true` too, and
// may be a list (one entry per resource); a new `failCreate` replaces the previous ones. `failDelete`
// is the same for deletes: a real API server fails one when etcd does ("etcdserver: request timed
// out") or an admission webhook refuses it, and a client sees the same thing — the object stays.
// `GET /sandbox/faults` shows what is set.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Olm } from '../olm/olm';
import type { ApiServer, FaultAnswer } from './api-server';
import { readJsonBody, sendJson, sendStatus } from './http-util';

const FailCreate = z.object({
  resource: z.string().min(1),
  namespace: z.string().min(1).optional(),
  times: z.number().int().min(0).max(100),
  message: z.string().min(1).optional(),
  after: z.boolean().optional(),
});
type FailCreate = z.infer<typeof FailCreate>;

const FaultRequest = z
  .object({
    catalogUnhealthy: z
      .object({ namespace: z.string().min(1), name: z.string().min(1), unhealthy: z.boolean() })
      .optional(),
    failNextInstallPlan: z.string().min(1).optional(),
    dropWatches: z.boolean().optional(),
    errors: z
      .object({
        share: z.number().min(0).max(1),
        code: z.union([z.literal(500), z.literal(429), z.literal(503), z.literal(504), z.literal('reset')]),
        retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
        after: z.boolean().optional(),
      })
      .strict()
      .optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    // Fails the next creates of one resource (in one namespace): for testing what a client
    // does when a write in the middle of a sequence fails.
    failCreate: z.union([FailCreate, z.array(FailCreate).max(10)]).optional(),
    // The same for deletes: what a client does when one delete of several fails.
    failDelete: z.union([FailCreate, z.array(FailCreate).max(10)]).optional(),
    packageserverUnavailable: z.boolean().optional(),
  })
  .strict();

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Faults {
  private errorShare = 0;
  private errorCode: 500 | 429 | 503 | 504 | 'reset' = 500;
  private errorRetryAfter?: number;
  private errorAfter = false;
  private latency = 0;
  private failCreate: FailCreate[] = [];
  private failDelete: FailCreate[] = [];
  private packageserverDown = false;

  constructor(
    private readonly api: ApiServer,
    private readonly olm: Olm,
  ) {
    api.hooks.fault = (req) => {
      if ((req.url ?? '').startsWith('/sandbox/')) return undefined;
      const targeted = this.targetedFailure(req.method ?? '', req.url ?? '');
      if (targeted) return targeted;
      if (this.errorShare <= 0) return undefined;
      if (Math.random() >= this.errorShare) return undefined;
      return { ...this.errorAnswer(), after: this.errorAfter && WRITES.has(req.method ?? '') };
    };
    api.hooks.delayMs = () => this.latency;
    api.hooks.unavailableGroup = (group) => this.packageserverDown && group === 'packages.operators.coreos.com';
  }

  private errorAnswer(): FaultAnswer {
    const retryAfterSeconds = this.errorRetryAfter;
    switch (this.errorCode) {
      case 'reset':
        return { reset: true };
      case 429:
        return {
          code: 429,
          reason: 'TooManyRequests',
          message: 'the sandbox is throttling requests (fault injection); retry later',
          retryAfterSeconds,
        };
      case 503:
        return {
          code: 503,
          reason: 'ServiceUnavailable',
          message: 'Internal error occurred: injected by the sandbox fault settings',
          retryAfterSeconds,
        };
      case 504:
        return {
          code: 504,
          reason: 'Timeout',
          message:
            'Timeout: request did not complete within the allowed duration (injected by the sandbox fault settings)',
          retryAfterSeconds,
        };
      default:
        return {
          code: 500,
          reason: 'InternalError',
          message: 'Internal error occurred: injected by the sandbox fault settings',
          retryAfterSeconds,
        };
    }
  }

  private targetedFailure(method: string, url: string): FaultAnswer | undefined {
    if (method !== 'POST' && method !== 'DELETE') return undefined;
    const path = url.split('?')[0]!.split('/');
    // A create is sent to the collection, a delete to the object (one segment further).
    const plural = path[path.length - (method === 'POST' ? 1 : 2)];
    const nsAt = path.indexOf('namespaces');
    const namespace = nsAt >= 0 && nsAt < path.length - 2 ? path[nsAt + 1] : undefined;
    const rules = method === 'POST' ? this.failCreate : this.failDelete;
    const f = rules.find(
      (r) => r.times > 0 && plural === r.resource && (r.namespace === undefined || namespace === r.namespace),
    );
    if (!f) return undefined;
    f.times--;
    const verb = method === 'POST' ? 'creating' : 'deleting';
    return {
      code: 500,
      reason: 'InternalError',
      message: f.message ?? `Internal error occurred: ${verb} ${f.resource} failed (sandbox fault injection)`,
      after: f.after,
    };
  }

  state() {
    return {
      errors: {
        share: this.errorShare,
        code: this.errorCode,
        ...(this.errorRetryAfter !== undefined ? { retryAfterSeconds: this.errorRetryAfter } : {}),
        ...(this.errorAfter ? { after: true } : {}),
      },
      latencyMs: this.latency,
      failNextInstallPlan: this.olm.operators.failNextInstallPlan ?? null,
      failCreate:
        this.failCreate.length === 0 ? null : this.failCreate.length === 1 ? this.failCreate[0] : this.failCreate,
      failDelete:
        this.failDelete.length === 0 ? null : this.failDelete.length === 1 ? this.failDelete[0] : this.failDelete,
      packageserverUnavailable: this.packageserverDown,
    };
  }

  /** Applies a fault request; returns what happened, or an error message for a bad request. */
  apply(body: unknown): { ok: true; result: Record<string, unknown> } | { ok: false; message: string } {
    const parsed = FaultRequest.safeParse(body ?? {});
    if (!parsed.success)
      return {
        ok: false,
        message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      };
    const f = parsed.data;
    const result: Record<string, unknown> = {};
    if (f.catalogUnhealthy) {
      const { namespace, name, unhealthy } = f.catalogUnhealthy;
      if (!this.olm.catalogs.setBroken(namespace, name, unhealthy))
        return { ok: false, message: `no CatalogSource ${namespace}/${name} is served by the sandbox` };
      result.catalogUnhealthy = f.catalogUnhealthy;
    }
    if (f.failNextInstallPlan) this.olm.operators.failNextInstallPlan = f.failNextInstallPlan;
    if (f.dropWatches) result.droppedWatches = this.api.dropWatches();
    if (f.errors) {
      this.errorShare = f.errors.share;
      this.errorCode = f.errors.code;
      this.errorRetryAfter = f.errors.retryAfterSeconds;
      this.errorAfter = f.errors.after ?? false;
    }
    if (f.latencyMs !== undefined) this.latency = f.latencyMs;
    if (f.failCreate)
      this.failCreate = (Array.isArray(f.failCreate) ? f.failCreate : [f.failCreate]).map((r) => ({ ...r }));
    if (f.packageserverUnavailable !== undefined) this.packageserverDown = f.packageserverUnavailable;
    if (f.failDelete)
      this.failDelete = (Array.isArray(f.failDelete) ? f.failDelete : [f.failDelete]).map((r) => ({ ...r }));
    return { ok: true, result: { ...result, ...this.state() } };
  }

  /** Serves /sandbox/faults; the caller has authenticated the request as an admin. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET') return sendJson(res, 200, this.state());
    if (req.method !== 'POST') return sendStatus(res, 405, 'MethodNotAllowed', 'use GET or POST on /sandbox/faults');
    const out = this.apply(await readJsonBody(req));
    if (!out.ok) return sendStatus(res, 400, 'BadRequest', out.message);
    sendJson(res, 200, out.result);
  }
}
