// GET /api/cluster/<storageclasses|priorityclasses>: the names of the cluster's StorageClasses or
// PriorityClasses, read as the person, for the operand form's pickers. Kubernetes' default roles
// give no one but cluster administrators these lists: the API server's 403 is passed on as given,
// so the picker can say why it offers nothing and take a typed name.
import { z } from 'zod';
import { CLUSTER_NAMED_KINDS } from '@/lib/api/object-names';

import { requestClient } from '@/lib/server/context';
import { objectNames } from '@/lib/server/object-names';
import { parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({
  kind: z.enum(CLUSTER_NAMED_KINDS, { message: `must be one of ${CLUSTER_NAMED_KINDS.join(', ')}` }),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const p = parseParams(Params, await ctx.params);
  const { client } = requestClient(req);
  return Response.json(await objectNames(client, p.kind), { headers: { 'Cache-Control': 'no-store' } });
});
