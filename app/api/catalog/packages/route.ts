// GET /api/catalog/packages: OperatorHub's list. Query: q (keywords), catalog (ns/name),
// category, provider, capability, installMode, infrastructureFeature, validSubscription,
// installState (installed | notInstalled) (each repeatable), sort (relevance | name | provider |
// catalog), includeNonStandalone, namespace (where to look for catalogs and installs when the
// person cannot see them cluster-wide). Answers the catalogs seen, the facet counts and the
// ranked, filtered packages, the nodes' platforms (when the person may list nodes), with an ETag.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { applyFilters, facetCounts, sortPackages } from '@/lib/hub/filter';
import { GLOBAL_CATALOG_NAMESPACES, sharedCatalogIndex } from '@/lib/catalog/catalog-index';
import type { PackageSummary } from '@/lib/hub/package-summary';
import { searchPackages } from '@/lib/hub/search';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { dnsLabel, errorResponse, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { nodePlatforms } from '@/lib/server/node-platforms';

export const dynamic = 'force-dynamic';

const list = z.union([z.string(), z.array(z.string())]).optional().transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));
const Query = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  namespace: dnsLabel.optional(),
  catalog: list,
  category: list,
  provider: list,
  capability: list,
  installMode: list,
  infrastructureFeature: list,
  validSubscription: list,
  installState: list.refine((v) => !v || v.every((s) => s === 'installed' || s === 'notInstalled'), 'must be installed or notInstalled'),
  sort: z.enum(['relevance', 'name', 'provider', 'catalog'], { message: 'must be relevance, name, provider or catalog' }).optional(),
  includeNonStandalone: z.enum(['true', 'false']).optional(),
});

/** Where each package is installed, from the Subscriptions this person may list. */
async function installs(client: KubeClient, namespace: string | undefined): Promise<Map<string, string[]>> {
  let subs: Subscription[] = [];
  try {
    subs = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    if (namespace) {
      try {
        subs = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace })).items;
      } catch (inner) {
        if (!isKubeError(inner, 403)) throw inner;
      }
    }
  }
  const out = new Map<string, string[]>();
  for (const s of subs) {
    const key = `${s.spec.sourceNamespace}/${s.spec.source}/${s.spec.name}`;
    out.set(key, [...(out.get(key) ?? []), s.metadata?.namespace ?? '']);
  }
  return out;
}

// The answer for the same catalog content, installs and query is the same body: kept (a few),
// so a big catalog is not searched, counted and serialised again on every request.
const answers = new Map<string, { body: string; etag: string }>();
const MAX_ANSWERS = 16;

export async function GET(req: Request): Promise<Response> {
  try {
    const q = readQuery(req.url, Query);
    const { client } = requestClient(req);
    const [{ catalogs, packages, contentKey }, installed, platforms] = await Promise.all([
      sharedCatalogIndex().forUser(client, [...(q.namespace ? [q.namespace] : []), ...GLOBAL_CATALOG_NAMESPACES]),
      installs(client, q.namespace),
      nodePlatforms(client),
    ]);
    const cacheKey = contentKey === undefined ? undefined : JSON.stringify([contentKey, [...installed].sort(), platforms ?? null, [...new URL(req.url).searchParams].sort()]);
    const kept = cacheKey ? answers.get(cacheKey) : undefined;
    if (kept) return respond(req, kept.body, kept.etag);
    // Summaries are shared by everyone; a person's installs go on copies.
    const withInstalls = installed.size === 0 ? packages : packages.map((p): PackageSummary => {
      const where = installed.get(`${p.catalog.namespace}/${p.catalog.name}/${p.name}`);
      return where ? { ...p, installedIn: where.sort() } : p;
    });
    const matched = searchPackages(withInstalls, q.q ?? '').map((h) => h.summary);
    const includeNonStandalone = q.includeNonStandalone === 'true';
    const visible = applyFilters(matched, { includeNonStandalone });
    const filtered = sortPackages(applyFilters(visible, { ...q, includeNonStandalone }), q.sort ?? (q.q ? 'relevance' : 'name'));
    const body = JSON.stringify({ catalogs, ...(platforms ? { platforms } : {}), facets: facetCounts(visible), total: filtered.length, packages: filtered });
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    if (cacheKey) {
      answers.set(cacheKey, { body, etag });
      if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
    }
    return respond(req, body, etag);
  } catch (err) {
    return errorResponse(err);
  }
}

function respond(req: Request, body: string, etag: string): Response {
  const headers = { 'Cache-Control': 'private, no-cache', ETag: etag, 'Content-Type': 'application/json' };
  if (req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}
