// What a new replica does before its first person so that their OperatorHub page costs about what
// a later one does. Profiled (docs/performance.md, issue 45), a second replica's first page after
// the shared snapshot was claimed spent its time on three things a later page does not: TLS
// handshakes with the API server (a third of it on the real cluster), the list's code run for the
// first time (compiled, its inline caches filled), and building that person's list. The last is
// the person's own: it depends on what they may read and have installed, and is built only from
// their reads. The first two are nobody's, and are paid here instead:
//
// - connections: credential-free `GET /version` requests open kept-alive connections in the pool
//   people's requests use (one per TLS identity, lib/k8s/http.ts; a person's token is a header of
//   each request, never part of a connection), as many as a first page asks for at once. They
//   carry no identity at all, so the API server answers them as anonymous (or refuses them), and
//   they read nothing but the version;
// - code: a request without credentials is read as a person's would be (and refused), and the
//   list is built from made-up packages through the same functions a person's list runs
//   (buildHubAnswer), and thrown away. Nothing is read from any catalog, no snapshot is
//   claimed, and nothing is kept that a request could be served. The server's own warm-up requests
//   run it again in the OperatorHub page's and list's route bundles, each of which holds its own
//   copy of this code (isOwnWarmUp, lib/server/http/warm-up.ts).
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterAccess } from '../k8s/cluster-config';
import { isKubeError } from '../k8s/errors';
import { kubeRequest } from '../k8s/http';
import type { PackageSummary } from '../hub/package-summary';
import { SnapshotSummaries } from '../catalog/snapshot-format';
import { requestClient } from './context';
import { pageClusters } from './context-page';
import { buildHubAnswer, HubQuery, type HubAnswer } from './hub-list';

/**
 * Connections a first OperatorHub page uses at once: its catalogs, installs, nodes, ClusterCatalogs
 * and ClusterExtensions are asked for together, then the access reviews of its catalogs' namespaces.
 */
export const FIRST_PAGE_CONNECTIONS = 8;

/** The made-up catalog's size: enough for the list's loops to be compiled as a big catalog's are. */
export const WARM_PACKAGES = 400;

/** The catalog the made-up packages name: in no namespace a CatalogSource can have (names are DNS labels). */
const NOBODY = { name: 'warm-up', namespace: '(warm-up)', displayName: 'warm-up' } as const;

export interface FirstPageWarmth {
  /** Connections opened (answered, whatever the status), or undefined where none are wanted. */
  connections?: number;
  /** Why a connection could not be opened, when one could not. */
  problem?: string;
  /** How long the made-up list took to build, in ms. */
  buildMs: number;
  /** How long the collection after the start's loads took, in ms (collectStartGarbage, http/warm-up.ts). */
  gcMs?: number;
}

/**
 * A KubeConfig for the configured cluster with no user credential: what its requests show the API
 * server is the cluster's CA check, nothing else, and its TLS identity is a per-user token's.
 */
export function credentialFreeConfig(access: ClusterAccess): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ ...access.cluster, name: 'cluster' }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'nobody', cluster: 'cluster', user: 'nobody' }],
    currentContext: 'nobody',
  });
  return kc;
}

/**
 * Opens `count` kept-alive connections to the API server in the pool per-user requests use, by as
 * many credential-free `GET /version` at once. An answer of 401 or 403 opened its connection as
 * well as a 200; a network failure is reported, never thrown.
 */
export async function openConnections(
  access: ClusterAccess,
  count = FIRST_PAGE_CONNECTIONS,
): Promise<{ opened: number; problem?: string }> {
  const kc = credentialFreeConfig(access);
  let problem: string | undefined;
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      kubeRequest(kc, { method: 'GET', path: '/version', what: 'warm-up: open a connection', retry: 'none' })
        .then(() => true)
        .catch((err: unknown) => {
          // An answer (refused or not) came over a connection that stays open; no answer did not.
          if (isKubeError(err) && err.network === undefined) return true;
          problem ??= (err as Error).message;
          return false;
        }),
    ),
  );
  return { opened: answers.filter(Boolean).length, ...(problem ? { problem } : {}) };
}

/**
 * Made-up packages shaped as the index's summaries are: decoded by the schema a snapshot's are
 * (lib/catalog/snapshot-format.ts), so they have the same fields in the same order, optional ones
 * present or not as in real catalogs. The list's code is compiled for the objects it will meet.
 */
export function madeUpPackages(count = WARM_PACKAGES): PackageSummary[] {
  const categories = ['Database', 'Monitoring', 'Security', 'Networking', 'Storage'];
  const modes = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];
  const made = Array.from({ length: count }, (_, i) => ({
    name: `warm-up-${i}`,
    catalog: NOBODY,
    displayName: `Warm-up ${(i * 7919) % count}`,
    provider: `provider ${i % 7}`,
    shortDescription: `A made-up package ${i} for compiling the list's code. It is never shown.`,
    categories: [categories[i % categories.length]!, categories[(i + 2) % categories.length]!],
    capability: i % 3 ? 'Basic Install' : undefined,
    keywords: [`kw${i % 11}`, 'warm'],
    defaultChannel: 'stable',
    headVersion: `1.${i % 10}.0`,
    headBundle: `warm-up-${i}.v1.${i % 10}.0`,
    installModes: modes.slice(i % 2, 4),
    infrastructureFeatures: i % 4 ? [] : ['disconnected'],
    validSubscription: i % 5 ? [] : ['made-up'],
    deprecation: i % 50 ? undefined : 'made up',
    nonStandalone: i % 13 === 0,
    arch: ['amd64'],
    os: ['linux'],
    hasIcon: i % 2 === 0,
  }));
  return SnapshotSummaries.parse(JSON.parse(JSON.stringify(made))) as PackageSummary[];
}

/** A list of made-up packages, built as a person's is for `query`; kept nowhere. */
export function madeUpAnswer(query: Record<string, string> = {}, count = WARM_PACKAGES): HubAnswer {
  const packages = madeUpPackages(count);
  const catalog = { ...NOBODY, publisher: '', state: 'READY', source: 'registry' as const, packages: count };
  const facts = {
    v0: { catalogs: [catalog], packages },
    v1: { catalogs: [], packages: [] },
    installed: new Map([[`${NOBODY.namespace}/${NOBODY.name}/warm-up-1`, ['(warm-up)']]]),
    extensions: new Map<string, string[]>(),
    platforms: [{ os: 'linux', arch: 'amd64' }],
  };
  return buildHubAnswer(facts, HubQuery.parse(query));
}

/**
 * The list built from made-up packages as a first page builds a person's (no query), then as a
 * search and a filter would, and thrown away: the code is compiled, nothing is kept.
 */
export function exerciseListBuild(count = WARM_PACKAGES): number {
  const t = performance.now();
  const queries: Record<string, string>[] = [{}, { q: 'warm' }, { category: 'Database' }];
  // Each answer, its text and ETag included (what the list route serves), is made as for a
  // person, then dropped.
  for (const q of queries) {
    const answer = madeUpAnswer(q, count);
    void answer.body.text;
    void answer.etag;
  }
  return performance.now() - t;
}

/**
 * A person's request as the routes first read it, without any credential: who is asking (no
 * session, no token: refused before anything is asked of a cluster). The Web Request and Headers
 * code Node loads on first use is loaded here, and the reading of sessions and tokens compiled.
 */
export async function exerciseRequestPath(perUserTokens: boolean): Promise<void> {
  const headers = { accept: 'text/html' };
  try {
    requestClient(new Request('http://console.local/operatorhub', { headers }));
  } catch {
    // The refusal (401) is the expected answer; settings the console cannot use are said later.
  }
  // The layout's clusters for nobody, as the server's own warm-up request renders them: the
  // settings' clusters resolved (once per process: the kubeconfig parsed), nobody's hub asked.
  // Only where a request without credentials is nobody's: with a kubeconfig's user it is theirs.
  if (perUserTokens) await pageClusters(new Headers(headers)).catch(() => undefined);
}

/**
 * Everything above, for a replica about to serve: connections where people bring their own tokens
 * (in kubeconfig mode every request is the kubeconfig's user, whose connections its own reads
 * open), and the list's code. Never rejects.
 */
export async function warmFirstPage(access: ClusterAccess | undefined): Promise<FirstPageWarmth> {
  const wanted = access?.mode === 'token';
  const opening = wanted ? openConnections(access) : Promise.resolve(undefined);
  await exerciseRequestPath(wanted);
  const buildMs = exerciseListBuild();
  const opened = await opening.catch((err: Error) => ({ opened: 0, problem: err.message }));
  return {
    ...(opened ? { connections: opened.opened, ...(opened.problem ? { problem: opened.problem } : {}) } : {}),
    buildMs,
  };
}
