// POST /api/auth/logout (a console page, with its CSRF token): ends the console session as
// DELETE /api/session does (dropping the tokens added for other clusters too), and answers where to send the browser to end the identity
// provider's session too (its end_session_endpoint with id_token_hint), or /login.
import { z } from 'zod';
import { ApiError, readOptionalJson } from '@/lib/server/api-error';
import { checkCsrf } from '@/lib/server/csrf';
import { isSecureRequest, requestSession, revocations } from '@/lib/server/context';
import { clearedClusterTokenCookies, requestCookies } from '@/lib/server/fleet/cluster-tokens';
import { endSessionUrl } from '@/lib/server/oidc/flow';
import { consoleOrigin } from '@/lib/server/oidc/origin';
import { clearedSessionCookieHeader } from '@/lib/server/session';
import { endSessionCredentials } from '@/lib/server/session-lease';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

// No options: a body, if any, is `{}` (an unknown field is refused, as everywhere in the API).
const Logout = z.strictObject({});

export const POST = route(async (req) => {
  const session = requestSession(req);
  const verdict = checkCsrf(req, session);
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  await readOptionalJson(req, Logout);
  // The session's cookie, and the tokens added for other clusters in it (useless without it, but
  // not left in the browser).
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  headers.append('Set-Cookie', clearedSessionCookieHeader(isSecureRequest(req)));
  for (const c of clearedClusterTokenCookies(requestCookies(req), isSecureRequest(req)))
    headers.append('Set-Cookie', c);
  const login = `${consoleOrigin(req)}/login`;
  if (!session?.token) return Response.json({ redirect: '/login' }, { headers });
  // Saved copies of the cookie stop working on every replica (a failure to record it is the
  // same 503 as DELETE /api/session's; the provider's session is then left as it is).
  const recorded = revocations().revokeSession(session);
  // What this replica keeps of the person's credentials (a catalog's port-forward) goes now.
  endSessionCredentials(session, session.token);
  await recorded;
  let redirect = '/login';
  if (session.auth === 'oidc') {
    try {
      redirect = (await endSessionUrl(session.token, login)) ?? '/login';
    } catch {
      // The provider cannot be reached: the console session is over all the same.
    }
  }
  return Response.json({ redirect }, { headers });
});
