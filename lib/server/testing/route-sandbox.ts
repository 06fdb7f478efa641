// The set-up every route test needs, written once: a sandbox of the test file's own, the console's
// environment pointed at it in per-user-token mode before the file imports its routes (the console
// reads its cluster settings once per process), an admin client to arrange and check the cluster
// with, and a handler called as one of the sandbox's people with the answer read back.
// Call it first in a `describe`: its before/after hooks run ahead of the file's own, so the file's
// `before` may import the routes (`await import('./route')`) and arrange the cluster.
import { after, before } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import type { SandboxOptions } from '../../sandbox/server/sandbox';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs } from './cluster';
import { CONSOLE_ORIGIN, consoleRequest } from './console-request';

export type TestSandbox = Awaited<ReturnType<typeof withSandbox>>;
/** A route handler as Next.js calls it; one that takes no params is one too. */
export type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** Any route's handler, whatever its params are typed as. */
type AnyHandler = (req: Request, ctx: { params: Promise<never> }) => Promise<Response>;
/** The console's answer to a refused request. */
export type ErrorBody = { error: { code: number; reason: string; message: string } };

export interface RequestOptions {
  /** The seed user whose token the request carries (admin, alice, bob); default admin. */
  user?: string;
  method?: string;
  body?: unknown;
  /** The token in `Authorization: Bearer`, as an authenticating proxy passes it, in place of a
   * console page's session cookie, CSRF header and Origin. */
  bearer?: boolean;
  origin?: string;
  /** null: without the CSRF header. */
  csrf?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RouteSandbox {
  /** The sandbox itself (set once the hooks have run, like everything below). */
  readonly sandbox: TestSandbox;
  readonly tokens: Record<string, string>;
  readonly kubeconfigPath: string;
  readonly faults: TestSandbox['faults'];
  /** The seed admin's client, through the Kubernetes API. */
  readonly admin: KubeClient;
  request(path: string, opts?: RequestOptions): Request;
  /** Calls the handler with `request(path, opts)` and the route's params; the body is the JSON answer. */
  call<T>(
    handler: AnyHandler,
    path: string,
    opts?: RequestOptions & { params?: Record<string, string> },
  ): Promise<{ status: number; body: T }>;
}

export function routeSandbox(options: SandboxOptions = {}): RouteSandbox {
  let sb: TestSandbox | undefined;
  let admin: KubeClient | undefined;
  before(async () => {
    sb = await withSandbox(options);
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    // Only the server's start-up (instrumentation.ts) warms the catalog index; a test never should.
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    admin = clientAs(sb, 'admin');
  });
  after(() => sb?.close());

  const started = (): TestSandbox => {
    if (!sb) throw new Error('the route sandbox is not started: use it in a test or a before hook');
    return sb;
  };
  const request = (
    path: string,
    { user = 'admin', bearer, headers, signal, ...opts }: RequestOptions = {},
  ): Request => {
    const token = started().tokens[user];
    if (!token) throw new Error(`the sandbox has no user ${user}`);
    const req = bearer
      ? new Request(`${CONSOLE_ORIGIN}${path}`, {
          method: opts.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        })
      : consoleRequest(path, { token, ...opts });
    if (!headers && !signal) return req;
    const all = new Headers(req.headers);
    for (const [k, v] of Object.entries(headers ?? {})) all.set(k, v);
    return new Request(req, { headers: all, signal });
  };
  return {
    get sandbox() {
      return started();
    },
    get tokens() {
      return started().tokens;
    },
    get kubeconfigPath() {
      return started().kubeconfigPath;
    },
    get faults() {
      return started().faults;
    },
    get admin() {
      started();
      return admin!;
    },
    request,
    async call<T>(
      handler: AnyHandler,
      path: string,
      { params = {}, ...opts }: RequestOptions & { params?: Record<string, string> } = {},
    ) {
      const res = await handler(request(path, opts), { params: Promise.resolve(params) as Promise<never> });
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}
