// The console's HTTP server: Next.js behind a thin layer that checks what must be checked before
// anything is read or rendered. The Host must be one the administrator configured (DNS
// rebinding), bodies are limited and must be JSON, logins are rate-limited per client address,
// and every response carries the security headers (with a fresh script nonce for Next.js).
// It is also where the console is operated from: a JSON log line and metrics per request,
// /healthz and /metrics, and a graceful stop on SIGTERM.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import type { AddressInfo } from 'node:net';
import next from 'next';
import type { Logger } from 'pino';
import {
  eventStreams,
  httpDuration,
  httpRequests,
  METRICS_CONTENT_TYPE,
  metricsText,
} from '../../observability/metrics';
import { hubCandidate, takeClusterFromPath, takeHubClusterFromPath } from './cluster-prefix';
import { buildRoutePatterns, routeNamer, type RouteNamer } from './route-names';
import { declaredEncoding } from './stored-encoding';
import { finishSnapshotWrites } from './unfinished-writes';
import { localAddress, markOwnWarmUp, WARM_UP_HEADER, warmUp, warmUpWanted } from './warm-up';
import { checkHost, originPolicyFromEnv, servedOverTls, type OriginPolicy } from '../security/origin-policy';
import { imageOriginsFromEnv, securityHeaders } from '../security/page-headers';
import {
  checkBody,
  isLoginAttempt,
  LOGIN_ATTEMPTS,
  RateLimiter,
  TokenSightings,
  type Refusal,
} from '../security/request-guard';
import { canonicalPath } from '../security/request-path';
import { revocations } from '../context';
import { hubClusterFor } from '../context-cluster';
import { fleetMembers } from '../fleet/members';
import { refreshOidcCookie } from '../oidc/http-refresh';
import { oidcEnabled } from '../oidc/settings';
import {
  openSession,
  refreshedSession,
  sealSession,
  sessionCookieHeader,
  sessionCookieName,
  SessionKey,
} from '../session';

/** The header the server sets to the client's address for the routes; any incoming value is dropped. */
export const PEER_HEADER = 'x-olm-console-peer';
const FORWARDED = [
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-for',
  'x-forwarded-port',
  'forwarded',
  'x-forwarded-access-token',
  'authorization',
];

/** A Connect-style middleware on Node's own request and response (compression is typed for Express). */
type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * compression's own rule, on the Content-Type as one value: Next.js appends a route's headers, so
 * a JSON answer's type is a one-element list, which the rule reads as not compressible. A body the
 * route compressed already (a cached one, stored-encoding.ts) goes out as it is, under the coding
 * it declared; compression asks this as the head is written, the one moment to set it.
 */
function compressible(req: unknown, res: ServerResponse): boolean {
  if (declaredEncoding(res)) return false;
  const type = res.getHeader('Content-Type');
  if (Array.isArray(type) && type.length === 1) res.setHeader('Content-Type', type[0]!);
  return compression.filter(req as never, res as never);
}

export interface ConsoleServerOptions {
  /** The Next.js project folder (with its `.next` build). */
  dir: string;
  port: number;
  host: string;
  env?: Record<string, string | undefined>;
  log: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Stops gracefully: no new connections, /readyz answers 503, event streams are ended with a
   * retry hint (browsers reconnect, to another replica behind a Service), requests in flight
   * may finish within `graceMs`; then every connection is closed.
   */
  close(graceMs?: number): Promise<void>;
  /** Settles when the warm-up is over (warm-up.ts), whether it went well or not; /readyz is 503 until then. */
  warmedUp: Promise<void>;
}

/** Who made the request, for the log: the session's user, never a token or a cookie. */
function userOf(req: IncomingMessage, key: SessionKey, tls: boolean): string | undefined {
  return openSession(cookieValue(req, sessionCookieName(tls)), key)?.username;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function refuse(res: ServerResponse, path: string, r: Refusal): void {
  const body = path.startsWith('/api/')
    ? JSON.stringify({ error: { code: r.status, reason: r.reason, message: r.message } })
    : `${r.message}\n`;
  res.writeHead(r.status, {
    'Content-Type': path.startsWith('/api/') ? 'application/json' : 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
    ...r.headers,
  });
  res.end(body);
}

/** The client's address: the socket's, or the last hop a trusted proxy appended. */
export function peerAddress(req: IncomingMessage, policy: OriginPolicy): string {
  if (policy.trustProxy) {
    const hops = (header(req, 'x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (hops.length) return hops[hops.length - 1]!;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (header(req, 'cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * A session in use gets its idle clock reset (a new cookie at most once a minute); a session
 * someone logged out does not, on any replica, so a copied cookie dies of idleness too.
 */
function refreshSessionCookie(
  key: SessionKey,
  tls: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
  if (path === '/api/session') return; // login and logout set the cookie themselves
  const session = openSession(cookieValue(req, sessionCookieName(tls)), key);
  if (!session || (session.token && revocations().isRevoked(session))) return;
  const fresh = refreshedSession(session);
  if (!fresh) return;
  res.setHeader(
    'Set-Cookie',
    sessionCookieHeader(sealSession(fresh, key), {
      secure: tls,
      maxAgeSeconds: Math.max(0, fresh.expiresAt - Math.floor(Date.now() / 1000)),
    }),
  );
}

/** The configured clusters' names (read once per process, lib/server/fleet/members.ts); a hub's are per person. */
function clusterNames(): string[] {
  return fleetMembers().map((m) => m.name);
}

/** `/clusters/<unknown>/api/…` is refused as an API answer (JSON), a page as text. */
function apiShaped(path: string): string {
  return /^\/clusters\/.*?\/api\//.test(path) ? '/api/' : path;
}

/** Paths probes and scrapers use: they name the pod's address, reveal nothing personal, and need no configured name. */
const OPERATIONAL = new Set(['/healthz', '/readyz', '/metrics']);

/** What the guard keeps between requests: login attempts per address, and bearer tokens seen. */
export interface GuardState {
  limiter: RateLimiter;
  tokens: TokenSightings;
}

export function newGuardState(): GuardState {
  return { limiter: new RateLimiter(LOGIN_ATTEMPTS.limit, LOGIN_ATTEMPTS.windowMs), tokens: new TokenSightings() };
}

/** A bearer token (from a trusted proxy) that this address has not used lately: a guess to count. */
function bearerToken(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
  return m?.[1] ?? header(req, 'x-forwarded-access-token')?.trim();
}

/**
 * Every check before Next.js, keyed on `path`, the canonical path the router will route
 * (lib/server/security/request-path.ts). Answers the request itself and returns false when it
 * refuses it.
 */
export function guardRequest(
  policy: OriginPolicy,
  state: GuardState,
  imageOrigins: string[],
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  key: SessionKey = SessionKey.fromEnv(),
): boolean {
  const method = req.method ?? 'GET';
  if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
    res.end('ok\n');
    return false;
  }
  if (OPERATIONAL.has(path)) return true;
  const hostFacts = { host: header(req, 'host'), forwardedHost: header(req, 'x-forwarded-host') };
  const host = checkHost(policy, hostFacts);
  if (!host.ok) {
    refuse(res, path, { status: 421, reason: 'MisdirectedRequest', message: host.message });
    return false;
  }
  const tls = servedOverTls(policy, { ...hostFacts, forwardedProto: header(req, 'x-forwarded-proto') });
  delete req.headers[PEER_HEADER];
  req.headers[PEER_HEADER] = peerAddress(req, policy);
  // Without a proxy the administrator vouches for, a token in a header is anyone's say-so: the
  // console reads the person's token from their session only.
  if (!policy.trustProxy) for (const h of FORWARDED) delete req.headers[h];
  // Routes learn TLS from this alone (set here, from what the administrator configured).
  req.headers['x-olm-console-tls'] = tls ? 'true' : 'false';

  const get = (n: string) => header(req, n);
  const body = checkBody(method, path, { get });
  if (body) {
    refuse(res, path, body);
    return false;
  }
  const peer = req.headers[PEER_HEADER] as string;
  const token = policy.trustProxy ? bearerToken(req) : undefined;
  // A token from the proxy counts as a login the first time this address uses it, so guessing
  // tokens through the proxy is as slow as guessing them at the login form.
  if (isLoginAttempt(method, path) || (token && state.tokens.isNew(peer, token))) {
    const verdict = state.limiter.take(peer);
    if (!verdict.ok) {
      refuse(res, path, {
        status: 429,
        reason: 'TooManyRequests',
        message: `too many login attempts from this address; try again in ${verdict.retryAfterSeconds} s`,
        headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
      });
      return false;
    }
  }
  refreshSessionCookie(key, tls, req, res, path);
  const nonce = randomBytes(16).toString('base64');
  const headers = securityHeaders({ nonce, tls, imageOrigins });
  // Next.js reads the nonce for its own inline scripts from the request's CSP header.
  req.headers['content-security-policy'] = headers['Content-Security-Policy'];
  // An API answer is about one person at one moment: kept by no cache unless its route says so.
  defaultHeaders(res, path.startsWith('/api/') ? { ...headers, 'Cache-Control': 'no-store' } : headers);
  return true;
}

function headerNamed(given: unknown, name: string): boolean {
  if (Array.isArray(given)) return given.some((v, i) => i % 2 === 0 && String(v).toLowerCase() === name);
  return typeof given === 'object' && given !== null && Object.keys(given).some((k) => k.toLowerCase() === name);
}

/**
 * Headers every response carries unless its route set its own. Next.js keeps a header already on
 * the response over the one its route returns, so a page CSP set up front replaced an SVG icon's
 * script-free policy; these are filled in as the head is written instead (Node writes every
 * head, explicit or implicit, through writeHead).
 */
function defaultHeaders(res: ServerResponse, defaults: Record<string, string>): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const given = rest.find((a) => typeof a === 'object' && a !== null);
    for (const [k, v] of Object.entries(defaults)) {
      if (!res.hasHeader(k) && !headerNamed(given, k.toLowerCase())) res.setHeader(k, v);
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}

export async function startConsoleServer(o: ConsoleServerOptions): Promise<RunningServer> {
  const env = o.env ?? process.env;
  const log = o.log;
  const policy = originPolicyFromEnv({ ...env, OLM_CONSOLE_PORT: String(o.port) });
  const imageOrigins = imageOriginsFromEnv(env);
  const guard = newGuardState();
  // The routes (bundled by Next.js) and this server open the same cookies: one key for both.
  env.OLM_CONSOLE_SESSION_KEY ??= randomBytes(32).toString('hex');
  const key = SessionKey.fromEnv(env);
  const server = createServer();
  const app = next({ dev: false, dir: o.dir, hostname: o.host, port: o.port, httpServer: server });
  const handle = app.getRequestHandler();
  await app.prepare();
  const routeOf: RouteNamer = routeNamer(buildRoutePatterns(o.dir));
  // Compression of every answer a client accepts it for (Next.js's own is off: one layer). Event
  // streams are flushed at every write, so each event still arrives as it is sent. The session
  // route is left out: it carries the CSRF token, and a compressed secret beside a text an
  // attacker chooses leaks through its length (BREACH).
  const compress = compression({ threshold: 1024, filter: compressible }) as unknown as NodeMiddleware;
  const compressEvents = compression({
    threshold: 0,
    flush: zlibConstants.Z_SYNC_FLUSH,
    filter: compressible,
  }) as unknown as NodeMiddleware;
  const streams = new Set<ServerResponse>();
  const inflight = new Set<ServerResponse>();
  let stopping = false;
  let warming = warmUpWanted(env);
  const warmUpMark = randomBytes(16).toString('hex');
  // The OperatorHub page and list tell the warm-up's requests by it (warm-first-page.ts), while it runs.
  if (warming) markOwnWarmUp(warmUpMark);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const canonical = canonicalPath(req.url ?? '/');
    // The log shows what was asked for; every decision below uses the canonical path, with the
    // cluster it names (`/clusters/<name>/…`) taken off: the path the router routes.
    const asked = (req.url ?? '/').split('?')[0]!;
    // Only this server says which cluster a request is for (cluster-prefix.ts).
    const cluster = takeClusterFromPath(req, canonical.ok ? canonical.path : '/', clusterNames());
    // A name the settings do not give may be a cluster the person's OCM hub lists: its path is the
    // one every check uses, and the name is asked about once the request has passed them.
    const candidate = canonical.ok && cluster.kind === 'unknown' ? hubCandidate(canonical.path) : undefined;
    const path = !canonical.ok
      ? asked
      : cluster.kind === 'unknown'
        ? (candidate?.path ?? canonical.path)
        : cluster.path;
    let route = !canonical.ok ? 'invalid' : OPERATIONAL.has(path) ? path : routeOf(path);
    const incomingId = policy.trustProxy ? header(req, 'x-request-id') : undefined;
    const requestId = incomingId && /^[\w.:-]{1,100}$/.test(incomingId) ? incomingId : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // The server's own warm-up (warm-up.ts) is answered like any request but not counted as one.
    const ownWarmUp = header(req, WARM_UP_HEADER) === warmUpMark;
    // Only the server's own warm-up keeps it, for the routes to tell (warm-first-page.ts).
    if (!ownWarmUp) delete req.headers[WARM_UP_HEADER];
    const stream = canonical.ok && path === '/api/events';
    if (stream) {
      streams.add(res);
      eventStreams.inc();
    } else {
      inflight.add(res);
    }
    res.once('close', () => {
      if (ownWarmUp) {
        inflight.delete(res);
        return;
      }
      const status = String(res.statusCode);
      const seconds = (performance.now() - started) / 1000;
      httpRequests.inc({ route, method: req.method ?? 'GET', status });
      if (stream) {
        streams.delete(res);
        eventStreams.dec();
      } else {
        inflight.delete(res);
        httpDuration.observe({ route, method: req.method ?? 'GET', status }, seconds);
      }
      if (route === '/metrics' || route === '/healthz' || route === '/readyz' || route === '/_next/*') return;
      const tls = header(req, 'x-olm-console-tls') === 'true';
      const line = {
        requestId,
        method: req.method,
        route,
        path: asked,
        status: res.statusCode,
        durationMs: Math.round(seconds * 1000),
        user: userOf(req, key, tls),
      };
      if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });

    if (!canonical.ok) {
      refuse(res, asked, {
        status: 400,
        reason: 'BadRequest',
        message: `${canonical.message}; ask for the path without it`,
      });
      return;
    }
    if (path === '/metrics' && req.method === 'GET') {
      void metricsText().then((text) => {
        res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
        res.end(text);
      });
      return;
    }
    if ((stopping || warming) && path === '/readyz') {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(stopping ? 'not ready: shutting down\n' : 'not ready: warming up\n');
      return;
    }
    if (!guardRequest(policy, guard, imageOrigins, req, res, path, key)) return;
    // A cluster the console does not serve is said so (past the Host check), and no cluster is asked.
    if (cluster.kind === 'unknown' && !candidate) {
      refuse(res, apiShaped(canonical.path), { status: 404, reason: 'NotFound', message: cluster.message });
      return;
    }
    const answer = () =>
      handle(req, res).catch((err: unknown) => {
        log.error({ requestId, route, err }, 'the console failed to answer');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`the console failed: ${(err as Error).message}\n`);
      });
    const proceed = () =>
      path === '/api/session' ? answer() : (stream ? compressEvents : compress)(req, res, () => void answer());
    // A signed-in person's ID token about to expire is refreshed before any route acts with it, or
    // their hub is asked with it.
    const refreshed = oidcEnabled(env)
      ? refreshOidcCookie(key, req, res).catch((err: unknown) => log.warn({ requestId, err }, 'token refresh failed'))
      : undefined;
    if (!candidate) {
      if (refreshed) void refreshed.finally(proceed);
      else proceed();
      return;
    }
    // Asked as the person (cluster-prefix.ts); a name their hub does not list is refused as an unknown one.
    void Promise.resolve(refreshed)
      .then(() => takeHubClusterFromPath(req, candidate, hubClusterFor))
      .then(
        (refusal) => {
          if (!refusal) return proceed();
          route = routeOf(canonical.path);
          // Signed out, a page of such a cluster is the login page, which comes back here after.
          if (refusal.status === 401 && apiShaped(canonical.path) !== '/api/' && req.method === 'GET') {
            res.writeHead(303, {
              Location: `/login?next=${encodeURIComponent(req.url ?? '/')}`,
              'Cache-Control': 'no-store',
            });
            res.end();
            return;
          }
          refuse(res, apiShaped(canonical.path), refusal);
        },
        (err: unknown) => {
          log.error({ requestId, route, err }, "the person's hub could not be asked");
          refuse(res, apiShaped(canonical.path), {
            status: 500,
            reason: 'InternalError',
            message: `the console failed: ${(err as Error).message}`,
          });
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  // Over the socket, after listen: the requests take the path a person's do (guard, compression).
  const target = { address: localAddress(o.host), port: addr.port, host: `127.0.0.1:${addr.port}`, mark: warmUpMark };
  const warmedUp = (warming ? warmUp(target, log) : Promise.resolve()).then(
    () => {
      warming = false;
      markOwnWarmUp(undefined);
    },
    (err: unknown) => {
      warming = false;
      markOwnWarmUp(undefined);
      log.warn({ err }, 'warm-up failed; serving without it');
    },
  );
  return {
    server,
    warmedUp,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${addr.port}`,
    close: async (graceMs = 20_000) => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A retry hint, then the end: EventSource reconnects (with Last-Event-ID) to whichever replica answers.
      // A compressed stream ends asynchronously (the compressor flushes its last bytes first):
      // each is given a moment to finish before connections are closed under it.
      const ended = [...streams].map(
        (res) =>
          new Promise<void>((resolve) => {
            res.once('close', () => resolve());
            res.write('retry: 1000\n\n');
            res.end();
          }),
      );
      await Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 2_000).unref())]);
      const deadline = Date.now() + graceMs;
      while (inflight.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      log.info(
        { unfinished: inflight.size },
        inflight.size ? 'stopping with requests unfinished after the grace period' : 'stopped',
      );
      server.closeAllConnections();
      await closed;
      // Within what is left before serve.ts's hard exit (5 s past the grace).
      await finishSnapshotWrites(log, deadline + 4_000 - Date.now());
    },
  };
}
