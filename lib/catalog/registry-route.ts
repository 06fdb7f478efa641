// How the console reaches a catalog's registry gRPC API: at the address its CatalogSource reports
// when that answers from here (a catalog given by address, a console running in the cluster),
// else through a port-forward to the catalog's pod via the Kubernetes API, as the person asking
// (who needs `create` on pods/portforward in the catalog's namespace). Forwards are kept per
// person, session and pod: one serves only the requests of the session whose credentials opened
// it. It is closed when nobody has used it for a while, and ended (no new connection, its
// credentials forgotten) when that session's lease ends: sign-out, logout on another replica, the
// session's or ID token's end (lib/k8s/credential-lease.ts).
// Whoever may create a CatalogSource chooses its address: the console dials an address directly
// only for CatalogSources in namespaces the administrator trusts (by default the global catalog
// namespaces, which only cluster administrators write); any other catalog is reached through the
// API server's port-forward as the person, so nobody can aim the console at an internal address.
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { KubeClient } from '../k8s/client';
import { holdCredentials, leaseLapsed, type CredentialHold } from '../k8s/credential-lease';
import { listenPortForward, type LocalForward } from '../k8s/port-forward';
import { CATALOG_REGISTRY_PORT, CATALOG_SOURCE_POD_LABEL, type CatalogSource } from '../olm/resources/catalog-source';
import { POD_TYPE } from '../k8s/core-kinds';

const REACHABLE_TTL_MS = 30_000;
const IDLE_MS = 5 * 60_000;

export interface RegistryRoute {
  /** What to dial: the reported address, or the local end of a port-forward. */
  dial: string;
  via: 'direct' | 'port-forward';
  /** The pod forwarded to. */
  pod?: string;
  /**
   * What bundles read this way are cached under: the address when it is dialled; through a forward,
   * the pod and its port, never the forward's local port, which a later forward (another person's,
   * to another catalog) may be given once this one is gone.
   */
  cacheKey: string;
}

interface PodLike {
  metadata?: { name?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: { phase?: string };
}

/** True when something accepts a TCP connection at `address` within `ms`. */
export function reachable(address: string, ms = 1_500): Promise<boolean> {
  const i = address.lastIndexOf(':');
  const host = i > 0 ? address.slice(0, i).replace(/^\[|\]$/g, '') : address;
  const port = i > 0 ? Number(address.slice(i + 1)) : NaN;
  if (!host || !Number.isInteger(port)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const sock = connect({ host, port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(ms, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Tells identities apart without keeping their secrets. */
export function identityOf(client: KubeClient): string {
  const kc = client.kubeConfig;
  return createHash('sha256')
    .update(JSON.stringify([kc.getCurrentCluster()?.server, kc.getCurrentUser()]))
    .digest('hex')
    .slice(0, 16);
}

/** `OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES` (comma-separated), else the global catalog namespaces. */
export function trustedCatalogNamespaces(
  env: Record<string, string | undefined> = process.env,
  globals: readonly string[] = ['olm', 'openshift-marketplace'],
): Set<string> {
  const listed = (env.OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return new Set(env.OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES === undefined ? globals : listed);
}

/** A forward being opened or open, and its hold on the credentials it was opened with. */
interface KeptForward {
  fwd: Promise<LocalForward>;
  hold?: CredentialHold;
}

export class RegistryRoutes {
  private readonly direct = new Map<string, { ok: boolean; at: number }>();
  private readonly forwards = new Map<string, KeptForward>();
  private readonly sweeper: NodeJS.Timeout;
  private retired = false;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly trusted: ReadonlySet<string> = trustedCatalogNamespaces(),
    private readonly mayDial: (address: string) => boolean = () => true,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** Throws, saying what was tried, when neither way works. */
  async route(client: KubeClient, cs: CatalogSource): Promise<RegistryRoute> {
    const address = cs.status?.connectionState?.address || cs.spec.address || '';
    if (!address) throw new Error('the CatalogSource reports no registry address');
    const ns = cs.metadata?.namespace ?? '';
    const name = cs.metadata?.name ?? '';
    const trusted = this.trusted.has(ns) && this.mayDial(address);
    if (trusted) {
      const known = this.direct.get(address);
      const ok = known && this.now() - known.at < REACHABLE_TTL_MS ? known.ok : await reachable(address);
      this.direct.set(address, { ok, at: this.now() });
      if (ok) return { dial: address, via: 'direct', cacheKey: address };
    }
    // spec.address names a server outside the cluster's pods: there is nothing to forward to.
    if (cs.spec.address && !cs.status?.registryService?.serviceName) {
      throw new Error(
        trusted
          ? `the registry at ${address} does not answer from the console`
          : this.trusted.has(ns)
            ? `the console does not dial ${address} for this cluster: it means another network than the console's, and the catalog has no pod to port-forward to`
            : `the console does not dial addresses named by CatalogSources in namespace ${ns}, which is not a trusted catalog namespace (OLM_CONSOLE_TRUSTED_CATALOG_NAMESPACES: ${[...this.trusted].join(', ') || 'none'})`,
      );
    }
    const pods = (
      await client
        .list<PodLike>(POD_TYPE, { namespace: ns, labelSelector: `${CATALOG_SOURCE_POD_LABEL}=${name}` })
        .catch((err: Error) => {
          throw new Error(
            `the registry at ${address} is not reachable from the console, and its catalog pod could not be listed to port-forward to it: ${err.message}`,
          );
        })
    ).items;
    const pod = pods.find((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)?.metadata?.name;
    if (!pod)
      throw new Error(
        `the registry at ${address} is not reachable from the console, and no running pod of catalog ${ns}/${name} was found to port-forward to`,
      );
    const port = Number(address.slice(address.lastIndexOf(':') + 1)) || CATALOG_REGISTRY_PORT;
    // Who opened it is in the key twice over: the credentials (identityOf) and the session whose
    // lease they are under, so a forward never serves another person, nor the same token in a
    // session signed in afresh after this one ended.
    const lease = client.lease;
    const key = `${identityOf(client)}|${lease?.names.join(',') ?? ''}|${ns}/${pod}:${port}`;
    // Twice at most: a forward ended while this request waited for it is opened again, once.
    for (let attempt = 0; ; attempt++) {
      if (lease && leaseLapsed(lease)) throw new Error('your console session has ended: sign in again');
      const kept = this.forwards.get(key) ?? this.open(key, client, ns, pod, port);
      let f: LocalForward;
      try {
        f = await kept.fwd;
      } catch (err) {
        throw new Error(
          `the registry at ${address} is not reachable from the console, and port-forwarding to pod ${ns}/${pod} failed: ${(err as Error).message}`,
          { cause: err },
        );
      }
      if (f.ended && attempt === 0) {
        if (this.forwards.get(key) === kept) this.forwards.delete(key);
        continue;
      }
      if (f.ended) throw new Error(`the port-forward to pod ${ns}/${pod} was ended while it was opened`);
      if (lease) kept.hold?.renew(lease);
      f.lastUsed = this.now();
      return { dial: f.address, via: 'port-forward', pod, cacheKey: `pods/${ns}/${pod}:${port}` };
    }
  }

  /** Opens a forward as the client, held under its lease (if any) from this moment on. */
  private open(key: string, client: KubeClient, ns: string, pod: string, port: number): KeptForward {
    const kept: KeptForward = { fwd: listenPortForward(client.kubeConfig, ns, pod, port) };
    this.forwards.set(key, kept);
    const forget = () => {
      if (this.forwards.get(key) === kept) this.forwards.delete(key);
    };
    // Held before it is open: a sign-out while the first stream is being made ends it as it opens.
    if (client.lease)
      kept.hold = holdCredentials(client.lease, () => {
        forget();
        void kept.fwd.then(
          (f) => f.end(),
          () => undefined,
        );
      });
    kept.fwd.catch(() => {
      forget();
      kept.hold?.release();
    });
    return kept;
  }

  /**
   * Closes the forwards nobody uses: no connection open through them and, unless these routes are
   * retired, none made for a while. A forward with a connection open is a read under way (a
   * catalog's ListBundles streams for many seconds): closing it would cut that read short.
   */
  private async sweep(): Promise<void> {
    for (const [key, kept] of this.forwards) {
      const f = await kept.fwd.catch(() => undefined);
      if (f && f.openConnections() === 0 && (this.retired || this.now() - f.lastUsed > IDLE_MS)) {
        if (this.forwards.get(key) === kept) this.forwards.delete(key);
        kept.hold?.release();
        await f.close();
      }
    }
    if (this.retired && this.forwards.size === 0) clearInterval(this.sweeper);
  }

  /**
   * For routes whose index is being dropped (another cluster's, the least recently used): the
   * forwards no read is using go now, the others once their reads are over (checked each minute),
   * and then the sweeper stops. Unlike close(), a read under way finishes.
   */
  retire(): Promise<void> {
    this.retired = true;
    return this.sweep();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.forwards.values()];
    this.forwards.clear();
    await Promise.all(
      all.map((kept) => {
        kept.hold?.release();
        return kept.fwd.then(
          (f) => f.close(),
          () => undefined,
        );
      }),
    );
  }
}
