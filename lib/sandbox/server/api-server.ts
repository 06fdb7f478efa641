// The sandbox's Kubernetes API: discovery, CRUD, patch, watch, selectors, paging, Table output,
// bearer-token authentication and RBAC, on top of the Store. It follows the API server where a
// client can see it: paths, Status errors and their words, resourceVersion rules, watch events.
// This file authenticates, authorizes and routes; the work is in its parts: discovery.ts,
// reads.ts, watch-streams.ts, write-handlers.ts and object-lifecycle.ts, reviews.ts, and the
// garbage collector (garbage-collector.ts), all given the ApiCore this server is.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PatchError } from '../apimachinery/patch';
import { SelectorError } from '../apimachinery/selectors';
import { authorize, forbiddenMessage, type RbacSource, type RequestAttributes, type UserInfo } from '../auth/rbac';
import { Store } from '../store/store';
import { StoreError, type KObject } from '../store/types';
import type { ApiCore, ApiHooks, DeleteOptions } from './api-core';
import { serveNonResource, type ServerVersion } from './discovery';
import { answerFault, loseAnswer } from './fault-answers';
import { GarbageCollector } from './garbage-collector';
import { ApiStatusError, sendMethodNotAllowed, sendNoSuchPath, sendStatus } from './http-util';
import { ObjectLifecycle } from './object-lifecycle';
import { acceptPortForward, refuseUpgrade } from './port-forward';
import { serveGet, serveList, serveProvided } from './reads';
import { parseResourcePath, requestVerb } from './resource-path';
import { serveReview } from './reviews';
import { serveScale } from './scale';
import { sendNoSuchSubresource, sendPageNotFound, sendUnrouted } from './unrouted';
import { actingUser } from './impersonation';
import { CRD_RESOURCE, ResourceTable, storeKey, type ServedResource } from './resources';
import { WatchStreams } from './watch-streams';
import { serveCreate, serveDelete, serveDeleteCollection, servePatch, serveUpdate } from './write-handlers';

export type { ApiHooks } from './api-core';
export type { FaultAnswer } from './fault-answers';

export interface ApiServerOptions {
  store: Store;
  /** Bearer token → user. */
  tokens: ReadonlyMap<string, UserInfo>;
  version?: ServerVersion;
}

export class ApiServer implements ApiCore {
  readonly resources = new ResourceTable();
  readonly hooks: ApiHooks = {};
  readonly store: Store;
  private readonly tokens: ReadonlyMap<string, UserInfo>;
  private readonly watches = new WatchStreams();
  private readonly gc = new GarbageCollector(this);
  private readonly objects = new ObjectLifecycle(this, this.gc);
  readonly version: ServerVersion;
  private gcTimer?: NodeJS.Timeout;

  constructor(opts: ApiServerOptions) {
    this.store = opts.store;
    this.tokens = opts.tokens;
    this.version = opts.version ?? { major: '1', minor: '32', gitVersion: 'v1.32.0-olm-sandbox' };
    this.syncCrds();
  }

  /** Starts the background sweeps (garbage collection, namespace finalization). */
  start(): void {
    this.gcTimer = setInterval(() => this.sweep(), 300);
    this.gcTimer.unref();
  }

  stop(): void {
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.watches.endAll();
  }

  /** Ends every open watch stream (fault injection); clients must reconnect and resume. */
  dropWatches(): number {
    return this.watches.dropAll();
  }

  get rbac(): RbacSource {
    const rk = (resource: string) => this.resources.find('rbac.authorization.k8s.io', 'v1', resource)!;
    return {
      roles: (ns) => this.store.list(storeKey(rk('roles')), { namespace: ns }).items,
      roleBindings: (ns) => this.store.list(storeKey(rk('rolebindings')), { namespace: ns }).items,
      clusterRoles: () => this.store.list(storeKey(rk('clusterroles'))).items,
      clusterRoleBindings: () => this.store.list(storeKey(rk('clusterrolebindings'))).items,
    };
  }

  /** Re-reads the CRDs from the store and marks new ones Established. */
  syncCrds(): void {
    const key = storeKey(CRD_RESOURCE);
    const crds = this.store.list(key).items;
    for (const crd of crds) {
      const status = crd.status as { conditions?: { type: string }[] } | undefined;
      if (crd.metadata.deletionTimestamp || status?.conditions?.some((c) => c.type === 'Established')) continue;
      const names = (crd.spec as { names?: unknown }).names;
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      this.store.update(
        key,
        {
          ...crd,
          status: {
            acceptedNames: names,
            storedVersions: [
              ((crd.spec as { versions?: { name: string; storage?: boolean }[] }).versions ?? []).find((v) => v.storage)
                ?.name ?? '',
            ],
            conditions: [
              {
                type: 'NamesAccepted',
                status: 'True',
                reason: 'NoConflicts',
                message: 'no conflicts found',
                lastTransitionTime: now,
              },
              {
                type: 'Established',
                status: 'True',
                reason: 'InitialNamesAccepted',
                message: 'the initial names have been accepted',
                lastTransitionTime: now,
              },
            ],
          },
        },
        { subresource: 'status' },
      );
    }
    this.resources.setCrds(this.store.list(key).items);
  }

  /** HTTP upgrades: only pods/portforward over WebSockets (kubectl port-forward, the console). */
  handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const user = this.authenticate(req);
    if (!user) return refuseUpgrade(socket, 401, 'Unauthorized', 'Unauthorized');
    const rp = parseResourcePath(url.pathname.replace(/\/+$/, ''));
    if (
      !rp ||
      rp.group !== '' ||
      rp.resource !== 'pods' ||
      rp.subresource !== 'portforward' ||
      !rp.namespace ||
      !rp.name
    ) {
      return refuseUpgrade(
        socket,
        400,
        'BadRequest',
        `the sandbox upgrades only pods/portforward requests, not ${url.pathname}`,
      );
    }
    const attrs: RequestAttributes = {
      verb: 'create',
      group: '',
      resource: 'pods',
      subresource: 'portforward',
      namespace: rp.namespace,
      name: rp.name,
    };
    if (!authorize(this.rbac, user, attrs))
      return refuseUpgrade(socket, 403, 'Forbidden', forbiddenMessage(user, attrs));
    const pods = this.resources.find('', 'v1', 'pods')!;
    if (!this.storeGet(pods, rp.namespace, rp.name))
      return refuseUpgrade(socket, 404, 'NotFound', `pods "${rp.name}" not found`);
    const ports = url.searchParams.getAll('ports').flatMap((p) => p.split(','));
    const port = Number(ports[0]);
    if (ports.length !== 1 || !Number.isInteger(port) || port < 1 || port > 65535) {
      return refuseUpgrade(
        socket,
        400,
        'BadRequest',
        'give exactly one port to forward (?ports=N); the sandbox forwards one port per connection',
      );
    }
    const target = this.hooks.portForward?.(rp.namespace, rp.name, port);
    if (!target || 'error' in target)
      return refuseUpgrade(
        socket,
        400,
        'BadRequest',
        target?.error ?? `pod ${rp.namespace}/${rp.name} has no container listening on port ${port} in the sandbox`,
      );
    acceptPortForward(req, socket, head, port, target.port);
  };

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const delay = this.hooks.delayMs?.() ?? 0;
    const run = () =>
      this.route(req, res).catch((err: unknown) => {
        if (res.headersSent) {
          res.end();
          return;
        }
        if (err instanceof ApiStatusError) sendStatus(res, err.code, err.reason, err.message, err.details);
        else if (err instanceof StoreError)
          sendStatus(res, err.code, err.reason === 'Gone' ? 'Expired' : err.reason, err.message, err.details);
        else if (err instanceof SelectorError) sendStatus(res, 400, 'BadRequest', err.message);
        else if (err instanceof PatchError)
          sendStatus(res, err.code, err.code === 400 ? 'BadRequest' : 'Invalid', err.message, err.details);
        else sendStatus(res, 500, 'InternalError', `Internal error occurred: ${(err as Error).message}`);
      });
    if (delay > 0) setTimeout(run, delay);
    else void run();
  };

  private authenticate(req: IncomingMessage): UserInfo | undefined {
    const h = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    const user = m ? this.tokens.get(m[1]!) : undefined;
    return user ? { name: user.name, groups: [...user.groups, 'system:authenticated'] } : undefined;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/healthz' || path === '/readyz' || path === '/livez') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    const fault = this.hooks.fault?.(req);
    if (fault && !fault.after) return answerFault(req, res, fault);
    if (fault) loseAnswer(req, res, fault);

    const authenticated = this.authenticate(req);
    if (!authenticated) return sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
    const user = actingUser(this.rbac, authenticated, req.headers);

    if (path.startsWith('/sandbox/') && this.hooks.sandboxPath) {
      if (!authorize(this.rbac, user, { verb: '*', group: '*', resource: '*' }))
        return sendStatus(res, 403, 'Forbidden', `forbidden: only cluster-admins may use ${path}`);
      return this.hooks.sandboxPath(req, res, path);
    }
    const rp = parseResourcePath(path);
    if (!rp) {
      if (!authorize(this.rbac, user, { verb: (req.method ?? 'GET').toLowerCase(), group: '', resource: '', path })) {
        return sendStatus(res, 403, 'Forbidden', `forbidden: User "${user.name}" cannot get path "${path}"`, {});
      }
      const gv = /^\/apis\/([^/]+)\/[^/]+$/.exec(path);
      if (gv && this.hooks.unavailableGroup?.(gv[1]!)) return sendServiceUnavailable(res);
      return serveNonResource(this.resources, this.version, path, res);
    }

    const method = req.method ?? 'GET';
    const isWatch = method === 'GET' && !rp.name && ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    const verb = requestVerb(method, rp, isWatch);
    // As kube-apiserver's RequestInfo does: /api/v1/namespaces/<n> is authorized in namespace
    // <n>, so a RoleBinding there can grant reading one's own namespace.
    const ownNamespace = rp.group === '' && rp.resource === 'namespaces' && rp.name ? rp.name : undefined;
    const attrs: RequestAttributes = {
      // A method with no verb of its own is authorized as its lowercased name, as RequestInfo does.
      verb: verb ?? method.toLowerCase(),
      group: rp.group,
      resource: rp.resource,
      subresource: rp.subresource,
      namespace: rp.namespace ?? ownNamespace,
      name: rp.name,
    };
    const served = this.resources.find(rp.group, rp.version, rp.resource);
    // kube-apiserver authorizes a request from its path alone, before it looks for the API: a
    // person who may not list a kind is refused (403) whether or not the cluster serves it, and
    // only someone who may is told it is not there (404) or that the method is not allowed (405).
    // Reviews (virtual) are for everyone and authorize what they ask about themselves.
    if (!served?.virtual && !authorize(this.rbac, user, attrs))
      return sendStatus(res, 403, 'Forbidden', forbiddenMessage(user, attrs), {
        name: rp.name ?? '',
        group: rp.group,
        kind: rp.resource,
      });
    if (!served) return sendUnrouted(res, this.resources, rp.group, rp.version);
    if (
      rp.subresource &&
      !(rp.subresource === 'status' && served.hasStatus) &&
      !(rp.subresource === 'scale' && served.scale) &&
      !(served.resource === 'namespaces' && rp.subresource === 'finalize') &&
      !served.provider?.subresources?.includes(rp.subresource)
    ) {
      return sendNoSuchSubresource(res, served, rp.name!);
    }
    // A cluster-scoped kind has no namespaced path. kube-apiserver has no route for it: a built-in
    // answers its usual 404 Status, a CRD's kind falls through the CRD handler to Go's plain
    // http.NotFound (compared with the real cluster by conformance's errors checks).
    if (!served.namespaced && rp.namespace !== undefined) {
      return served.crd ? sendPageNotFound(res) : sendNoSuchPath(res);
    }

    if (!verb)
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource`,
      );
    if (!served.verbs.includes(verb))
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource`,
      );

    if (served.virtual) return serveReview(this.rbac, served, rp, req, res, user);
    if (this.hooks.unavailableGroup?.(rp.group)) return sendServiceUnavailable(res);
    if (served.provider) return serveProvided(served, rp, verb, url, req, res);
    if (rp.subresource === 'scale' && rp.name) {
      if (!['get', 'update', 'patch'].includes(verb)) return sendMethodNotAllowed(res);
      return serveScale(this, served, { ...rp, name: rp.name }, verb, url, req, res);
    }

    switch (verb) {
      case 'get':
        return serveGet(this.store, served, rp, req, res);
      case 'list':
        return serveList(this.store, served, rp, url, req, res);
      case 'watch':
        return this.watches.serve(this.store, served, rp, url, req, res);
      case 'create':
        return serveCreate(this, served, rp, url, req, res, user);
      case 'update':
        return serveUpdate(this, served, rp, url, req, res, user);
      case 'patch':
        return servePatch(this, served, rp, url, req, res, user);
      case 'delete':
        return serveDelete(this, served, rp, url, req, res);
      case 'deletecollection':
        return serveDeleteCollection(this, served, rp, url, req, res);
    }
  }

  /** The stored object, for controllers. */
  storeGet(r: ServedResource, namespace: string | undefined, name: string): KObject | undefined {
    return this.store.get(storeKey(r), r.namespaced ? namespace : undefined, name);
  }

  /** Stored objects of a resource, for controllers. */
  storeList(r: ServedResource, namespace?: string): KObject[] {
    return this.store.list(storeKey(r), { namespace }).items;
  }

  /** Creates an object as the API server would for a client (used by controllers too). */
  createObject(r: ServedResource, o: KObject, dryRun = false, version = r.versions[0]!): KObject {
    return this.objects.createObject(r, o, dryRun, version);
  }

  /** Replaces an object (or its status) as the API server would (used by controllers too). */
  updateObject(r: ServedResource, o: KObject, subresource?: string, dryRun = false, version = r.versions[0]!): KObject {
    return this.objects.updateObject(r, o, subresource, dryRun, version);
  }

  /** Deletes as the API server would, with propagation (used by controllers too). */
  deleteObject(r: ServedResource, namespace: string | undefined, name: string, opts: DeleteOptions = {}): KObject {
    return this.objects.deleteObject(r, namespace, name, opts);
  }

  /**
   * One pass of the controllers a real cluster runs for the API machinery (garbage-collector.ts).
   */
  sweep(): void {
    this.gc.sweep();
  }
}

/** kube-aggregator's answer for an APIService that is not Available: plain text, not a Status. */
function sendServiceUnavailable(res: ServerResponse): void {
  res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('service unavailable\n');
}
