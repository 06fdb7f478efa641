// GET /api/operators/<namespace>/<csv>/copies?limit=&continue=: where OLM keeps copies of this
// operator's CSV, a page at a time (an all-namespaces operator has one per namespace).
import { z } from 'zod';
import { readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { CSV_TYPE, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import { Keys } from '@/lib/olm/resources/common';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(200),
  continue: z.string().max(4096).optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const page = await client.list<ClusterServiceVersion>(CSV_TYPE, {
    labelSelector: `${Keys.copiedFrom}=${namespace}`,
    fieldSelector: `metadata.name=${name}`,
    limit: q.limit,
    continue: q.continue,
  });
  return Response.json(
    {
      copies: page.items.map((c) => ({
        namespace: c.metadata?.namespace ?? '',
        phase: c.status?.phase ?? '',
        reason: c.status?.reason ?? '',
      })),
      continue: page.metadata.continue || undefined,
      remaining: page.metadata.remainingItemCount,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
