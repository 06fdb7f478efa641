// When the session an event stream acts with is over, the stream must be too: a stream opened
// before a logout would otherwise go on showing the cluster to whoever holds the tab. The stream
// asks this every second; revocations reach it from the record every replica re-reads.
import { revocationKeysOf } from './session-revocation-record';
import { idleSeconds, type Session } from './session';
import type { SessionRevocations } from './session-revocation';

/**
 * `ended`: logged out (here, on another replica, or everywhere) or past its absolute lifetime;
 * the page is told, so that it goes to the login page rather than reconnecting.
 * `recheck`: this copy of the cookie has gone idle, but the browser may hold a fresher one (the
 * page's other requests renew it): the stream just ends, the browser reconnects with its cookie,
 * and a session really idle is refused there like any other request.
 */
export type StreamSessionState =
  { state: 'live' } | { state: 'ended'; reason: 'logged-out' | 'expired'; message: string } | { state: 'recheck' };

type Revocations = Pick<SessionRevocations, 'isRevokedByKeys'>;

/** Inside the HTTP server's refresh margin (20 s), so the reconnect is the request that refreshes. */
const TOKEN_RECHECK_SECONDS = 10;

export function streamSessionCheck(
  session: Session,
  revocations: Revocations,
  idle = idleSeconds(),
): (now?: number) => StreamSessionState {
  const keys = revocationKeysOf(session);
  return (now = Date.now()) => {
    if (revocations.isRevokedByKeys(keys)) {
      return { state: 'ended', reason: 'logged-out', message: 'this session was logged out; log in again' };
    }
    if (session.expiresAt * 1000 <= now) {
      return { state: 'ended', reason: 'expired', message: 'this session reached its lifetime; log in again' };
    }
    if ((session.lastSeen + idle) * 1000 <= now) return { state: 'recheck' };
    // Signed in with an identity provider: the stream's ID token is about to expire. The browser
    // reconnects, and the HTTP server refreshes the token on that request (lib/server/oidc).
    if (
      session.auth === 'oidc' &&
      session.tokenExpiresAt &&
      (session.tokenExpiresAt - TOKEN_RECHECK_SECONDS) * 1000 <= now
    ) {
      return { state: 'recheck' };
    }
    return { state: 'live' };
  };
}
