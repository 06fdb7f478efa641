// What the console refuses before a request reaches a route: bodies it would have to read to find
// out they are too big, bodies that are not JSON, and login attempts faster than a person types.
// These run in the HTTP server in front of Next.js (lib/server/http), where the body has not been
// read yet and the peer's address is known.

import { createHash } from 'node:crypto';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface Refusal {
  status: number;
  reason: string;
  message: string;
  headers?: Record<string, string>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Checks a request's body by its headers alone, on the canonical path; undefined when it may be
 * read. Every path is held to the size (a page has no use for a body, and Next.js would still
 * read one for a server action); only the API's must be JSON.
 */
export function checkBody(
  method: string,
  path: string,
  headers: { get(name: string): string | null | undefined },
): Refusal | undefined {
  if (!BODY_METHODS.has(method.toUpperCase())) return undefined;
  const length = headers.get('content-length');
  if (headers.get('transfer-encoding') && !length) {
    return {
      status: 411,
      reason: 'LengthRequired',
      message: 'send the request body with a Content-Length header (at most 1 MiB)',
    };
  }
  const n = length === null || length === undefined ? 0 : Number(length);
  if (!Number.isSafeInteger(n) || n < 0)
    return { status: 400, reason: 'BadRequest', message: `Content-Length "${length}" is not a number of bytes` };
  if (n > MAX_BODY_BYTES)
    return {
      status: 413,
      reason: 'RequestEntityTooLarge',
      message: `the request body is ${n} bytes; the console accepts at most ${MAX_BODY_BYTES} (1 MiB)`,
    };
  if (n === 0 || !path.startsWith('/api/')) return undefined;
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    return {
      status: 415,
      reason: 'UnsupportedMediaType',
      message: `the request body must be JSON (Content-Type: application/json), not "${type || 'none'}"`,
    };
  }
  return undefined;
}

/**
 * A sliding-window limit per key (the client's address): at most `limit` events in `windowMs`.
 * Memory is bounded by forgetting the least recently seen keys.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Records an attempt; returns the seconds to wait when it is over the limit. */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.hits.delete(key);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
    return { ok: true };
  }
}

/** Login attempts: 10 a minute from one address. */
export const LOGIN_ATTEMPTS = { limit: 10, windowMs: 60_000 };

/**
 * A token pasted at the login form, or the identity provider's redirect back with a code: each
 * makes the console call out (the cluster, the provider's token endpoint), and a flood of made-up
 * codes is a guessing attempt like a flood of tokens.
 */
export function isLoginAttempt(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return (m === 'POST' && path === '/api/session') || (m === 'GET' && path === '/api/auth/callback');
}

/**
 * Bearer tokens an address has used lately (hashed, never kept as they are): a token a proxy
 * passes on is a login in all but name, so the first request with a token new to the address
 * is counted against the login limit, and a person's later requests with the same token are not.
 * Bounded by forgetting the least recently seen.
 */
export class TokenSightings {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  isNew(peer: string, token: string, now = Date.now()): boolean {
    const key = createHash('sha256').update(peer).update('\0').update(token).digest('base64');
    const last = this.seen.get(key);
    this.seen.delete(key);
    this.seen.set(key, now);
    if (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value!);
    return last === undefined || now - last > this.ttlMs;
  }
}
