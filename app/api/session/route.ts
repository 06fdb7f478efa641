// The console session. GET: who you are (signed in with the identity provider: user and groups
// as the API server sees them), how you sign in (`auth`), the mode, and the CSRF token your page
// sends on every write (a session cookie is set if there is none). POST {token}: log in with your own bearer
// token (per-user mode), checked with the cluster before it is kept. DELETE: log out.
import { z } from 'zod';
import { KubeError } from '@/lib/k8s/errors';
import { ApiError, readJson, readOptionalJson } from '@/lib/server/api-error';
import { checkCsrf, checkSameOrigin } from '@/lib/server/csrf';
import {
  clientForToken,
  clusterAccess,
  isSecureRequest,
  proxyToken,
  requestClient,
  requestSession,
  revocations,
  sessionKey,
} from '@/lib/server/context';
import { clearedClusterTokenCookies, requestCookies } from '@/lib/server/fleet/cluster-tokens';
import { oidcEnabled } from '@/lib/server/oidc/settings';
import { whoAmI, whoAmIWithGroups } from '@/lib/server/permissions';
import { isRevocationWriteError } from '@/lib/server/session-revocation';
import { endSessionCredentials } from '@/lib/server/session-lease';
import { imageOriginsFromEnv } from '@/lib/server/security/page-headers';
import {
  clearedSessionCookieHeader,
  newSession,
  sealSession,
  SESSION_TTL_SECONDS,
  sessionCookieHeader,
  type Session,
} from '@/lib/server/session';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const TTL_SECONDS = SESSION_TTL_SECONDS;
function withCookie(body: unknown, session: Session, req: Request, status = 200): Response {
  return Response.json(body, {
    status,
    headers: {
      'Set-Cookie': sessionCookieHeader(sealSession(session, sessionKey()), {
        secure: isSecureRequest(req),
        maxAgeSeconds: TTL_SECONDS,
      }),
      'Cache-Control': 'no-store',
    },
  });
}

export const GET = route(async (req) => {
  const mode = clusterAccess().mode;
  let session = requestSession(req);
  let username = session?.username;
  let groups: string[] | null = null;
  let loggedIn = !!session?.token;
  const fromProxy = mode === 'token' ? proxyToken(req) : undefined;
  if (mode === 'kubeconfig') {
    username = await whoAmI(requestClient(req).client);
    loggedIn = true;
  } else if (fromProxy) {
    // Behind an authenticating proxy the person is logged in already; the session cookie
    // still carries the CSRF token their page echoes on writes.
    username = await whoAmI(clientForToken(fromProxy));
    loggedIn = true;
  } else if (session?.auth === 'oidc' && session.token) {
    // Who the API server says the ID token is, groups included: never the token's own claims.
    try {
      ({ username, groups } = await whoAmIWithGroups(clientForToken(session.token)));
    } catch (err) {
      if (!(err instanceof KubeError && err.code === 401)) throw err;
      // The token expired and could not be refreshed: sign in again.
      loggedIn = false;
      username = undefined;
    }
  }
  const fresh = !session;
  session ??= newSession(TTL_SECONDS);
  // How this person signed in, or (not yet signed in) how this console offers to sign in.
  const auth =
    mode === 'kubeconfig'
      ? null
      : loggedIn
        ? session.auth === 'oidc'
          ? 'oidc'
          : 'token'
        : oidcEnabled()
          ? 'oidc'
          : 'token';
  const body = {
    mode,
    loggedIn,
    username: username ?? null,
    groups,
    auth,
    csrfToken: session.csrf,
    imageOrigins: imageOriginsFromEnv(),
  };
  return fresh ? withCookie(body, session, req) : Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});

// A bearer token is printable ASCII (RFC 6750's token68 and the JWTs and service-account tokens
// clusters issue); anything else cannot be sent in a header, and is the person's typo to fix.
const BEARER = /^[\x21-\x7e]+$/;
const Login = z.strictObject({
  token: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(16_384, 'is too long for a bearer token')
    .regex(BEARER, 'must be printable ASCII without spaces or control characters, as a bearer token is'),
});
const Logout = z.strictObject({ everywhere: z.boolean().optional() });

export const POST = route(async (req) => {
  const origin = checkSameOrigin(req);
  if (!origin.ok) throw new ApiError(403, 'Forbidden', origin.message);
  if (clusterAccess().mode !== 'token')
    throw new ApiError(
      400,
      'BadRequest',
      'this console acts with its kubeconfig identity; there is no login (start it with --per-user-tokens to log in with your own token)',
    );
  const { token } = await readJson(req, Login);
  let username: string;
  try {
    username = await whoAmI(clientForToken(token));
  } catch (err) {
    if (err instanceof KubeError && err.code === 401)
      throw new ApiError(401, 'Unauthorized', 'the cluster did not accept this token');
    throw err;
  }
  const session = newSession(TTL_SECONDS, token, username);
  return withCookie({ mode: 'token', loggedIn: true, username, csrfToken: session.csrf }, session, req);
});

/**
 * Logout. Only a logged-in session (per-user mode: one holding the person's token) is written to
 * the revocation record, so that its saved copies stop working on every replica. Any other
 * session grants nothing a fresh visit would not (its CSRF token, in kubeconfig mode the
 * console's shared identity): clearing the cookie is the whole logout, and nothing is written,
 * so that anyone's anonymous logouts cannot fill the record.
 */
export const DELETE = route(async (req) => {
  // The session's cookie, and the tokens added for the fleet's other clusters in it.
  const cleared = new Headers({ 'Cache-Control': 'no-store' });
  cleared.append('Set-Cookie', clearedSessionCookieHeader(isSecureRequest(req)));
  for (const c of clearedClusterTokenCookies(requestCookies(req), isSecureRequest(req)))
    cleared.append('Set-Cookie', c);
  const session = requestSession(req);
  const verdict = checkCsrf(req, session);
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  const { everywhere } = await readOptionalJson(req, Logout);
  const loggedIn = session?.token ? session : undefined;
  if (everywhere && !loggedIn?.username) {
    throw new ApiError(400, 'BadRequest', 'this session has no user to log out everywhere; log in first');
  }
  try {
    // A cut-off at this moment covers this session too.
    const recorded = everywhere
      ? revocations().revokeUser(loggedIn!.username!)
      : loggedIn
        ? revocations().revokeSession(loggedIn)
        : undefined;
    // What this replica keeps of the person's credentials (a catalog's port-forward) goes now,
    // whether or not the record reaches the other replicas; they end theirs when it does.
    endSessionCredentials(session, proxyToken(req) ?? session?.token);
    await recorded;
  } catch (err) {
    if (!isRevocationWriteError(err)) throw err;
    // This replica refuses the session already; the person must know the others do not yet.
    const message =
      'you are logged out in this browser and on this replica, but the console could not record the logout ' +
      `for its other replicas (${err.message}); there a copy of this session's cookie works until the console ` +
      "manages to write it (it keeps trying). Tell the console's administrator.";
    const body = { error: { code: 503, reason: 'ServiceUnavailable', message } };
    return Response.json(body, { status: 503, headers: cleared });
  }
  return new Response(null, { status: 204, headers: cleared });
});
