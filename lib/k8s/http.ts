// One HTTP exchange with the API server, authenticated by a KubeConfig (token, client
// certificate, exec plugin: whatever the KubeConfig's user carries). Plain node:http(s), so
// that JSON requests and long-lived watch streams share one code path and one error mapping.
// JSON and byte requests are sent again after transient failures as retry.ts decides.
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { clusterErrors, clusterRequests, clusterRetries, kubeVerb } from '../observability/metrics';
import { errorFromNetwork, errorFromResponse, KubeError } from './errors';
import { parseRetryAfter, retryModeFor, withRetry, type RetryMode } from './retry';

export type Query = Record<string, string | number | boolean | undefined>;

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  contentType?: string;
  /** Says what the request was for, in error messages ("create subscription"). */
  what?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A long-lived stream (watch): its own connection, outside the kept-alive pool. */
  stream?: boolean;
  /** Whether it may be sent again after a transient failure (retry.ts); by default from the method. */
  retry?: RetryMode;
}

// Kept-alive TLS connections, one pool per TLS identity (the CA trusted, the client certificate
// shown): without it every request pays a handshake and a new secure context. The pool is not
// per person: a bearer token is a header of each request, not part of the connection, so people
// who differ only by token share connections, as client-go's transport cache does (it keys
// transports by TLS configuration, never by token). The KubeConfig's applyToHTTPSOptions makes a
// new Agent on every call, which is what made each request a new handshake; it is replaced here
// unless the cluster goes through a proxy, whose agent is the KubeConfig's to make. The pools are the
// process's, not this module copy's: Next.js may load lib/k8s once per route bundle, and a pool per
// bundle opened connections (and made secure contexts) again for each route.
const POOLS = Symbol.for('olm-console.https-pools');
const pools = ((globalThis as { [POOLS]?: Map<string, https.Agent> })[POOLS] ??= new Map<string, https.Agent>());
/** TLS identities kept: one per cluster CA and client certificate in use; more is unusual. */
const MAX_POOLS = 64;

/** What tells TLS identities apart, hashed so no key material is kept as a map key. */
function tlsIdentity(tls: https.RequestOptions): string {
  const h = createHash('sha256');
  const parts = [tls.ca, tls.cert, tls.key, tls.pfx, tls.passphrase, tls.servername, tls.rejectUnauthorized];
  for (const part of parts)
    for (const p of Array.isArray(part) ? part : [part]) {
      h.update(p === undefined ? '-' : typeof p === 'string' || Buffer.isBuffer(p) ? p : JSON.stringify(p));
      h.update('\0');
    }
  return h.digest('hex');
}

/**
 * The pool's secure context (its CA and client certificate, parsed once): without it Node makes a
 * new one for every connection, which a first page opening several at once paid for each. A
 * certificate that does not parse is left to the connection, whose error says what is wrong.
 */
function secureContextOf(tls: https.RequestOptions): SecureContext | undefined {
  try {
    const { ca, cert, key, pfx, passphrase } = tls;
    return createSecureContext({ ca, cert, key, pfx, passphrase });
  } catch {
    return undefined;
  }
}

function poolFor(tls: https.RequestOptions): https.Agent {
  const key = tlsIdentity(tls);
  let agent = pools.get(key);
  if (!agent) {
    agent = new https.Agent({
      secureContext: secureContextOf(tls),
      keepAlive: true,
      maxSockets: 32,
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
      passphrase: tls.passphrase,
      pfx: tls.pfx,
      rejectUnauthorized: tls.rejectUnauthorized,
      servername: tls.servername,
    });
    pools.set(key, agent);
    // The oldest identity's idle connections close when its server times them out.
    if (pools.size > MAX_POOLS) pools.delete(pools.keys().next().value!);
  }
  return agent;
}

export function buildUrl(server: string, path: string, query?: Query): URL {
  const url = new URL(server.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  return url;
}

function serverOf(kc: KubeConfig): string {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw errorFromResponse(500, undefined, 'the kubeconfig has no current cluster');
  return cluster.server;
}

/** Opens a request and resolves with the response once its headers arrive. */
export async function openRequest(
  kc: KubeConfig,
  req: KubeRequest,
  accept = 'application/json',
): Promise<{ res: http.IncomingMessage; url: URL }> {
  const server = serverOf(kc);
  const url = buildUrl(server, req.path, req.query);
  const opts: https.RequestOptions = {
    method: req.method,
    headers: { Accept: accept },
    timeout: req.timeoutMs,
    signal: req.signal,
  };
  await kc.applyToHTTPSOptions(opts);
  // A proxy agent set by the KubeConfig wins; otherwise pooled connections, except for streams.
  if (url.protocol === 'https:' && !kc.getCurrentCluster()?.proxyUrl && !req.stream) opts.agent = poolFor(opts);
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  if (payload) {
    opts.headers = {
      ...opts.headers,
      'Content-Type': req.contentType ?? 'application/json',
      'Content-Length': payload.length,
    };
  }
  const lib = url.protocol === 'https:' ? https : http;
  const verb = kubeVerb(req.method, req.path, req.query);
  return new Promise((resolve, reject) => {
    const r = lib.request(url, opts, (res) => {
      const code = String(res.statusCode ?? 0);
      clusterRequests.inc({ verb, code });
      if ((res.statusCode ?? 0) >= 400) clusterErrors.inc({ verb, code });
      resolve({ res, url });
    });
    r.on('timeout', () => r.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    r.on('error', (err) => {
      if (!req.signal?.aborted) {
        clusterRequests.inc({ verb, code: 'network' });
        clusterErrors.inc({ verb, code: 'network' });
      }
      reject(req.signal?.aborted ? err : errorFromNetwork(err, server));
    });
    if (payload) r.write(payload);
    r.end();
  });
}

async function readBytes(res: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The error for a non-2xx answer, with the wait the server asked for. */
function answerError(code: number, res: http.IncomingMessage, body: unknown, what: string): KubeError {
  const err = errorFromResponse(code, body, what);
  const asked = parseRetryAfter(res.headers['retry-after']);
  if (asked !== undefined) err.retryAfterMs = asked;
  return err;
}

/** One attempt: the answer's bytes, or a KubeError (a body cut off midway is a lost answer). */
async function exchange(
  kc: KubeConfig,
  req: KubeRequest,
  accept: string,
): Promise<{ res: http.IncomingMessage; body: Buffer }> {
  const { res } = await openRequest(kc, req, accept);
  try {
    return { res, body: await readBytes(res) };
  } catch (err) {
    if (req.signal?.aborted) throw err;
    throw errorFromNetwork(err, serverOf(kc));
  }
}

function retrying<T>(req: KubeRequest, attempt: () => Promise<T>): Promise<T> {
  const verb = kubeVerb(req.method, req.path, req.query);
  return withRetry(attempt, {
    mode: req.retry ?? retryModeFor(req.method, req.contentType),
    signal: req.signal,
    onRetry: (err) => clusterRetries.inc({ verb, code: err.network !== undefined ? 'network' : String(err.code) }),
  });
}

/** A request whose answer is not JSON (an icon): the bytes and the server's content type. */
export function kubeRequestBytes(kc: KubeConfig, req: KubeRequest): Promise<{ body: Buffer; contentType: string }> {
  const r = { timeoutMs: 30_000, ...req };
  return retrying(r, async () => {
    const { res, body } = await exchange(kc, r, '*/*');
    const code = res.statusCode ?? 500;
    if (code < 200 || code >= 300)
      throw answerError(code, res, parse(body.toString('utf8')), req.what ?? `${req.method} ${req.path}`);
    return { body, contentType: String(res.headers['content-type'] ?? '') };
  });
}

/** Sends a request and returns the parsed JSON body; a non-2xx answer throws a KubeError. */
export function kubeRequest<T = unknown>(kc: KubeConfig, req: KubeRequest): Promise<T> {
  const r = { timeoutMs: 30_000, ...req };
  return retrying(r, async () => {
    const { res, body: bytes } = await exchange(kc, r, 'application/json');
    const body = parse(bytes.toString('utf8'));
    const code = res.statusCode ?? 500;
    if (code < 200 || code >= 300) throw answerError(code, res, body, req.what ?? `${req.method} ${req.path}`);
    return body as T;
  });
}
