// GET /api/auth/login?next=PATH: starts a sign-in with the identity provider (authorization code
// flow with PKCE): a 302 to its authorization endpoint, the sign-in state in a sealed cookie.
import { safeRedirectTarget } from '@/lib/client/redirect';
import { isSecureRequest, sessionKey } from '@/lib/server/context';
import { beginSignIn } from '@/lib/server/oidc/flow';
import { consoleOrigin } from '@/lib/server/oidc/origin';
import { problemPage } from '@/lib/server/oidc/problem-page';
import { oidcSettings } from '@/lib/server/oidc/settings';
import { stateCookieHeader } from '@/lib/server/oidc/state-cookie';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const settings = oidcSettings();
  if (!settings) {
    const message = 'this console has no identity provider (start it with --oidc-issuer); log in with a token instead';
    return Response.json({ error: { code: 404, reason: 'NotFound', message } }, { status: 404 });
  }
  const origin = consoleOrigin(req);
  const next = safeRedirectTarget(new URL(req.url).searchParams.get('next'), origin);
  const secure = isSecureRequest(req);
  try {
    const { url, state } = await beginSignIn(origin, next, settings.scopes);
    const cookie = stateCookieHeader(state, sessionKey(), secure);
    const headers = { Location: url.href, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' };
    return new Response(null, { status: 302, headers });
  } catch {
    return problemPage(req, 'provider', next, secure, 502);
  }
}
