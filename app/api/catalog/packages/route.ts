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
import { isOwnWarmUp } from '@/lib/server/http/warm-up';
import { madeUpAnswer } from '@/lib/server/warm-first-page';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const q = readQuery(req.url, HubQuery);
  // The server's own warm-up: made-up packages, so this bundle's copy of the list's code is
  // compiled before the first person (lib/server/warm-first-page.ts).
  const { body, etag } = isOwnWarmUp(req.headers) ? madeUpAnswer() : await hubList(requestClient(req).client, q);
  return storedBodyResponse(req, body, etag, { 'Cache-Control': 'no-store', 'Content-Type': 'application/json' });
});
