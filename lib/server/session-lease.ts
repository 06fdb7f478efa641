// The lease under which a person's credentials may outlive their request (lib/k8s/credential-lease.ts):
// a client made with their token carries it, and whatever keeps the client's credentials (a
// catalog's port-forward) lets go of them when it ends. It ends at the session's absolute end, its
// idle end as of this request, the ID token's expiry (signed in with an identity provider), a
// logout of the session on any replica (the revocation record), and at once when the person signs
// out here (endSessionCredentials, called by both sign-out routes and by a refused OIDC refresh;
// endTokenCredentials when they remove a token they added for a cluster).
import { createHash } from 'node:crypto';
import { endCredentials, endLapsedCredentials, type CredentialLease } from '../k8s/credential-lease';
import { revocationKeysOf } from './session-revocation-record';
import type { SessionRevocations } from './session-revocation';
import { idleSeconds, type Session } from './session';

const hashed = (what: string, secret: string) =>
  `${what}:${createHash('sha256').update(`${what}\0${secret}`).digest('base64url').slice(0, 24)}`;

/** The names a session's credentials are held under: its id and its token, hashed. */
function sessionNames(session: Session | undefined, token: string | undefined): string[] {
  return [...(session ? [hashed('session', session.sid)] : []), ...(token ? [hashed('token', token)] : [])];
}

/**
 * The lease for `token` used in `session` (a session holding a token: per-user sign-in or OIDC).
 * Without a session of its own (a token an authenticating proxy passes) the lease names the token
 * only: it ends when that token is signed out through the console or the holder falls idle.
 */
export function sessionLease(
  session: Session | undefined,
  token: string,
  revocations: Pick<SessionRevocations, 'isRevokedByKeys'>,
  idle = idleSeconds(),
): CredentialLease {
  if (!session?.token) return { names: sessionNames(undefined, token), until: Infinity };
  const ends = [session.expiresAt, session.lastSeen + idle];
  if (session.auth === 'oidc' && session.tokenExpiresAt) ends.push(session.tokenExpiresAt);
  const keys = revocationKeysOf(session);
  return {
    names: sessionNames(session, token),
    until: Math.min(...ends) * 1000,
    ended: () => revocations.isRevokedByKeys(keys),
  };
}

/**
 * Drops, now, every credential kept for this session or with this token (a sign-out, here), and
 * whatever a logout recorded a moment ago ends elsewhere (a "log out everywhere" names the user).
 */
export function endSessionCredentials(session: Session | undefined, token: string | undefined): number {
  return endCredentials(sessionNames(session, token)) + endLapsedCredentials();
}

/** Drops, now, every credential kept with this token alone (a cluster's token the person removed). */
export function endTokenCredentials(token: string): number {
  return endCredentials(sessionNames(undefined, token));
}
