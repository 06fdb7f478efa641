// GET /api/catalog/packages: OperatorHub's list. Query: q (keywords), catalog (ns/name),
// category, provider, capability, installMode, infrastructureFeature, validSubscription,
// installState (installed | notInstalled) (each repeatable), sort (relevance | name | provider |
// catalog), includeNonStandalone, namespace (where to look for catalogs and installs when the
// person cannot see them cluster-wide). Answers the catalogs seen, the facet counts and the
// ranked, filtered packages, the nodes' platforms (when the person may list nodes), with an ETag
// for a client that asks again with it (never stored by the browser: the list is what this
// person may see), compressed once per content rather than per request (stored-encoding.ts).
import { readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { HubQuery, hubList } from '@/lib/server/hub-list';
import { storedBodyResponse } from '@/lib/server/http/stored-encoding';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const q = readQuery(req.url, HubQuery);
  const { client } = requestClient(req);
  const { body, etag } = await hubList(client, q);
  return storedBodyResponse(req, body, etag, { 'Cache-Control': 'no-store', 'Content-Type': 'application/json' });
});
