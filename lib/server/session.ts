// The session lives in one cookie, sealed with AES-256-GCM: the server keeps no session table,
// and nothing in the cookie can be read or altered in the browser. It holds the person's bearer
// token (in per-user mode) and the CSRF token their page must echo on every write.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'olm_console_session';
const VERSION = 'v1';

export interface Session {
  /** The person's own bearer token; absent in kubeconfig mode. */
  token?: string;
  /** Who the cluster says the token belongs to, for display. */
  username?: string;
  csrf: string;
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
    if (key.length !== 32) throw new Error('OLM_CONSOLE_SESSION_KEY must be 32 bytes, written as 64 hex digits or base64');
    return new SessionKey(key);
  }

  static random(): SessionKey {
    return new SessionKey(randomBytes(32));
  }
}

export function newSession(ttlSeconds: number, token?: string, username?: string, now = Date.now()): Session {
  return {
    ...(token ? { token } : {}),
    ...(username ? { username } : {}),
    csrf: randomBytes(24).toString('base64url'),
    expiresAt: Math.floor(now / 1000) + ttlSeconds,
  };
}

export function sealSession(session: Session, key: SessionKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The session, or undefined when the cookie is missing, forged, from another key, or expired. */
export function openSession(cookie: string | undefined, key: SessionKey, now = Date.now()): Session | undefined {
  if (!cookie) return undefined;
  const [version, iv, body, tag] = cookie.split('.');
  if (version !== VERSION || !iv || !body || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    const session = JSON.parse(text) as Session;
    if (typeof session.csrf !== 'string' || typeof session.expiresAt !== 'number') return undefined;
    if (session.expiresAt * 1000 <= now) return undefined;
    return session;
  } catch {
    return undefined;
  }
}

/** Set-Cookie attributes: HttpOnly, SameSite=Strict, Secure unless served over plain http. */
export function sessionCookieHeader(value: string, opts: { secure: boolean; maxAgeSeconds: number }): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${opts.maxAgeSeconds}`, ...(opts.secure ? ['Secure'] : [])].join('; ');
}

export function clearedSessionCookieHeader(secure: boolean): string {
  return sessionCookieHeader('', { secure, maxAgeSeconds: 0 });
}
