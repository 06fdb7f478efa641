// Whom an event stream belongs to: the keys it is counted under (stream-limits.ts), and the
// session whose end must end it. The person is who the cluster says they are (the name their
// session's token was checked as at login, or what the cluster answers for a proxy's token),
// never a name a client sends.
import { isKubeError } from '../k8s/errors';
import { ApiError } from './api-error';
import type { Session } from './session';
import { opaqueKey, type StreamOwner } from './stream-limits';

export interface StreamOwnership {
  owner: StreamOwner;
  /** Set when the stream acts with the token in this session: its logout or expiry ends the stream. */
  endsWith?: Session;
}

export interface OwnerFacts {
  mode: 'kubeconfig' | 'token';
  session?: Session;
  /** The token an authenticating proxy passed (per-user mode), which the stream acts with. */
  proxyToken?: string;
  /** Who the cluster says the proxy's token is. */
  whoAmI: () => Promise<string>;
  /** The fleet member the stream watches (undefined for home): each cluster says who a token is. */
  cluster?: string;
}

export async function streamOwnership(facts: OwnerFacts): Promise<StreamOwnership> {
  const { mode, session, proxyToken } = facts;
  const sessionKey = session ? opaqueKey('session', session.sid) : undefined;
  if (mode === 'kubeconfig') {
    // Everyone acts as the kubeconfig's user, so to the cluster they are one person; the session
    // cookie is not an identity here (it carries a CSRF token only), so it ends nothing. Each
    // browser is counted as a person of its own: counting every visitor as the kubeconfig's user
    // would let sixteen open tabs, anyone's, stop everyone else's pages following the cluster.
    const browser = sessionKey ?? 'no-session';
    return { owner: { user: `browser:${browser}`, session: browser } };
  }
  if (proxyToken) {
    // A request without the page's cookie counts its token as its session.
    const user = `user:${await proxyUser(proxyToken, facts.whoAmI, facts.cluster)}`;
    return { owner: { user, session: sessionKey ?? opaqueKey('token', proxyToken) } };
  }
  if (!session?.token) throw new ApiError(401, 'Unauthorized', 'log in to the console with your own token first');
  const user = session.username ? `user:${session.username}` : sessionKey!;
  return { owner: { user, session: sessionKey! }, endsWith: session };
}

const IDENTITY_TTL_MS = 60_000;
const MAX_IDENTITIES = 1_000;
/** Token (hashed) → who the cluster said it was, for a minute: a page's reconnects ask once. */
const identities = new Map<string, { user: string; until: number }>();

async function proxyUser(token: string, whoAmI: () => Promise<string>, cluster?: string): Promise<string> {
  const key = opaqueKey('token', token);
  // One cluster's word on a token (or its acceptance of it) is not another's.
  const asked = cluster ? `${cluster}\n${key}` : key;
  const known = identities.get(asked);
  if (known && known.until > Date.now()) return known.user;
  let user: string;
  try {
    user = await whoAmI();
  } catch (err) {
    if (isKubeError(err, 401)) {
      throw new ApiError(401, 'Unauthorized', 'the cluster did not accept the token the proxy passed');
    }
    // A cluster that cannot say (no SelfSubjectReview): the token stands for its holder.
    return key;
  }
  if (!user) return key;
  if (identities.size >= MAX_IDENTITIES) identities.delete(identities.keys().next().value!);
  identities.set(asked, { user, until: Date.now() + IDENTITY_TTL_MS });
  return user;
}
