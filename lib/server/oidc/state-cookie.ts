// The sign-in in progress, between the console's redirect to the provider and the provider's
// redirect back: state, nonce, the PKCE verifier and where to go after. Sealed with the session
// key, ten minutes at most, SameSite=Lax so that the provider's top-level redirect carries it.
import type { SessionKey } from '../session';
import { seal, unseal } from '../sealed';

export const STATE_COOKIE = 'olm_console_signin';
export const STATE_TTL_SECONDS = 600;
const PURPOSE = 'oidc-sign-in-state';

export interface SignInState {
  state: string;
  nonce: string;
  verifier: string;
  /** The console path to land on, already checked to be the console's own. */
  next: string;
  /** Unix seconds. */
  startedAt: number;
}

function cookie(secure: boolean, value: string, maxAge: number): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`, ...(secure ? ['Secure'] : [])];
  return [`${stateCookieName(secure)}=${value}`, ...attributes].join('; ');
}

export function stateCookieName(secure: boolean): string {
  return secure ? `__Host-${STATE_COOKIE}` : STATE_COOKIE;
}

export function stateCookieHeader(s: SignInState, key: SessionKey, secure: boolean): string {
  return cookie(secure, seal(s, PURPOSE, key), STATE_TTL_SECONDS);
}

export function clearedStateCookieHeader(secure: boolean): string {
  return cookie(secure, '', 0);
}

export type StateVerdict = { ok: true; state: SignInState } | { ok: false; reason: 'missing' | 'stale' };

/** The sign-in this browser started here, unless there is none, it was forged, or it is over ten minutes old. */
export function openStateCookie(value: string | undefined, key: SessionKey, now = Date.now()): StateVerdict {
  const s = unseal<SignInState>(value, PURPOSE, key);
  const fields = [s?.state, s?.nonce, s?.verifier, s?.next];
  if (!s || fields.some((f) => typeof f !== 'string')) return { ok: false, reason: 'missing' };
  if (now / 1000 - s.startedAt > STATE_TTL_SECONDS) return { ok: false, reason: 'stale' };
  return { ok: true, state: s };
}
