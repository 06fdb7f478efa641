// OperatorHub's list for one person: the catalogs they may see, their installs, the nodes'
// platforms, searched, filtered, counted and serialised. Shared by `GET /api/catalog/packages`
// and the hub page's server render, so the first tiles arrive with the HTML.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { GLOBAL_CATALOG_NAMESPACES } from '../catalog/catalog-index';
import { applyFilters, facetCounts, sortPackages } from '../hub/filter';
import { joinOffers } from '../hub/olm-offer';
import type { CatalogInfo, HubList, PackageSummary } from '../hub/package-summary';
import type { Platform } from '../hub/platforms';
import { searchPackages } from '../hub/search';
import type { KubeClient } from '../k8s/client';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { dnsLabel } from './api-error';
import { EncodedBody } from './http/stored-encoding';
import { nodePlatforms } from './node-platforms';
import { extensionInstalls, v1HubPackages, visibleExtensions } from './olm-v1/hub-packages';
import { listVisible } from './visible-list';
import { catalogIndexOf } from './fleet/catalog-indexes';

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));
export const HubQuery = z.strictObject({
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  namespace: dnsLabel.optional(),
  catalog: list,
  category: list,
  provider: list,
  capability: list,
  installMode: list,
  infrastructureFeature: list,
  validSubscription: list,
  installState: list.refine(
    (v) => !v || v.every((s) => s === 'installed' || s === 'notInstalled'),
    'must be installed or notInstalled',
  ),
  olm: list.refine((v) => !v || v.every((s) => s === 'v0' || s === 'v1'), 'must be v0 or v1'),
  sort: z
    .enum(['relevance', 'name', 'provider', 'catalog'], { message: 'must be relevance, name, provider or catalog' })
    .optional(),
  includeNonStandalone: z.enum(['true', 'false']).optional(),
});

export type HubQuery = z.infer<typeof HubQuery>;

/** Where each package is installed, from the Subscriptions this person may list. */
async function installs(client: KubeClient, namespace: string | undefined): Promise<Map<string, string[]>> {
  const subs = await listVisible<Subscription>(client, SUBSCRIPTION_TYPE, namespace ? [namespace] : []);
  const out = new Map<string, string[]>();
  for (const s of subs) {
    const key = `${s.spec.sourceNamespace}/${s.spec.source}/${s.spec.name}`;
    out.set(key, [...(out.get(key) ?? []), s.metadata?.namespace ?? '']);
  }
  return out;
}

/**
 * One answer: the list as this server builds it (shared, never to be changed: the hub page reads
 * its first screen from it), as JSON text with its compressed forms, and its ETag. The text and
 * the ETag are made when first asked for, or right after the request that built the answer: the
 * page renders from the list alone, and the list's route, which the browser asks next, gets the
 * same kept answer with its text made.
 */
export interface HubAnswer {
  readonly list: Readonly<HubList>;
  readonly body: EncodedBody;
  readonly etag: string;
}

// The answer for the same catalog content, installs and query is the same body: kept (a few),
// so a big catalog is not searched, counted, serialised and compressed again on every request.
// The key holds everything that decides the answer, the catalogs this person may read included
// (their content key), so a kept answer goes only to someone whose reads produced the same key.
// One store per process, not per copy of this module: Next.js may load it once per route bundle, and
// the OperatorHub page and the list route would each build and keep the same answers.
const ANSWERS = Symbol.for('olm-console.hub-answers');
const answers = ((globalThis as { [ANSWERS]?: Map<string, HubAnswer> })[ANSWERS] ??= new Map<string, HubAnswer>());
const MAX_ANSWERS = 16;

function withoutHeadBundle(p: PackageSummary): Omit<PackageSummary, 'headBundle'> {
  if (p.headBundle === undefined) return p;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out, not used
  const { headBundle, ...rest } = p;
  return rest;
}

/** What one person's list is built from: their catalogs' packages, installs and nodes' platforms. */
export interface HubFacts {
  v0: { catalogs: CatalogInfo[]; packages: PackageSummary[] };
  v1: { catalogs: CatalogInfo[]; packages: PackageSummary[] };
  /** Namespaces with a Subscription, by `<catalog namespace>/<catalog>/<package>`. */
  installed: ReadonlyMap<string, string[]>;
  /** ClusterExtensions, by `<ClusterCatalog>/<package>` (extensionInstalls). */
  extensions: ReadonlyMap<string, string[]>;
  platforms?: Platform[];
}

/** The list for this person and query (the same content gives the same answer, kept a while). */
export async function hubList(client: KubeClient, q: HubQuery): Promise<HubAnswer> {
  const [v0, v1, installed, platforms, v1Extensions] = await Promise.all([
    catalogIndexOf(client).forUser(client, [...(q.namespace ? [q.namespace] : []), ...GLOBAL_CATALOG_NAMESPACES]),
    v1HubPackages(client),
    installs(client, q.namespace),
    nodePlatforms(client),
    visibleExtensions(client),
  ]);
  const extensions = extensionInstalls(v1Extensions, v1);
  const cacheKey =
    v0.contentKey === undefined
      ? undefined
      : JSON.stringify([
          // Two clusters' catalogs may carry the same names and stamps: an answer is one cluster's.
          client.cluster ?? '',
          v0.contentKey,
          v1.contentKey,
          [...installed].sort(),
          [...extensions].sort(),
          platforms ?? null,
          Object.entries(q).sort(),
        ]);
  const kept = cacheKey ? answers.get(cacheKey) : undefined;
  if (kept) return kept;
  const answer = buildHubAnswer({ v0, v1, installed, extensions, platforms }, q);
  if (cacheKey) {
    answers.set(cacheKey, answer);
    if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
    // The text the list route will serve, made once this request's own work is done: a page
    // renders without waiting for it, and the browser's list request, which follows the page's
    // HTML, finds it made.
    setImmediate(() => void answer.body);
  }
  return answer;
}

/**
 * The answer for these facts and query: searched, filtered, counted, serialised. Pure: it keeps
 * nothing (hubList keeps answers), so a replica's warm-up can run it on made-up packages to have
 * its code compiled before the first person (lib/server/warm-first-page.ts).
 */
export function buildHubAnswer(facts: HubFacts, q: HubQuery): HubAnswer {
  const { v0, v1, installed, extensions, platforms } = facts;
  const catalogs = [...v0.catalogs, ...v1.catalogs];
  const packages = joinOffers(v0.packages, v1.packages);
  // Summaries are shared by everyone; a person's installs go on copies.
  const withInstalls =
    installed.size === 0 && extensions.size === 0
      ? packages
      : packages.map((p): PackageSummary => {
          const where = p.catalog.kind
            ? undefined
            : installed.get(`${p.catalog.namespace}/${p.catalog.name}/${p.name}`);
          const as = [...new Set((p.clusterCatalogs ?? []).flatMap((c) => extensions.get(`${c}/${p.name}`) ?? []))];
          if (!where && !as.length) return p;
          return {
            ...p,
            ...(where ? { installedIn: where.sort() } : {}),
            ...(as.length ? { installedAs: as.sort() } : {}),
          };
        });
  const matched = searchPackages(withInstalls, q.q ?? '').map((h) => h.summary);
  const includeNonStandalone = q.includeNonStandalone === 'true';
  const visible = applyFilters(matched, { includeNonStandalone });
  const filtered = sortPackages(
    applyFilters(visible, { ...q, includeNonStandalone }),
    q.sort ?? (q.q ? 'relevance' : 'name'),
  );
  const hub: HubList = {
    catalogs,
    ...(platforms ? { platforms } : {}),
    facets: facetCounts(visible),
    total: filtered.length,
    packages: filtered,
  };
  return answerOf(hub);
}

/** The answer for a list, its text and ETag made on first use (HubAnswer). */
function answerOf(list: HubList): HubAnswer {
  let body: EncodedBody | undefined;
  let etag: string | undefined;
  const made = () => {
    // The head bundle's name only joins offers (above): the browser has no use for it, and a big
    // catalog's list would carry it for every tile. Left out of copies rather than by a replacer,
    // which takes JSON.stringify off its fast path for every key of the list (1.5-3x slower here).
    const text = JSON.stringify({ ...list, packages: list.packages.map(withoutHeadBundle) });
    body = new EncodedBody(text);
    etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
    return body;
  };
  return {
    list,
    get body() {
      return body ?? made();
    },
    get etag() {
      if (etag === undefined) made();
      return etag!;
    },
  };
}
