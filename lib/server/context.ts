// Who is asking, and the cluster client that acts as them. In kubeconfig mode that is the
// kubeconfig's user; in token mode it is the token in the person's session cookie and nothing
// else, so the console never lends anyone a more privileged identity. The cluster is the one the
// HTTP server read from the path (`/clusters/<name>/…`, lib/api/cluster-route.ts): home as
// before, another member of the fleet through the fleet's rules for the person's credentials (one
// only the person's OCM hub lists as context-cluster.ts admits it, and not if the hub gives no
// usable address or does not report it Available).
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { kubeConfigForToken, resolveClusterAccess, type ClusterAccess } from '../k8s/cluster-config';
import { ApiError } from './api-error';
import { checkCsrf } from './csrf';
import { requestCluster } from './context-cluster';
import { hubMemberBlocked } from './fleet/hub-members';
import { fleetMembers } from './fleet/members';
import { fleetPerson } from './fleet/person';
import { oidcEnabled } from './oidc/settings';
import { consoleNamespace, SessionRevocations } from './session-revocation';
import { sessionLease } from './session-lease';
import { openSession, SESSION_TTL_SECONDS, sessionCookieName, SessionKey, type Session } from './session';

let access: ClusterAccess | undefined;
let key: SessionKey | undefined;

/** The cluster settings `npm start` passed in the environment, read once. */
export function clusterAccess(env: Record<string, string | undefined> = process.env): ClusterAccess {
  access ??= resolveClusterAccess(
    {
      kubeconfig: env.OLM_CONSOLE_KUBECONFIG || undefined,
      context: env.OLM_CONSOLE_CONTEXT || undefined,
      inCluster: env.OLM_CONSOLE_IN_CLUSTER === 'true',
      // Signing in with an identity provider is per-user sessions by definition.
      perUserTokens: env.OLM_CONSOLE_AUTH === 'token' || oidcEnabled(env),
    },
    env,
  );
  return access;
}

export function sessionKey(): SessionKey {
  key ??= SessionKey.fromEnv();
  return key;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

// One store per process, on globalThis: the HTTP server (loaded through tsx) and each route bundle
// Next.js builds may hold their own copy of this module, and they must honour the same logouts
// at once, with one poll of the record between them.
const shared = globalThis as { olmConsoleRevocations?: SessionRevocations };

/**
 * The console's own identity, for its own bookkeeping only (the session revocation record):
 * the kubeconfig's user (also in per-user-token mode), or the pod's service account in-cluster.
 * Never used for anything a person asks.
 */
export function consoleIdentityClient(env: Record<string, string | undefined> = process.env): KubeClient {
  const a = clusterAccess(env);
  if (a.shared) return new KubeClient(a.shared);
  const kc = new KubeConfig();
  if (env.OLM_CONSOLE_IN_CLUSTER === 'true') kc.loadFromCluster();
  else {
    kc.loadFromFile(env.OLM_CONSOLE_KUBECONFIG || env.KUBECONFIG!.split(':')[0]!);
    if (env.OLM_CONSOLE_CONTEXT) kc.setCurrentContext(env.OLM_CONSOLE_CONTEXT);
  }
  return new KubeClient(kc);
}

/** Logouts every replica honours (started on first use; instrumentation.ts starts it at boot). */
export function revocations(): SessionRevocations {
  if (!shared.olmConsoleRevocations) {
    const store = new SessionRevocations(consoleIdentityClient(), consoleNamespace(), SESSION_TTL_SECONDS * 1000);
    store.start();
    shared.olmConsoleRevocations = store;
  }
  return shared.olmConsoleRevocations;
}

/** The person's session: sealed cookie (the `__Host-` one over TLS), alive, not idle, not revoked. */
export function requestSession(req: Request): Session | undefined {
  const session = openSession(cookie(req, sessionCookieName(isSecureRequest(req))), sessionKey());
  if (!session) return undefined;
  return revocations().isRevoked(session) ? undefined : session;
}

/**
 * The person's token as an authenticating proxy in front of the console passes it: `Authorization:
 * Bearer` (oauth2-proxy's --pass-authorization-header) or `X-Forwarded-Access-Token` (OpenShift's
 * oauth-proxy --pass-access-token), which the HTTP server drops unless --trust-proxy is set.
 * Either is only a credential the API server still checks, never an identity the console believes.
 */
export function proxyToken(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (m) return m[1];
  const forwarded = req.headers.get('x-forwarded-access-token')?.trim();
  return forwarded && /^\S+$/.test(forwarded) ? forwarded : undefined;
}

// Which cluster a request is for (a configured one, or one the person's OCM hub lists).
export { homeClusterOnly, requestCluster } from './context-cluster';

export function requestClient(req: Request): { client: KubeClient; session?: Session } {
  const session = requestSession(req);
  const member = requestCluster(req);
  if (member) {
    // A cluster the hub lists without a usable address, or does not report Available, is not asked.
    const blocked = hubMemberBlocked(member);
    if (blocked) throw new ApiError(503, 'ServiceUnavailable', `${member.name} is not asked: ${blocked}`);
    // The fleet's rules: a per-user token goes to another cluster only when tokens travel (401 why
    // not). Its client already carries the member's cache key (fleet/person.ts), in every mode.
    return { client: fleetPerson(req, fleetMembers()).client(member), session };
  }
  const a = clusterAccess();
  if (a.mode === 'kubeconfig') return { client: new KubeClient(a.shared!), session };
  const proxied = proxyToken(req);
  const token = proxied ?? session?.token;
  if (!token) throw new ApiError(401, 'Unauthorized', 'log in to the console with your own token first');
  const lease = sessionLease(proxied ? undefined : session, token, revocations());
  return { client: new KubeClient(kubeConfigForToken(a, token), undefined, lease), session };
}

/** For writes: the request must come from a console page with the session's CSRF token. */
export function writeClient(req: Request): { client: KubeClient; session?: Session } {
  const verdict = checkCsrf(req, requestSession(req));
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  return requestClient(req);
}

/** A client acting with a given token (to check a token at login). */
export function clientForToken(token: string): KubeClient {
  return new KubeClient(kubeConfigForToken(clusterAccess(), token));
}

/**
 * Whether the browser reached the console over HTTPS: the console's HTTP server decides it from
 * the configured public URL and trusted proxy (lib/server/http), never from a client's header.
 */
export function isSecureRequest(req: Request): boolean {
  return new URL(req.url).protocol === 'https:' || req.headers.get('x-olm-console-tls') === 'true';
}
