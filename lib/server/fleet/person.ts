// The person's client on each cluster of the fleet. Kubeconfig mode: that context's user (the
// person at the laptop). OIDC: the ID token the person signed in with, and only it, sent to every
// cluster; with one identity provider every cluster trusts, one sign-in serves all, and a cluster
// that does not trust it answers 401 on its own row. Per-user tokens: a token was checked against
// the home cluster at login and is that cluster's credential (a service account's, a static
// token); sent to another cluster's API server, whoever runs that server could replay it against
// the home cluster. So it goes to the home cluster only, unless the console's operator says every
// cluster accepts the same tokens (OLM_CONSOLE_FLEET_SHARED_TOKENS=true: one webhook
// authenticator, or the sandbox's fleet, whose seed users have one token everywhere); the other
// clusters' rows say so. A token the person added for one cluster (cluster-tokens.ts, checked
// against that cluster when added) goes to that cluster only, and is used there before the login
// token; never to a cluster an OCM hub adds, whose address the hub gives. Never the console's identity.
// Every client but home's carries its cluster's cache key (members.ts), in either mode: the caches
// that keep what a cluster answered (catalog indexes, ClusterCatalog content and its snapshots) key
// on it, and a client without one is taken for the home cluster's.
import { createHash } from 'node:crypto';
import { kubeConfigForToken } from '../../k8s/cluster-config';
import { KubeClient } from '../../k8s/client';
import { ApiError } from '../api-error';
import { isSecureRequest, proxyToken, requestSession, revocations, sessionKey } from '../context';
import { sessionLease } from '../session-lease';
import { oidcEnabled } from '../oidc/settings';
import { clusterTokens, requestCookies } from './cluster-tokens';
import { rememberCacheKey, type FleetMember } from './members';

export interface FleetPerson {
  /** Who, for the per-person cache: a hash of the token (the token itself is never a key), or the kubeconfig. */
  key: string;
  client(member: FleetMember): KubeClient;
}

/** The person asking, as the fleet reaches them on every cluster; 401 when signed out (token mode). */
export function fleetPerson(req: Request, members: readonly FleetMember[]): FleetPerson {
  const kubeconfigMode = members[0]?.access.mode === 'kubeconfig';
  if (kubeconfigMode) {
    return { key: 'kubeconfig', client: (m) => new KubeClient(m.access.shared!, rememberCacheKey(m)) };
  }
  const session = requestSession(req);
  const proxied = proxyToken(req);
  const token = proxied ?? session?.token;
  if (!token) throw new ApiError(401, 'Unauthorized', 'log in to the console with your own token first');
  // What may keep a credential past the request (a catalog's port-forward) lets go of it with the session.
  const leaseOf = (t: string) => sessionLease(proxied ? undefined : session, t, revocations());
  const added = clusterTokens(requestCookies(req), session, sessionKey(), isSecureRequest(req));
  // The cache's key covers every token the person is asking with: adding or removing a cluster's
  // token is a different person to the cache, so no answer given with the old one is shown again.
  const hash = createHash('sha256').update(token);
  for (const [cluster, t] of [...added].sort(([a], [b]) => a.localeCompare(b))) hash.update(`\n${cluster}\n${t.token}`);
  const key = hash.digest('hex');
  const travels = tokenTravels();
  const home = members.find((m) => m.home)?.name ?? 'home';
  return {
    key,
    client: (m) => {
      // A cluster's own token was checked against the address the settings give; a cluster the hub
      // adds has the address the hub gives, which anyone who may write its ManagedCluster chooses.
      const own = m.home || m.managed?.source === 'hub' ? undefined : added.get(m.name);
      if (own) return new KubeClient(kubeConfigForToken(m.access, own.token), rememberCacheKey(m), leaseOf(own.token));
      if (!m.home && !travels)
        throw new ApiError(
          401,
          'Unauthorized',
          `the console sends the token you logged in with only to the cluster it was checked against (${home}); ` +
            (m.managed?.source === 'hub'
              ? `${m.name} is listed by the hub only, so it is asked only where every cluster accepts the same tokens`
              : `add your token for ${m.name} on the Clusters page, or have the console told that every cluster ` +
                'accepts the same tokens') +
            ' (OLM_CONSOLE_FLEET_SHARED_TOKENS=true) or people sign in with an identity provider',
        );
      return new KubeClient(kubeConfigForToken(m.access, token), rememberCacheKey(m), leaseOf(token));
    },
  };
}

/** Whether a person's token may go to every cluster of the fleet: OIDC, or the operator says so. */
export function tokenTravels(env: Record<string, string | undefined> = process.env): boolean {
  return oidcEnabled(env) || env.OLM_CONSOLE_FLEET_SHARED_TOKENS === 'true';
}
