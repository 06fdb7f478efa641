// How the console reaches the cluster, and as whom. Two identities exist and are never mixed:
// `kubeconfig` mode acts as the kubeconfig's user (one person on a laptop); `token` mode acts
// with the bearer token of the person logged in, against a cluster whose address and CA come
// from a kubeconfig or from the pod's service account mount (in-cluster). In token mode the
// console's own credentials are never used for a user's request.
import { readFileSync } from 'node:fs';
import { KubeConfig, type Cluster } from '@kubernetes/client-node';
import yaml from 'js-yaml';

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
  /**
   * Where catalogd serves ClusterCatalog content for this cluster, when the kubeconfig's cluster
   * says so (its extension CATALOGD_EXTENSION): the sandbox and `npm run cluster` write it.
   */
  catalogd?: string;
}

/** The kubeconfig cluster extension naming catalogd's content address: `{url: https://host:port}`. */
export const CATALOGD_EXTENSION = 'olm-console.dev/catalogd';

/**
 * The catalogd address the kubeconfig's cluster names, read from the file itself: the client
 * library keeps no extensions. A file it cannot read that way has none (the client library has
 * already accepted or refused it).
 */
function catalogdExtension(file: string, contextName: string): string | undefined {
  type Named<T> = { name?: unknown } & T;
  let doc: {
    contexts?: Named<{ context?: { cluster?: unknown } }>[];
    clusters?: Named<{ cluster?: { extensions?: Named<{ extension?: { url?: unknown } }>[] } }>[];
  };
  try {
    doc = yaml.load(readFileSync(file, 'utf8')) as typeof doc;
    const cluster = doc?.contexts?.find((c) => c?.name === contextName)?.context?.cluster;
    const entry = doc?.clusters?.find((c) => c?.name === cluster)?.cluster?.extensions;
    const url = (Array.isArray(entry) ? entry : []).find((e) => e?.name === CATALOGD_EXTENSION)?.extension?.url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

// The catalogd address each KubeConfig was made with: requests carry only a KubeConfig, and the
// content reader needs the address the console was told of for that cluster. One map per process,
// on globalThis: the HTTP server (loaded through tsx) makes the fleet's KubeConfigs when it routes
// a request to a cluster, and each route bundle Next.js builds holds its own copy of this module,
// whose own map would not know them.
const CATALOGD_OF = Symbol.for('olm-console.catalogd-of');
const catalogdOf: WeakMap<KubeConfig, string> = ((globalThis as { [CATALOGD_OF]?: WeakMap<KubeConfig, string> })[
  CATALOGD_OF
] ??= new WeakMap());

/** The catalogd address the console's settings name for this KubeConfig's cluster, if any. */
export function catalogdAddressOf(kc: KubeConfig): string | undefined {
  return catalogdOf.get(kc);
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
  let file: string | undefined;
  if (opts.inCluster) {
    kc.loadFromCluster();
    source = 'in-cluster service account mount';
  } else {
    file = opts.kubeconfig ?? env.KUBECONFIG?.split(':')[0];
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
  const catalogd = file ? catalogdExtension(file, kc.getCurrentContext()) : undefined;
  if (catalogd) catalogdOf.set(kc, catalogd);
  return {
    mode,
    server: cluster.server,
    cluster,
    shared: mode === 'kubeconfig' ? kc : undefined,
    source,
    ...(catalogd ? { catalogd } : {}),
  };
}

/**
 * A KubeConfig that carries only this person's token for the cluster `access` names, made for one
 * request and held by nothing once that request is done.
 */
// Not kept per token: what a kept one would save is its making (a fraction of a microsecond, less
// than the per-request TLS options every request builds anyway), not a connection: lib/k8s/http.ts
// pools connections per process by TLS identity, and a bearer token is a header, never part of one.
// A map here was this module copy's (Next.js loads one per route bundle), each holding hundreds of
// people's tokens long after they logged out or their session was revoked.
export function kubeConfigForToken(access: ClusterAccess, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ ...access.cluster, name: 'cluster' }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'user', cluster: 'cluster', user: 'user' }],
    currentContext: 'user',
  });
  if (access.catalogd) catalogdOf.set(kc, access.catalogd);
  return kc;
}
