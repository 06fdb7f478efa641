// GET /api/auth/callback: the identity provider's redirect back. The code is exchanged (state,
// nonce, PKCE, and the ID token's issuer, audience and expiry checked by openid-client), the
// cluster asked who the ID token is, and a session opened with it as the person's bearer token.
import { KubeError } from '@/lib/k8s/errors';
import { clientForToken, isSecureRequest, sessionKey } from '@/lib/server/context';
import { signInProblem } from '@/lib/server/oidc/errors';
import { CALLBACK_PATH, finishSignIn, type OidcTokens } from '@/lib/server/oidc/flow';
import { consoleOrigin } from '@/lib/server/oidc/origin';
import { problemPage } from '@/lib/server/oidc/problem-page';
import { clearedStateCookieHeader, openStateCookie, stateCookieName } from '@/lib/server/oidc/state-cookie';
import { whoAmI } from '@/lib/server/permissions';
import { cookieFits, newSession, sealSession, SESSION_TTL_SECONDS, sessionCookieHeader } from '@/lib/server/session';

export const dynamic = 'force-dynamic';

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export async function GET(req: Request): Promise<Response> {
  const secure = isSecureRequest(req);
  const verdict = openStateCookie(cookie(req, stateCookieName(secure)), sessionKey());
  if (!verdict.ok) return problemPage(req, verdict.reason, '/operatorhub', secure);
  const { state } = verdict;
  const origin = consoleOrigin(req);
  let tokens: OidcTokens;
  try {
    tokens = await finishSignIn(new URL(`${origin}${CALLBACK_PATH}${new URL(req.url).search}`), state);
  } catch (err) {
    return problemPage(req, signInProblem(err), state.next, secure);
  }
  let username: string;
  try {
    username = await whoAmI(clientForToken(tokens.idToken));
  } catch (err) {
    if (err instanceof KubeError && err.code === 401) return problemPage(req, 'refused', state.next, secure, 403);
    return problemPage(req, 'cluster', state.next, secure, 502);
  }
  const session = {
    ...newSession(SESSION_TTL_SECONDS, tokens.idToken, username),
    auth: 'oidc' as const,
    refreshToken: tokens.refreshToken,
    tokenExpiresAt: tokens.expiresAt,
  };
  const sealed = sealSession(session, sessionKey());
  const setCookie = sessionCookieHeader(sealed, { secure, maxAgeSeconds: SESSION_TTL_SECONDS });
  if (!cookieFits(setCookie)) return problemPage(req, 'cookie-size', state.next, secure, 500);
  const headers = new Headers({ Location: state.next, 'Cache-Control': 'no-store' });
  headers.append('Set-Cookie', setCookie);
  headers.append('Set-Cookie', clearedStateCookieHeader(secure));
  return new Response(null, { status: 302, headers });
}
