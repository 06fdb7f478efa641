// The session lives in one cookie, sealed with AES-256-GCM: the server keeps no session table,
// and nothing in the cookie can be read or altered in the browser. It holds the person's bearer
// token (in per-user mode) and the CSRF token their page must echo on every write. A session
// ends at its absolute expiry, after an idle period, or when it is revoked (logout), which every
// replica learns from a record in the cluster (session-revocation.ts). Signed in with an identity
// provider (lib/server/oidc), the token is the provider's ID token, kept with its refresh token
// and expiry; the whole cookie must stay under a browser's 4 KB limit (MAX_COOKIE_BYTES).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'olm_console_session';
/** Over TLS the cookie carries the `__Host-` prefix: Secure, Path=/, no Domain, set by this host only. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const VERSION = 'v2';

/** A session unused for this long is over (seconds); `OLM_CONSOLE_SESSION_IDLE_MINUTES`. */
export function idleSeconds(env: Record<string, string | undefined> = process.env): number {
  const m = Number(env.OLM_CONSOLE_SESSION_IDLE_MINUTES ?? 30);
  return Number.isFinite(m) && m > 0 ? Math.round(m * 60) : 30 * 60;
}
/** The absolute lifetime of a session. */
export const SESSION_TTL_SECONDS = 8 * 3600;

/** How stale `lastSeen` may get before a request refreshes it (and so re-issues the cookie). */
export const REFRESH_AFTER_SECONDS = 60;

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

export interface Session {
  /** Random id, new at every login: what a revocation names. */
  sid: string;
  /** The person's own bearer token; absent in kubeconfig mode. */
  token?: string;
  /** Who the cluster says the token belongs to, for display and "log out everywhere". */
  username?: string;
  /** 'oidc': `token` is an ID token from the identity provider, refreshed with `refreshToken`. */
  auth?: 'oidc';
  refreshToken?: string;
  /** Unix seconds: when `token` (the ID token) expires. */
  tokenExpiresAt?: number;
  csrf: string;
  /** Unix milliseconds (a "log out everywhere" ends the sessions issued before its own moment). */
  issuedAt: number;
  /** Unix seconds of the last request that refreshed the cookie (idle timeout). */
  lastSeen: number;
  /** Unix seconds. */
  expiresAt: number;
}

export class SessionKey {
  private constructor(readonly key: Buffer) {}

  /** From `OLM_CONSOLE_SESSION_KEY` (32 bytes as hex or base64), else random for this process. */
  static fromEnv(env: Record<string, string | undefined> = process.env): SessionKey {
    const text = env.OLM_CONSOLE_SESSION_KEY;
    if (!text) return new SessionKey(randomBytes(32));
    const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
    if (key.length !== 32)
      throw new Error('OLM_CONSOLE_SESSION_KEY must be 32 bytes, written as 64 hex digits or base64');
    return new SessionKey(key);
  }

  static random(): SessionKey {
    return new SessionKey(randomBytes(32));
  }
}

export function newSession(ttlSeconds: number, token?: string, username?: string, now = Date.now()): Session {
  const t = Math.floor(now / 1000);
  return {
    sid: randomBytes(18).toString('base64url'),
    ...(token ? { token } : {}),
    ...(username ? { username } : {}),
    csrf: randomBytes(24).toString('base64url'),
    issuedAt: now,
    lastSeen: t,
    expiresAt: t + ttlSeconds,
  };
}

export function sealSession(session: Session, key: SessionKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The session, or undefined when the cookie is missing, forged, from another key, expired or idle too long. */
export function openSession(
  cookie: string | undefined,
  key: SessionKey,
  now = Date.now(),
  idle = idleSeconds(),
): Session | undefined {
  if (!cookie) return undefined;
  const [version, iv, body, tag] = cookie.split('.');
  if (version !== VERSION || !iv || !body || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    const session = JSON.parse(text) as Session;
    if (
      typeof session.csrf !== 'string' ||
      typeof session.sid !== 'string' ||
      typeof session.expiresAt !== 'number' ||
      typeof session.lastSeen !== 'number'
    )
      return undefined;
    if (session.expiresAt * 1000 <= now) return undefined;
    if ((session.lastSeen + idle) * 1000 <= now) return undefined;
    return session;
  } catch {
    return undefined;
  }
}

/** Set-Cookie attributes: HttpOnly, SameSite=Strict; over TLS Secure with the `__Host-` prefix. */
export function sessionCookieHeader(value: string, opts: { secure: boolean; maxAgeSeconds: number }): string {
  return [
    `${sessionCookieName(opts.secure)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${opts.maxAgeSeconds}`,
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The session with `lastSeen` moved to now, when it is stale enough to be worth a new cookie. */
export function refreshedSession(session: Session, now = Date.now()): Session | undefined {
  const t = Math.floor(now / 1000);
  return t - session.lastSeen >= REFRESH_AFTER_SECONDS ? { ...session, lastSeen: t } : undefined;
}

/**
 * Browsers keep a cookie of at most 4096 bytes, name, value and attributes together (RFC 6265
 * §6.1's minimum, which Chromium and Firefox enforce); a longer one is silently dropped.
 */
export const MAX_COOKIE_BYTES = 4096;

/** Whether a Set-Cookie header's cookie fits a browser's limit. */
export function cookieFits(setCookie: string): boolean {
  return Buffer.byteLength(setCookie) <= MAX_COOKIE_BYTES;
}

export function clearedSessionCookieHeader(secure: boolean): string {
  return sessionCookieHeader('', { secure, maxAgeSeconds: 0 });
}
