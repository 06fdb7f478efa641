// The sandbox's Kubernetes API: discovery, CRUD, patch, watch, selectors, paging, Table output,
// bearer-token authentication and RBAC, on top of the Store. It follows the API server where a
// client can see it: paths, Status errors and their words, resourceVersion rules, watch events.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from '../apimachinery/patch';
import { crdSchemaErrors } from '../apimachinery/crd-schema';
import { applyDefaults, normalize, validate, type FieldError } from '../apimachinery/structural';
import { parseFieldSelector, parseLabelSelector, SelectorError } from '../apimachinery/selectors';
import { toTable } from '../apimachinery/table';
import {
  authorize,
  forbiddenMessage,
  rulesFor,
  type RbacSource,
  type RequestAttributes,
  type UserInfo,
} from '../auth/rbac';
import { keyId, qualifiedResource, Store } from '../store/store';
import { StoreError, type KObject, type WatchEvent } from '../store/types';
import { openApiGroupVersion, openApiRoot } from './openapi';
import { acceptPortForward, refuseUpgrade, type ForwardTarget } from './port-forward';
import {
  ApiStatusError,
  invalidName,
  invalidObject,
  randomSuffix,
  readJsonBody,
  sendJson,
  sendStatus,
  statusBody,
} from './http-util';
import { CRD_RESOURCE, ResourceTable, storeKey, type ServedResource } from './resources';
import { celErrors } from '../olm-v1/cel/rules';

const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
const isCrd = (r: ServedResource) => r.group === CRD_RESOURCE.group && r.resource === CRD_RESOURCE.resource;

export interface ApiServerOptions {
  store: Store;
  /** Bearer token → user. */
  tokens: ReadonlyMap<string, UserInfo>;
  version?: { major: string; minor: string; gitVersion: string };
}

interface ResourcePath {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/**
 * A failed answer (fault injection): a Status (with `Retry-After` when set), or the connection
 * closed with no answer (`reset`). With `after`, the request is carried out first and only its
 * answer is lost, as when an API server times out after etcd committed a write.
 */
export type FaultAnswer = (
  { code: number; reason: string; message: string; retryAfterSeconds?: number } | { reset: true }
) & { after?: boolean };

function answerFault(req: IncomingMessage, res: ServerResponse, fault: FaultAnswer): void {
  if ('reset' in fault) {
    req.socket.destroy();
    return;
  }
  if (fault.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(fault.retryAfterSeconds));
  sendStatus(res, fault.code, fault.reason, fault.message);
}

/** Lets the request run, then answers the fault instead of what the handler wrote. */
function loseAnswer(req: IncomingMessage, res: ServerResponse, fault: FaultAnswer): void {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  res.writeHead = function (this: ServerResponse) {
    return this;
  } as typeof res.writeHead;
  res.write = (() => true) as typeof res.write;
  res.end = function (this: ServerResponse) {
    Object.assign(res, original);
    for (const h of res.getHeaderNames()) res.removeHeader(h);
    answerFault(req, res, fault);
    return this;
  } as typeof res.end;
}

/** Hooks the OLM emulation (part 2) and fault injection attach to. */
export interface ApiHooks {
  /** Called after every committed change, with the resource it belongs to. */
  onChange?: (r: ServedResource, e: WatchEvent) => void;
  /** Return how to fail the request (fault injection), or undefined. */
  fault?: (req: IncomingMessage) => FaultAnswer | undefined;
  /** Extra latency (fault injection). */
  delayMs?: () => number;
  /** Sandbox-only paths under /sandbox/ (fault control), for cluster-admins. */
  sandboxPath?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;
  /**
   * Admission of a client's create, update or patch (controllers writing through the Store are
   * not admitted): throw an ApiStatusError to refuse. `may` asks the RBAC authorizer about the user.
   */
  admit?: (a: {
    resource: ServedResource;
    user: UserInfo;
    object: KObject;
    old?: KObject;
    may: (attrs: RequestAttributes) => boolean;
  }) => void;
  /** Where a pod's container port listens, for pods/portforward; undefined when the pod runs nothing. */
  portForward?: (namespace: string, pod: string, port: number) => ForwardTarget | undefined;
}

export class ApiServer {
  readonly resources = new ResourceTable();
  readonly hooks: ApiHooks = {};
  private readonly store: Store;
  private readonly tokens: ReadonlyMap<string, UserInfo>;
  private readonly openWatches = new Set<ServerResponse>();
  /** One serialisation per event and version, shared by every watcher that receives it. */
  private readonly eventJson = new WeakMap<object, Map<string, string>>();
  readonly version: { major: string; minor: string; gitVersion: string };
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
    for (const res of this.openWatches) res.end();
    this.openWatches.clear();
  }

  /** Ends every open watch stream (fault injection); clients must reconnect and resume. */
  dropWatches(): number {
    const n = this.openWatches.size;
    for (const res of this.openWatches) res.destroy();
    this.openWatches.clear();
    return n;
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
    const rp = this.parseResourcePath(url.pathname.replace(/\/+$/, ''));
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

    const user = this.authenticate(req);
    if (!user) return sendStatus(res, 401, 'Unauthorized', 'Unauthorized');

    if (path.startsWith('/sandbox/') && this.hooks.sandboxPath) {
      if (!authorize(this.rbac, user, { verb: '*', group: '*', resource: '*' }))
        return sendStatus(res, 403, 'Forbidden', `forbidden: only cluster-admins may use ${path}`);
      return this.hooks.sandboxPath(req, res, path);
    }
    const rp = this.parseResourcePath(path);
    if (!rp) {
      if (!authorize(this.rbac, user, { verb: (req.method ?? 'GET').toLowerCase(), group: '', resource: '', path })) {
        return sendStatus(res, 403, 'Forbidden', `forbidden: User "${user.name}" cannot get path "${path}"`);
      }
      return this.serveNonResource(path, res);
    }

    const served = this.resources.find(rp.group, rp.version, rp.resource);
    if (!served) return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
    if (
      rp.subresource &&
      !(rp.subresource === 'status' && served.hasStatus) &&
      !(served.resource === 'namespaces' && rp.subresource === 'finalize') &&
      !served.provider?.subresources?.includes(rp.subresource)
    ) {
      return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
    }
    // A cluster-scoped kind has no namespaced path. kube-apiserver has no route for it: a built-in
    // answers its usual 404 Status, a CRD's kind falls through the CRD handler to Go's plain
    // http.NotFound (compared with the real cluster by conformance's errors checks).
    if (!served.namespaced && rp.namespace !== undefined) {
      if (!served.crd) return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource', {});
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
      return;
    }

    const method = req.method ?? 'GET';
    const isWatch = method === 'GET' && !rp.name && ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    const verb =
      method === 'GET'
        ? rp.name
          ? 'get'
          : isWatch
            ? 'watch'
            : 'list'
        : method === 'POST'
          ? 'create'
          : method === 'PUT'
            ? 'update'
            : method === 'PATCH'
              ? 'patch'
              : method === 'DELETE'
                ? rp.name
                  ? 'delete'
                  : 'deletecollection'
                : undefined;
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

    // As kube-apiserver's RequestInfo does: /api/v1/namespaces/<n> is authorized in namespace
    // <n>, so a RoleBinding there can grant reading one's own namespace.
    const ownNamespace = rp.group === '' && rp.resource === 'namespaces' && rp.name ? rp.name : undefined;
    const attrs: RequestAttributes = {
      verb,
      group: rp.group,
      resource: rp.resource,
      subresource: rp.subresource,
      namespace: rp.namespace ?? ownNamespace,
      name: rp.name,
    };
    if (served.virtual) return this.serveReview(served, rp, req, res, user);
    if (!authorize(this.rbac, user, attrs))
      return sendStatus(res, 403, 'Forbidden', forbiddenMessage(user, attrs), {
        name: rp.name ?? '',
        group: rp.group,
        kind: rp.resource,
      });
    if (served.provider) return this.serveProvided(served, rp, verb, url, req, res);

    switch (verb) {
      case 'get':
        return this.get(served, rp, req, res);
      case 'list':
        return this.list(served, rp, url, req, res);
      case 'watch':
        return this.watch(served, rp, url, req, res);
      case 'create':
        return this.create(served, rp, url, req, res, user);
      case 'update':
        return this.update(served, rp, url, req, res, user);
      case 'patch':
        return this.patch(served, rp, url, req, res, user);
      case 'delete':
        return this.delete(served, rp, url, req, res);
      case 'deletecollection':
        return this.deleteCollection(served, rp, url, req, res);
    }
  }

  private parseResourcePath(path: string): ResourcePath | undefined {
    const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs.length >= 3) {
      group = '';
      version = segs[1]!;
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs.length >= 4) {
      group = segs[1]!;
      version = segs[2]!;
      rest = segs.slice(3);
    } else return undefined;
    if (
      rest[0] === 'namespaces' &&
      rest.length >= 3 &&
      !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize') && group === '')
    ) {
      return { group, version, namespace: rest[1], resource: rest[2]!, name: rest[3], subresource: rest[4] };
    }
    return { group, version, resource: rest[0]!, name: rest[1], subresource: rest[2] };
  }

  private serveNonResource(path: string, res: ServerResponse): void {
    if (path === '/version')
      return sendJson(res, 200, {
        ...this.version,
        emulationMajor: this.version.major,
        emulationMinor: this.version.minor,
        minCompatibilityMajor: this.version.major,
        minCompatibilityMinor: String(Number(this.version.minor) - 1),
        gitCommit: '0000000',
        gitTreeState: 'clean',
        buildDate: '2026-01-01T00:00:00Z',
        goVersion: 'go1.23',
        compiler: 'gc',
        platform: 'linux/amd64',
      });
    if (path === '/api')
      return sendJson(res, 200, {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
      });
    if (path === '/apis') {
      return sendJson(res, 200, {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: this.resources.groups().map((g) => this.groupJson(g.name, g.versions)),
      });
    }
    if (path === '/openapi/v3') return sendJson(res, 200, openApiRoot(this.resources));
    if (path.startsWith('/openapi/v3/')) {
      const doc = openApiGroupVersion(this.resources, path.slice('/openapi/v3/'.length), this.version.gitVersion);
      return doc
        ? sendJson(res, 200, doc)
        : sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
    }
    const segs = path.split('/').filter(Boolean);
    if (segs[0] === 'api' && segs.length === 2) {
      if (segs[1] !== 'v1') return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, this.resourceList('', 'v1'));
    }
    if (segs[0] === 'apis' && segs.length === 2) {
      const g = this.resources.groups().find((x) => x.name === segs[1]);
      if (!g) return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, { ...this.groupJson(g.name, g.versions), kind: 'APIGroup', apiVersion: 'v1' });
    }
    if (segs[0] === 'apis' && segs.length === 3) {
      const list = this.resourceList(segs[1]!, segs[2]!);
      if (list.resources.length === 0)
        return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, list);
    }
    return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
  }

  private groupJson(name: string, versions: string[]) {
    return {
      name,
      versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
    };
  }

  private resourceList(group: string, version: string) {
    const resources = this.resources
      .byGroup(group)
      .filter((r) => r.versions.includes(version))
      .sort((a, b) => a.resource.localeCompare(b.resource))
      .flatMap((r) => {
        const main = {
          name: r.resource,
          singularName: r.singular,
          namespaced: r.namespaced,
          kind: r.kind,
          verbs: r.verbs,
          ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
          ...(r.categories.length ? { categories: r.categories } : {}),
          storageVersionHash: Buffer.from(`${r.group}/${r.versions[0]}/${r.resource}`).toString('base64').slice(0, 11),
        };
        const subs = [];
        if (r.hasStatus)
          subs.push({
            name: `${r.resource}/status`,
            singularName: '',
            namespaced: r.namespaced,
            kind: r.kind,
            verbs: ['get', 'patch', 'update'],
          });
        for (const sub of r.provider?.subresources ?? [])
          subs.push({
            name: `${r.resource}/${sub}`,
            singularName: '',
            namespaced: r.namespaced,
            kind: r.kind,
            verbs: ['get'],
          });
        return [main, ...subs];
      });
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources,
    };
  }

  /** The object as the client asked for it: at the requested version. */
  private present(r: ServedResource, version: string, o: KObject): KObject {
    return { ...o, apiVersion: r.group ? `${r.group}/${version}` : version, kind: r.kind };
  }

  private wantsTable(req: IncomingMessage): boolean {
    return /as=Table/.test(req.headers.accept ?? '');
  }

  private get(r: ServedResource, rp: ResourcePath, req: IncomingMessage, res: ServerResponse): void {
    const o = this.store.get(storeKey(r), rp.namespace, rp.name!);
    if (!o)
      return sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${rp.name}" not found`, {
        name: rp.name,
        group: r.group,
        kind: r.resource,
      });
    const obj = this.present(r, rp.version, o);
    if (this.wantsTable(req))
      return sendJson(
        res,
        200,
        toTable([obj], r.columns, { resourceVersion: o.metadata.resourceVersion ?? '' }, 'Metadata', !!r.crd),
      );
    sendJson(res, 200, obj);
  }

  private filters(r: ServedResource, url: URL): (o: KObject) => boolean {
    const labels = parseLabelSelector(url.searchParams.get('labelSelector'));
    const fields = parseFieldSelector(url.searchParams.get('fieldSelector'), [
      'metadata.name',
      'metadata.namespace',
      ...(r.fieldSelectors ?? []),
    ]);
    return (o) => labels(o.metadata.labels) && fields(o as unknown as Record<string, unknown>);
  }

  private list(r: ServedResource, rp: ResourcePath, url: URL, req: IncomingMessage, res: ServerResponse): void {
    const limit = Number(url.searchParams.get('limit') ?? 0) || undefined;
    const result = this.store.list(storeKey(r), {
      namespace: rp.namespace,
      filter: this.filters(r, url),
      limit,
      continueToken: url.searchParams.get('continue') ?? undefined,
    });
    const items = result.items.map((o) => this.present(r, rp.version, o));
    // The API server counts what remains only when no selector filters the list.
    const filtered = !!(url.searchParams.get('labelSelector') || url.searchParams.get('fieldSelector'));
    const meta = {
      resourceVersion: result.resourceVersion,
      ...(result.continueToken ? { continue: result.continueToken } : {}),
      ...(result.remainingItemCount !== undefined && !filtered
        ? { remainingItemCount: result.remainingItemCount }
        : {}),
    };
    if (this.wantsTable(req))
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

  private watch(r: ServedResource, rp: ResourcePath, url: URL, req: IncomingMessage, res: ServerResponse): void {
    const filter = this.filters(r, url);
    const rvParam = url.searchParams.get('resourceVersion') ?? '';
    const table = this.wantsTable(req);
    const bookmarks = url.searchParams.get('allowWatchBookmarks') === 'true';
    const timeoutSeconds = Number(url.searchParams.get('timeoutSeconds') ?? 0) || 1800;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    // Clients wait for the headers before they read events; a resumed watch may have none yet.
    res.flushHeaders();
    this.openWatches.add(res);
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
        const obj = e.type === 'BOOKMARK' || e.type === 'ERROR' ? e.object : this.present(r, rp.version, e.object);
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
        for (const o of this.store.list(key, { namespace: rp.namespace, filter }).items)
          write({ type: 'ADDED', object: o });
        unwatch = this.store.watch(watcher);
      } else {
        const since = Number(rvParam);
        if (!Number.isInteger(since) || since < 0)
          throw new ApiStatusError(400, 'BadRequest', `invalid resource version: ${rvParam}`);
        unwatch = this.store.watch(watcher, since);
      }
    } catch (err) {
      const e =
        err instanceof StoreError && err.code === 410
          ? statusBody(410, 'Expired', err.message)
          : statusBody(400, 'BadRequest', (err as Error).message);
      flush();
      res.write(JSON.stringify({ type: 'ERROR', object: e }) + '\n');
      this.openWatches.delete(res);
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
                metadata: { resourceVersion: this.store.resourceVersion },
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
      this.openWatches.delete(res);
    };
    res.on('close', cleanup);
    res.on('finish', cleanup);
    res.on('error', cleanup);
  }

  /** Read-only resources computed by a provider: get and list (with the only field selector packageserver knows), Table output, GET subresources. */
  private serveProvided(
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
      if (!out)
        return sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${rp.name}" not found`, {
          name: rp.name,
          group: r.group,
          kind: r.resource,
        });
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
      if (!o)
        return sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${rp.name}" not found`, {
          name: rp.name,
          group: r.group,
          kind: r.resource,
        });
      if (this.wantsTable(req)) return sendJson(res, 200, toTable([o], r.columns, { resourceVersion: '' }));
      return sendJson(res, 200, o);
    }
    if (verb !== 'list')
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
    const filter = this.filters(r, url);
    const items = p.list(rp.namespace).filter(filter);
    if (this.wantsTable(req)) return sendJson(res, 200, toTable(items, r.columns, { resourceVersion: '' }));
    sendJson(res, 200, {
      kind: r.listKind,
      apiVersion: `${r.group}/${rp.version}`,
      metadata: { resourceVersion: '' },
      items,
    });
  }

  private objectFromBody(r: ServedResource, rp: ResourcePath, body: unknown): KObject {
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

  private invalid(r: ServedResource, name: string, field: string, message: string): ApiStatusError {
    return invalidObject(r.group, r.kind, name, [
      { type: 'FieldValueInvalid', field, value: name, hasValue: true, detail: message },
    ]);
  }

  /**
   * A custom resource as kube-apiserver decodes and validates it against its CRD's schema for
   * the version the client used: unknown fields pruned, nulls dropped, defaults applied (then
   * the storage version's defaults, as a read from storage would add them), and the field
   * errors the schema finds. Kinds without a schema (built-ins) are left as they are.
   */
  private conform(r: ServedResource, o: KObject, version: string, old?: KObject): FieldError[] {
    const schema = r.schemas?.[version];
    if (!schema) return [];
    normalize(o, schema);
    const storage = r.schemas?.[r.versions[0]!];
    if (storage && storage !== schema) applyDefaults(o, storage);
    // The CRD's CEL rules come after its OpenAPI validation, as kube-apiserver runs them.
    return [...validate(o, schema), ...celErrors(o, schema, old)];
  }

  /**
   * A CRD update's schema errors, less those the stored CRD already has at the same place: kube
   * never stores such a CRD, but the sandbox's data file may hold one written before it checked
   * patterns, and that CRD must still take a label or lose its finalizer (and so be deleted).
   */
  private newCrdSchemaErrors(o: KObject): FieldError[] {
    const stored = this.store.get(storeKey(CRD_RESOURCE), undefined, o.metadata.name ?? '');
    const key = (e: FieldError) => JSON.stringify([e.field, e.value]);
    const had = new Set(stored ? crdSchemaErrors(stored).map(key) : []);
    return crdSchemaErrors(o).filter((e) => !had.has(key(e)));
  }

  private requireNamespace(ns: string | undefined): void {
    if (!ns) throw new ApiStatusError(400, 'BadRequest', 'the namespace of the object must be set');
    const nsRes = this.resources.find('', 'v1', 'namespaces')!;
    const existing = this.store.get(storeKey(nsRes), undefined, ns);
    if (!existing)
      throw new ApiStatusError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });
    if (existing.metadata.deletionTimestamp) {
      throw new ApiStatusError(
        403,
        'Forbidden',
        `unable to create new content in namespace ${ns} because it is being terminated`,
      );
    }
  }

  private committed(r: ServedResource, type: WatchEvent['type'], object: KObject): void {
    if (r.resource === 'customresourcedefinitions' && r.group === 'apiextensions.k8s.io') this.syncCrds();
    this.hooks.onChange?.(r, { type, object });
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
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = `${o.metadata.generateName}${randomSuffix()}`;
    const name = o.metadata.name ?? '';
    if (!name)
      throw invalidObject(r.group, r.kind, '', [
        {
          type: 'FieldValueRequired',
          field: 'metadata.name',
          hasValue: false,
          detail: 'name or generateName is required',
        },
      ]);
    if (r.terminating)
      throw new ApiStatusError(
        403,
        'Forbidden',
        `${r.resource}.${r.group} "${name}" is forbidden: create not allowed while custom resource definition is terminating`,
        { name, group: r.group, kind: r.resource },
      );
    const bad = invalidName(
      name,
      r.resource === 'namespaces' ? 'label' : r.group === 'rbac.authorization.k8s.io' ? 'path-segment' : 'subdomain',
    );
    // Metadata errors come first, then the schema's, in one list, as the CRD strategy reports them.
    const errs: FieldError[] = bad
      ? [{ type: 'FieldValueInvalid', field: 'metadata.name', value: name, hasValue: true, detail: bad }]
      : [];
    errs.push(...this.conform(r, o, version));
    if (isCrd(r)) errs.push(...crdSchemaErrors(o));
    if (errs.length) throw invalidObject(r.group, r.kind, name, errs);
    if (r.namespaced) this.requireNamespace(o.metadata.namespace);
    if (r.kind === 'Secret' && r.group === '' && !o.type) o.type = 'Opaque';
    if (r.resource === 'namespaces' && r.group === '') {
      o.spec = { finalizers: ['kubernetes'], ...(o.spec as object | undefined) };
      o.status = { phase: 'Active' };
      o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': name };
    }
    const created = this.store.create(storeKey(r), o, { dryRun });
    if (!dryRun) this.committed(r, 'ADDED', created);
    return created;
  }

  private admit(r: ServedResource, user: UserInfo, object: KObject, old?: KObject): void {
    this.hooks.admit?.({ resource: r, user, object, old, may: (attrs) => authorize(this.rbac, user, attrs) });
  }

  private async create(
    r: ServedResource,
    rp: ResourcePath,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
  ): Promise<void> {
    if (rp.name)
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
    const o = this.objectFromBody(r, rp, await readJsonBody(req));
    // As the API server's strategies do for kinds with a status subresource: a client cannot
    // create an object with a status of its choosing; its controllers write status.
    if (r.hasStatus) delete o.status;
    this.admit(r, user, o);
    const created = this.createObject(r, o, url.searchParams.get('dryRun') === 'All', rp.version);
    sendJson(res, 201, this.present(r, rp.version, created));
  }

  /** Replaces an object (or its status) as the API server would (used by controllers too). */
  updateObject(r: ServedResource, o: KObject, subresource?: string, dryRun = false, version = r.versions[0]!): KObject {
    const stored = this.store.get(storeKey(r), r.namespaced ? o.metadata.namespace : undefined, o.metadata.name ?? '');
    const errs = this.conform(r, o, version, stored);
    if (isCrd(r) && subresource !== 'status') errs.push(...this.newCrdSchemaErrors(o));
    if (errs.length) throw invalidObject(r.group, r.kind, o.metadata.name ?? '', errs);
    const before = stored?.metadata.resourceVersion;
    const updated = this.store.update(storeKey(r), o, {
      subresource: subresource === 'status' ? 'status' : undefined,
      dryRun,
    });
    // A no-op update changes nothing and wakes no controller, as on a real API server.
    if (!dryRun && updated.metadata.resourceVersion !== before)
      this.committed(
        r,
        updated.metadata.deletionTimestamp &&
          !this.store.get(storeKey(r), updated.metadata.namespace, updated.metadata.name ?? '')
          ? 'DELETED'
          : 'MODIFIED',
        updated,
      );
    return updated;
  }

  private async update(
    r: ServedResource,
    rp: ResourcePath,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
  ): Promise<void> {
    if (!rp.name)
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
    const o = this.objectFromBody(r, rp, await readJsonBody(req));
    if (o.metadata.name && o.metadata.name !== rp.name) {
      throw new ApiStatusError(
        400,
        'BadRequest',
        `the name of the object (${o.metadata.name}) does not match the name on the URL (${rp.name})`,
      );
    }
    o.metadata.name = rp.name;
    const current = this.store.get(storeKey(r), rp.namespace, rp.name);
    if (!current)
      return sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${rp.name}" not found`, {
        name: rp.name,
        group: r.group,
        kind: r.resource,
      });
    if (rp.subresource !== 'status') this.admit(r, user, o, current);
    const updated = this.updateObject(r, o, rp.subresource, url.searchParams.get('dryRun') === 'All', rp.version);
    sendJson(res, 200, this.present(r, rp.version, updated));
  }

  private async patch(
    r: ServedResource,
    rp: ResourcePath,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
  ): Promise<void> {
    if (!rp.name)
      return sendStatus(
        res,
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
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
    const current = this.store.get(storeKey(r), rp.namespace, rp.name);
    if (!current)
      return sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${rp.name}" not found`, {
        name: rp.name,
        group: r.group,
        kind: r.resource,
      });
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
    if (rp.subresource !== 'status') this.admit(r, user, o, current);
    const updated = this.updateObject(r, o, rp.subresource, url.searchParams.get('dryRun') === 'All', rp.version);
    sendJson(res, 200, this.present(r, rp.version, updated));
  }

  /** Deletes as the API server would, with propagation (used by controllers too). */
  deleteObject(
    r: ServedResource,
    namespace: string | undefined,
    name: string,
    opts: { propagationPolicy?: string; uid?: string; resourceVersion?: string; dryRun?: boolean } = {},
  ): KObject {
    const key = storeKey(r);
    const current = this.store.get(key, namespace, name);
    if (!current)
      throw new ApiStatusError(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, {
        name,
        group: r.group,
        kind: r.resource,
      });
    const policy = opts.propagationPolicy ?? 'Background';
    if (!opts.dryRun && r.resource === 'namespaces' && r.group === '' && !current.metadata.deletionTimestamp) {
      // The namespace controller empties a namespace before it goes; until then it is Terminating.
      const terminating = {
        ...current,
        metadata: {
          ...current.metadata,
          finalizers: [...new Set([...(current.metadata.finalizers ?? []), 'kubernetes'])],
        },
        status: { phase: 'Terminating' },
      };
      this.store.update(key, terminating, {});
      this.store.update(
        key,
        { ...this.store.get(key, undefined, name)!, status: { phase: 'Terminating' } },
        { subresource: 'status' },
      );
    }
    if (
      !opts.dryRun &&
      isCrd(r) &&
      !current.metadata.deletionTimestamp &&
      !current.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)
    ) {
      // kube-apiserver's CRD storage adds this finalizer on delete; its CRD finalizer controller
      // (sweep) deletes every instance, then removes it.
      this.store.update(
        key,
        {
          ...current,
          metadata: {
            ...current.metadata,
            finalizers: [...(current.metadata.finalizers ?? []), CRD_CLEANUP_FINALIZER],
          },
        },
        {},
      );
      const marked = this.store.get(key, undefined, name)!;
      const st = (marked.status ?? {}) as { conditions?: { type: string }[] };
      const pending = {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
      this.store.update(
        key,
        {
          ...marked,
          status: { ...st, conditions: [...(st.conditions ?? []).filter((c) => c.type !== 'Terminating'), pending] },
        },
        { subresource: 'status' },
      );
    }
    if (!opts.dryRun && policy === 'Orphan') this.orphanDependents(current.metadata.uid ?? '');
    if (!opts.dryRun && policy === 'Foreground' && this.hasDependents(current.metadata.uid ?? '')) {
      const fin = {
        ...current,
        metadata: {
          ...current.metadata,
          finalizers: [...new Set([...(current.metadata.finalizers ?? []), 'foregroundDeletion'])],
        },
      };
      this.store.update(key, fin, {});
    }
    const { object, deleted } = this.store.delete(key, namespace, name, {
      uid: opts.uid,
      resourceVersion: opts.resourceVersion,
      dryRun: opts.dryRun,
    });
    if (!opts.dryRun) {
      this.committed(r, deleted ? 'DELETED' : 'MODIFIED', object);
      this.sweep();
    }
    return object;
  }

  private deleteOptions(url: URL, body: unknown) {
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

  private async delete(
    r: ServedResource,
    rp: ResourcePath,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const opts = this.deleteOptions(url, await readJsonBody(req));
    const object = this.deleteObject(r, rp.namespace, rp.name!, opts);
    sendJson(res, 200, this.present(r, rp.version, object));
  }

  private async deleteCollection(
    r: ServedResource,
    rp: ResourcePath,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const opts = this.deleteOptions(url, await readJsonBody(req));
    const items = this.store.list(storeKey(r), { namespace: rp.namespace, filter: this.filters(r, url) }).items;
    const out = items.map((o) =>
      this.present(
        r,
        rp.version,
        this.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', {
          ...opts,
          uid: undefined,
          resourceVersion: undefined,
        }),
      ),
    );
    sendJson(res, 200, {
      kind: r.listKind,
      apiVersion: r.group ? `${r.group}/${rp.version}` : rp.version,
      metadata: { resourceVersion: this.store.resourceVersion },
      items: out,
    });
  }

  private async serveReview(
    r: ServedResource,
    rp: ResourcePath,
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
  ): Promise<void> {
    const body = ((await readJsonBody(req)) ?? {}) as { spec?: Record<string, unknown> };
    const spec = body.spec ?? {};
    const apiVersion = `${r.group}/${rp.version}`;
    if (r.resource === 'selfsubjectreviews') {
      return sendJson(res, 201, {
        kind: r.kind,
        apiVersion,
        metadata: { creationTimestamp: null },
        status: { userInfo: { username: user.name, groups: user.groups } },
      });
    }
    if (r.resource === 'selfsubjectaccessreviews' || r.resource === 'subjectaccessreviews') {
      let subject = user;
      if (r.resource === 'subjectaccessreviews') {
        if (!authorize(this.rbac, user, { verb: 'create', group: r.group, resource: r.resource })) {
          return sendStatus(
            res,
            403,
            'Forbidden',
            forbiddenMessage(user, { verb: 'create', group: r.group, resource: r.resource }),
          );
        }
        subject = {
          name: String(spec.user ?? ''),
          groups: [...((spec.groups as string[] | undefined) ?? []), 'system:authenticated'],
        };
      }
      const ra = spec.resourceAttributes as
        | { verb?: string; group?: string; resource?: string; subresource?: string; namespace?: string; name?: string }
        | undefined;
      const nra = spec.nonResourceAttributes as { verb?: string; path?: string } | undefined;
      if (!ra && !nra)
        return sendStatus(
          res,
          422,
          'Invalid',
          `${r.kind}.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified`,
        );
      const attrs: RequestAttributes = ra
        ? {
            verb: ra.verb ?? '',
            group: ra.group ?? '',
            resource: ra.resource ?? '',
            subresource: ra.subresource || undefined,
            namespace: ra.namespace || undefined,
            name: ra.name || undefined,
          }
        : { verb: nra!.verb ?? '', group: '', resource: '', path: nra!.path ?? '' };
      const allowed = authorize(this.rbac, subject, attrs);
      return sendJson(res, 201, {
        kind: r.kind,
        apiVersion,
        metadata: { creationTimestamp: null },
        spec,
        status: allowed
          ? { allowed: true, reason: 'allowed by the sandbox RBAC rules' }
          : { allowed: false, reason: forbiddenMessage(subject, attrs) },
      });
    }
    // SelfSubjectRulesReview
    const namespace = String(spec.namespace ?? '');
    if (!namespace)
      return sendStatus(
        res,
        422,
        'Invalid',
        'SelfSubjectRulesReview.authorization.k8s.io "" is invalid: spec.namespace: Required value: no namespace on request',
      );
    const rules = user.groups.includes('system:masters')
      ? [
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
          { verbs: ['*'], nonResourceURLs: ['*'] },
        ]
      : rulesFor(this.rbac, user, namespace);
    return sendJson(res, 201, {
      kind: r.kind,
      apiVersion,
      metadata: { creationTimestamp: null },
      spec,
      status: {
        resourceRules: rules
          .filter((x) => !x.nonResourceURLs)
          .map((x) => ({
            verbs: x.verbs ?? [],
            apiGroups: x.apiGroups ?? [],
            resources: x.resources ?? [],
            ...(x.resourceNames ? { resourceNames: x.resourceNames } : {}),
          })),
        nonResourceRules: rules
          .filter((x) => x.nonResourceURLs)
          .map((x) => ({ verbs: x.verbs ?? [], nonResourceURLs: x.nonResourceURLs ?? [] })),
        incomplete: false,
      },
    });
  }

  // ---- garbage collection and namespace finalization ----

  private allObjects(): { r: ServedResource; o: KObject }[] {
    const out: { r: ServedResource; o: KObject }[] = [];
    for (const r of this.resources.all()) {
      if (r.virtual || r.provider) continue;
      for (const o of this.store.scan(keyId(storeKey(r)))) out.push({ r, o });
    }
    return out;
  }

  private hasDependents(uid: string): boolean {
    return this.allObjects().some(({ o }) => o.metadata.ownerReferences?.some((ref) => ref.uid === uid));
  }

  private orphanDependents(uid: string): void {
    for (const { r, o } of this.allObjects()) {
      if (!o.metadata.ownerReferences?.some((ref) => ref.uid === uid)) continue;
      const fresh = this.store.get(storeKey(r), o.metadata.namespace, o.metadata.name ?? '')!;
      fresh.metadata.ownerReferences = fresh.metadata.ownerReferences?.filter((ref) => ref.uid !== uid);
      if (!fresh.metadata.ownerReferences?.length) delete fresh.metadata.ownerReferences;
      this.updateObject(r, fresh);
    }
  }

  /**
   * The CRD finalizer controller (apiextensions-apiserver's crd_finalizer.go): a deleted CRD says
   * `Terminating=True` (InstanceDeletionInProgress) while its instances are deleted — each one's
   * own finalizers honoured — then `Terminating=False` (InstanceDeletionCompleted) and lets go.
   * kube-apiserver gives up waiting after a minute and tries again; the sandbox simply waits.
   * Answers whether it removed the finalizer.
   */
  private cleanUpCrd(crd: KObject): boolean {
    const spec = crd.spec as { group?: string; names?: { plural?: string } };
    const instances = this.allObjects().filter(({ r }) => r.group === spec.group && r.resource === spec.names?.plural);
    for (const { r, o } of instances) {
      if (!o.metadata.deletionTimestamp)
        this.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', { propagationPolicy: 'Background' });
    }
    const left = this.allObjects().some(({ r }) => r.group === spec.group && r.resource === spec.names?.plural);
    const condition = left
      ? {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        }
      : { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    const key = storeKey(CRD_RESOURCE);
    const cur = this.store.get(key, undefined, crd.metadata.name ?? '');
    if (!cur) return false;
    const st = (cur.status ?? {}) as {
      conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
    };
    const prev = st.conditions?.find((c) => c.type === 'Terminating');
    if (!prev || prev.status !== condition.status || prev.reason !== condition.reason) {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const conditions = [
        ...(st.conditions ?? []).filter((c) => c.type !== 'Terminating'),
        { ...condition, lastTransitionTime: prev?.status === condition.status ? prev.lastTransitionTime : now },
      ];
      this.updateObject(CRD_RESOURCE, { ...cur, status: { ...st, conditions } }, 'status');
    }
    if (left) return false;
    const fresh = this.store.get(key, undefined, crd.metadata.name ?? '');
    if (!fresh) return false;
    this.updateObject(CRD_RESOURCE, {
      ...fresh,
      metadata: {
        ...fresh.metadata,
        finalizers: (fresh.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER),
      },
    });
    return true;
  }

  /**
   * One pass of the controllers a real cluster runs for the API machinery: dependents whose
   * owners are all gone are deleted, references to gone owners dropped from the others; foreground deletions finish when their dependents are gone;
   * terminating namespaces are emptied and then removed.
   */
  sweep(): void {
    for (let pass = 0; pass < 5; pass++) {
      const all = this.allObjects();
      const live = new Set(all.map(({ o }) => o.metadata.uid));
      let changed = false;
      for (const { r, o } of all) {
        const refs = o.metadata.ownerReferences ?? [];
        if (refs.length && refs.every((ref) => !live.has(ref.uid)) && !o.metadata.deletionTimestamp) {
          try {
            this.deleteObject(r, o.metadata.namespace, o.metadata.name ?? '', { propagationPolicy: 'Background' });
            changed = true;
          } catch (err) {
            if (!(err instanceof ApiStatusError && err.code === 404)) throw err;
          }
        } else if (refs.some((ref) => !live.has(ref.uid)) && !o.metadata.deletionTimestamp) {
          // Some owners left: the garbage collector only drops the references to the gone ones.
          const fresh = this.store.get(storeKey(r), o.metadata.namespace, o.metadata.name ?? '');
          if (!fresh) continue;
          const kept = (fresh.metadata.ownerReferences ?? []).filter((ref) => live.has(ref.uid));
          if (!kept.length) continue;
          this.updateObject(r, { ...fresh, metadata: { ...fresh.metadata, ownerReferences: kept } });
          changed = true;
        }
      }
      for (const { r, o } of this.allObjects()) {
        if (!o.metadata.deletionTimestamp) continue;
        const uid = o.metadata.uid ?? '';
        if (o.metadata.finalizers?.includes('foregroundDeletion')) {
          const deps = this.allObjects().filter(({ o: d }) =>
            d.metadata.ownerReferences?.some((ref) => ref.uid === uid),
          );
          for (const d of deps)
            if (!d.o.metadata.deletionTimestamp)
              this.deleteObject(d.r, d.o.metadata.namespace, d.o.metadata.name ?? '', {
                propagationPolicy: 'Foreground',
              });
          if (deps.length === 0) {
            this.updateObject(r, {
              ...o,
              metadata: { ...o.metadata, finalizers: o.metadata.finalizers.filter((f) => f !== 'foregroundDeletion') },
            });
            changed = true;
          }
        }
        if (isCrd(r) && o.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)) {
          if (this.cleanUpCrd(o)) changed = true;
        }
        if (r.resource === 'namespaces' && r.group === '') {
          const ns = o.metadata.name;
          const contents = this.allObjects().filter(
            ({ r: cr, o: co }) => cr.namespaced && co.metadata.namespace === ns,
          );
          for (const c of contents)
            if (!c.o.metadata.deletionTimestamp)
              this.deleteObject(c.r, ns, c.o.metadata.name ?? '', { propagationPolicy: 'Background' });
          if (contents.length === 0 && o.metadata.finalizers?.includes('kubernetes')) {
            this.updateObject(r, {
              ...o,
              metadata: { ...o.metadata, finalizers: o.metadata.finalizers.filter((f) => f !== 'kubernetes') },
            });
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
  }
}
