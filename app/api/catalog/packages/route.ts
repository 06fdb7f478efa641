// GET /api/catalog/packages: OperatorHub's list. Query: q (keywords), catalog (ns/name),
// category, provider, capability, installMode, infrastructureFeature, validSubscription,
// installState (installed | notInstalled) (each repeatable), sort (relevance | name | provider |
// catalog), includeNonStandalone, namespace (where to look for catalogs and installs when the
// person cannot see them cluster-wide). Answers the catalogs seen, the facet counts and the
// ranked, filtered packages, the nodes' platforms (when the person may list nodes), with an ETag
// for a client that asks again with it (never stored by the browser: the list is what this
// person may see).
import { readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { HubQuery, hubList } from '@/lib/server/hub-list';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const q = readQuery(req.url, HubQuery);
  const { client } = requestClient(req);
  const { body, etag } = await hubList(client, q);
  return respond(req, body, etag);
});

function respond(req: Request, body: string, etag: string): Response {
  const headers = { 'Cache-Control': 'no-store', ETag: etag, 'Content-Type': 'application/json' };
  if (req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}
