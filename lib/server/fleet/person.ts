// The person's client on each cluster of the fleet. Kubeconfig mode: that context's user (the
// person at the laptop). OIDC: the ID token the person signed in with, and only it, sent to every
// cluster; with one identity provider every cluster trusts, one sign-in serves all, and a cluster
// that does not trust it answers 401 on its own row. Per-user tokens: a token was checked against
// the home cluster at login and is that cluster's credential (a service account's, a static
// token); sent to another cluster's API server, whoever runs that server could replay it against
// the home cluster. So it goes to the home cluster only, unless the console's operator says every
// cluster accepts the same tokens (OLM_CONSOLE_FLEET_SHARED_TOKENS=true: one webhook
// authenticator, or the sandbox's fleet, whose seed users have one token everywhere); the other
// clusters' rows say so. Never the console's identity.
import { KubeConfig } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { kubeConfigForToken, newKubeConfigForToken } from '../../k8s/cluster-config';
import { KubeClient } from '../../k8s/client';
import { ApiError } from '../api-error';
import { proxyToken, requestSession } from '../context';
import { oidcEnabled } from '../oidc/settings';
import type { FleetMember } from './members';

export interface FleetPerson {
  /** Who, for the per-person cache: a hash of the token (the token itself is never a key), or the kubeconfig. */
  key: string;
  client(member: FleetMember): KubeClient;
}

// One KubeConfig per (cluster, token), reused, so each person's calls to a cluster share one pool
// of kept-alive connections; the oldest are dropped past the bound.
const perToken = new Map<string, KubeConfig>();
const MAX_CONFIGS = 2000;

function configFor(member: FleetMember, token: string): KubeConfig {
  // The home cluster's come from the same cache as every other page's (context.ts).
  if (member.home) return kubeConfigForToken(member.access, token);
  const key = `${member.name}\n${token}`;
  const hit = perToken.get(key);
  if (hit) {
    perToken.delete(key);
    perToken.set(key, hit);
    return hit;
  }
  // Made as the home cluster's are, so it carries the catalogd address this cluster's settings name.
  const kc = newKubeConfigForToken(member.access, token);
  perToken.set(key, kc);
  if (perToken.size > MAX_CONFIGS) perToken.delete(perToken.keys().next().value!);
  return kc;
}

/** The person asking, as the fleet reaches them on every cluster; 401 when signed out (token mode). */
export function fleetPerson(req: Request, members: readonly FleetMember[]): FleetPerson {
  const kubeconfigMode = members[0]?.access.mode === 'kubeconfig';
  if (kubeconfigMode) {
    return { key: 'kubeconfig', client: (m) => new KubeClient(m.access.shared!) };
  }
  const token = proxyToken(req) ?? requestSession(req)?.token;
  if (!token) throw new ApiError(401, 'Unauthorized', 'log in to the console with your own token first');
  const key = createHash('sha256').update(token).digest('hex');
  const travels = tokenTravels();
  const home = members.find((m) => m.home)?.name ?? 'home';
  return {
    key,
    client: (m) => {
      if (!m.home && !travels)
        throw new ApiError(
          401,
          'Unauthorized',
          `the console sends the token you logged in with only to the cluster it was checked against (${home}); ` +
            `${m.name} is not asked with it unless the console is told that every cluster accepts the same tokens ` +
            '(OLM_CONSOLE_FLEET_SHARED_TOKENS=true) or people sign in with an identity provider',
        );
      return new KubeClient(configFor(m, token));
    },
  };
}

/** Whether a person's token may go to every cluster of the fleet: OIDC, or the operator says so. */
export function tokenTravels(env: Record<string, string | undefined> = process.env): boolean {
  return oidcEnabled(env) || env.OLM_CONSOLE_FLEET_SHARED_TOKENS === 'true';
}
