// GET /api/operators/<ns>/<csv>/instances: every instance of each API the operator owns, in the
// namespaces it watches that the person may list, with its state in a word (at most 500 per API,
// with the total).

import { requestClient } from '@/lib/server/context';
import { listOperands } from '@/lib/server/operands';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await listOperands(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});
