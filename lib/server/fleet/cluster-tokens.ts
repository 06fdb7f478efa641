// A person's token for one cluster of the fleet, when the clusters do not accept the token they
// logged in with (per-user tokens without OLM_CONSOLE_FLEET_SHARED_TOKENS, or a cluster that does
// not trust the identity provider). Each lives in a cookie of its own, sealed like the session
// (AES-256-GCM with the session key, so every replica opens it and the browser cannot read it),
// bound to the session it was added in (its sid) and to its cluster: a cookie copied to another
// session, another cluster's name or a session that was logged out or revoked opens to nothing.
// The server keeps nothing, so replicas need no shared store and a token is never at rest in a
// cluster. The cookie's name is a hash of the cluster's name (names may hold `/` or `:`, which a
// cookie name may not).
//
// Bound: a browser keeps a cookie of at most 4096 bytes, and proxies in front of a console commonly
// refuse a Cookie header past 8 KB (nginx's default large_client_header_buffers). A session cookie
// with a service-account token is about 2 KB, so the cluster tokens together may take at most
// MAX_TOTAL_BYTES of cookies: four or five service-account tokens, more short static ones. Past it,
// adding one is refused with the reason; a fleet of many clusters signs in with one identity
// provider every cluster trusts instead.
import { createHash } from 'node:crypto';
import { seal, unseal } from '../sealed';
import type { Session, SessionKey } from '../session';

const PREFIX = 'olm_console_ct_';
const VERSION = 'c1';
// Bound into the seal: a cluster token's cookie can never be opened as anything else.
const PURPOSE = 'olm-console cluster token';

/** The most one cluster token's Set-Cookie may take (a browser's limit). */
export const MAX_COOKIE_BYTES = 4096;
/** The most all of a person's cluster-token cookies may take together, as the browser sends them. */
export const MAX_TOTAL_BYTES = 6000;

export interface ClusterToken {
  cluster: string;
  token: string;
  /** Who that cluster says the token is (SelfSubjectReview when it was added). */
  username: string;
  /** Unix milliseconds. */
  addedAt: number;
}

interface Sealed extends ClusterToken {
  sid: string;
}

/** The cookie's name for a cluster (the `__Host-` prefix over TLS, as the session's). */
export function clusterTokenCookieName(cluster: string, secure: boolean): string {
  const name = `${PREFIX}${createHash('sha256').update(cluster).digest('base64url').slice(0, 16)}`;
  return secure ? `__Host-${name}` : name;
}

const isTokenCookie = (name: string) => name.startsWith(PREFIX) || name.startsWith(`__Host-${PREFIX}`);

export function sealClusterToken(t: ClusterToken, session: Session, key: SessionKey): string {
  const sealed: Sealed = { ...t, sid: session.sid };
  return `${VERSION}.${seal(sealed, PURPOSE, key)}`;
}

function open(value: string, key: SessionKey): Sealed | undefined {
  const dot = value.indexOf('.');
  if (dot < 0 || value.slice(0, dot) !== VERSION) return undefined;
  const t = unseal<Sealed>(value.slice(dot + 1), PURPOSE, key);
  if (typeof t?.sid !== 'string' || typeof t.cluster !== 'string' || typeof t.token !== 'string') return undefined;
  return t;
}

/** The request's cookies, name → value. */
export function requestCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/**
 * The person's cluster tokens this session added, cluster → token, from the request's cookies:
 * each under its own cluster's cookie name and of this session; anything else is ignored.
 */
export function clusterTokens(
  cookies: Map<string, string>,
  session: Session | undefined,
  key: SessionKey,
  secure: boolean,
): Map<string, ClusterToken> {
  const out = new Map<string, ClusterToken>();
  if (!session) return out;
  for (const [name, value] of cookies) {
    if (!isTokenCookie(name)) continue;
    const t = open(value, key);
    if (!t || t.sid !== session.sid || clusterTokenCookieName(t.cluster, secure) !== name) continue;
    out.set(t.cluster, { cluster: t.cluster, token: t.token, username: t.username, addedAt: t.addedAt });
  }
  return out;
}

/** The bytes a cookie takes in the Cookie header the browser sends (`name=value; `). */
const sentBytes = (name: string, value: string) => Buffer.byteLength(name) + 1 + Buffer.byteLength(value) + 2;

/**
 * Why a cluster token's sealed cookie cannot be kept beside the others the request carries, or
 * undefined when it fits both bounds. A token replacing the same cluster's does not count twice.
 */
export function tokenCookieTooBig(
  cookies: Map<string, string>,
  name: string,
  value: string,
  setCookie: string,
): string | undefined {
  if (Buffer.byteLength(setCookie) > MAX_COOKIE_BYTES)
    return `the token is too long to keep in a browser cookie (at most ${MAX_COOKIE_BYTES} bytes sealed)`;
  let total = sentBytes(name, value);
  for (const [n, v] of cookies) if (n !== name && isTokenCookie(n)) total += sentBytes(n, v);
  if (total > MAX_TOTAL_BYTES)
    return (
      `your tokens for other clusters would take ${total} bytes of cookies, more than the ${MAX_TOTAL_BYTES} ` +
      'the console keeps (so that the requests your browser sends stay within what proxies accept); remove ' +
      'a token you no longer need, or sign in with an identity provider every cluster trusts'
    );
  return undefined;
}

/** Set-Cookie for a cluster token: as the session's (HttpOnly, SameSite=Strict, Path=/), ending with it. */
export function clusterTokenCookieHeader(
  name: string,
  value: string,
  opts: { secure: boolean; maxAgeSeconds: number },
): string {
  return [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`,
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie headers that remove every cluster-token cookie the request carries (logout). */
export function clearedClusterTokenCookies(cookies: Map<string, string>, secure: boolean): string[] {
  return [...cookies.keys()]
    .filter(isTokenCookie)
    .map((name) =>
      clusterTokenCookieHeader(name, '', { secure: secure || name.startsWith('__Host-'), maxAgeSeconds: 0 }),
    );
}
