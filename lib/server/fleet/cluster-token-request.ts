// What the cluster-token routes share: the person's session (a token can be added only to a
// logged-in session, which it is bound to), the cluster named in the path, and the tokens the
// request already carries.
import { ApiError } from '../api-error';
import { clusterAccess, isSecureRequest, requestSession, sessionKey } from '../context';
import { checkCsrf } from '../csrf';
import type { Session } from '../session';
import { clusterTokens, requestCookies, type ClusterToken } from './cluster-tokens';
import { fleetMembers, type FleetMember } from './members';

export interface ClusterTokenRequest {
  session: Session;
  secure: boolean;
  cookies: Map<string, string>;
  tokens: Map<string, ClusterToken>;
}

/** The logged-in person (per-user mode), with the CSRF check of a write when `write`. */
export function tokenRequest(req: Request, write: boolean): ClusterTokenRequest {
  if (clusterAccess().mode !== 'token')
    throw new ApiError(
      400,
      'BadRequest',
      "this console acts as its kubeconfig's user on every cluster; there are no tokens to add " +
        '(start it with --per-user-tokens or --oidc-issuer for people to sign in)',
    );
  const session = requestSession(req);
  if (write) {
    const verdict = checkCsrf(req, session);
    if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  }
  if (!session?.token) throw new ApiError(401, 'Unauthorized', 'log in to the console first');
  const secure = isSecureRequest(req);
  const cookies = requestCookies(req);
  return { session, secure, cookies, tokens: clusterTokens(cookies, session, sessionKey(), secure) };
}

/** The cluster the path names (URL-decoded as Next.js passes it), which must not be the home cluster. */
export function namedCluster(name: string): FleetMember {
  const members = fleetMembers();
  const m = members.find((x) => x.name === name);
  if (!m)
    throw new ApiError(
      404,
      'NotFound',
      `the console serves no cluster "${name}" (it serves ${members.map((x) => x.name).join(', ')})`,
    );
  if (m.home)
    throw new ApiError(
      400,
      'BadRequest',
      `${name} is the home cluster: the token you logged in with is its token; log in again to change it`,
    );
  return m;
}
