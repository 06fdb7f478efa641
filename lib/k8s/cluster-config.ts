// How the console reaches the cluster, and as whom. Two identities exist and are never mixed:
// `kubeconfig` mode acts as the kubeconfig's user (one person on a laptop); `token` mode acts
// with the bearer token of the person logged in, against a cluster whose address and CA come
// from a kubeconfig or from the pod's service account mount (in-cluster). In token mode the
// console's own credentials are never used for a user's request.
import { KubeConfig, type Cluster } from '@kubernetes/client-node';

export type AuthMode = 'kubeconfig' | 'token';

export interface ClusterAccess {
  mode: AuthMode;
  /** Where the API server is, for messages ("cannot reach the cluster at …"). */
  server: string;
  /** The cluster entry every per-user KubeConfig is built on. */
  cluster: Cluster;
  /** kubeconfig mode only: the KubeConfig used for every request. */
  shared?: KubeConfig;
  /** Where the settings came from, for the start banner and errors. */
  source: string;
}

export interface AccessOptions {
  /** Path of a kubeconfig file; defaults to $KUBECONFIG, then ~/.kube/config. */
  kubeconfig?: string;
  context?: string;
  /** Read the cluster from the service account mount, as a pod does. */
  inCluster?: boolean;
  /** Ask each person for their own token instead of using the kubeconfig's user. */
  perUserTokens?: boolean;
}

export function resolveClusterAccess(
  opts: AccessOptions,
  env: Record<string, string | undefined> = process.env,
): ClusterAccess {
  const kc = new KubeConfig();
  let source: string;
  if (opts.inCluster) {
    kc.loadFromCluster();
    source = 'in-cluster service account mount';
  } else {
    const file = opts.kubeconfig ?? env.KUBECONFIG?.split(':')[0];
    if (file) {
      kc.loadFromFile(file);
      source = `kubeconfig ${file}`;
    } else {
      kc.loadFromDefault();
      source = 'default kubeconfig';
    }
    if (opts.context) {
      if (!kc.getContextObject(opts.context)) {
        const known =
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none';
        throw new Error(`context "${opts.context}" is not in the ${source} (contexts: ${known})`);
      }
      kc.setCurrentContext(opts.context);
    }
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error(`the ${source} names no current cluster`);
  // In-cluster, the only identity at hand is the console's own service account: acting with it
  // for users would give everyone its rights, so in-cluster always means per-user tokens.
  const mode: AuthMode = opts.inCluster || opts.perUserTokens ? 'token' : 'kubeconfig';
  return { mode, server: cluster.server, cluster, shared: mode === 'kubeconfig' ? kc : undefined, source };
}

/** A KubeConfig that carries only this person's token for the configured cluster. */
// One KubeConfig per token, reused across requests, so each person's calls share one pool of
// kept-alive connections instead of a TLS handshake (and an idle socket left behind) per request.
const perToken = new Map<string, { access: ClusterAccess; kc: KubeConfig }>();
const MAX_TOKENS = 500;

export function kubeConfigForToken(access: ClusterAccess, token: string): KubeConfig {
  const hit = perToken.get(token);
  if (hit && hit.access === access) {
    // Map order is insertion order: re-inserting keeps the most recently used last.
    perToken.delete(token);
    perToken.set(token, hit);
    return hit.kc;
  }
  const kc = newKubeConfigForToken(access, token);
  perToken.set(token, { access, kc });
  if (perToken.size > MAX_TOKENS) perToken.delete(perToken.keys().next().value!);
  return kc;
}

function newKubeConfigForToken(access: ClusterAccess, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ ...access.cluster, name: 'cluster' }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'user', cluster: 'cluster', user: 'user' }],
    currentContext: 'user',
  });
  return kc;
}
