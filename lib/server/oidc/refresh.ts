// Keeps a signed-in person's ID token fresh: a request whose session token expires within
// REFRESH_MARGIN_SECONDS has it refreshed before the console acts, once per session at a time.
// Refresh tokens may rotate (the provider spends the old one), so concurrent requests of one
// session share one refresh, and requests still carrying the old cookie a moment later get its
// result instead of spending the refresh token again. Within this process only: see docs/running.md
// ("Signing in with an identity provider") for replicas.
import { createHash } from 'node:crypto';
import type { Session } from '../session';
import { refreshTokens } from './flow';

export const REFRESH_MARGIN_SECONDS = 20;
/** How long a refresh's result answers requests still carrying the cookie it replaced. */
const REMEMBER_MS = 120_000;

type Refreshes = Map<string, { at: number; result: Promise<Session | undefined> }>;
const shared = globalThis as { olmConsoleOidcRefresh?: Refreshes };
const refreshes = (shared.olmConsoleOidcRefresh ??= new Map());

export function needsRefresh(s: Session, now = Date.now()): boolean {
  return s.auth === 'oidc' && !!s.refreshToken && (s.tokenExpiresAt ?? 0) - REFRESH_MARGIN_SECONDS <= now / 1000;
}

/**
 * The session with new tokens, or undefined when the provider refused the refresh (the grant
 * ended: logged out at the provider, revoked, expired); the person then signs in again.
 */
export function refreshSession(s: Session, refresh = refreshTokens, now = Date.now()): Promise<Session | undefined> {
  for (const [k, v] of refreshes) if (now - v.at > REMEMBER_MS) refreshes.delete(k);
  // Keyed by the refresh token itself (hashed): the lock is per session and per grant generation.
  const k = createHash('sha256').update(`${s.sid}\0${s.refreshToken}`).digest('base64url');
  const known = refreshes.get(k);
  if (known) return known.result;
  const result = refresh(s.refreshToken!).then(
    (t): Session => {
      const lastSeen = Math.floor(Date.now() / 1000);
      return { ...s, token: t.idToken, refreshToken: t.refreshToken, tokenExpiresAt: t.expiresAt, lastSeen };
    },
    () => undefined,
  );
  refreshes.set(k, { at: now, result });
  // Forgotten on time, not only when a later refresh sweeps: the result holds the person's new ID
  // and refresh tokens, which would otherwise stay in memory until someone else's token expires.
  setTimeout(() => {
    if (refreshes.get(k)?.result === result) refreshes.delete(k);
  }, REMEMBER_MS).unref();
  return result;
}
