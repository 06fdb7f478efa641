// GET /api/cluster/<storageclasses|priorityclasses>: the names of the cluster's StorageClasses or
// PriorityClasses, read as the person, for the operand form's pickers. Kubernetes' default roles
// give no one but cluster administrators these lists: the API server's 403 is passed on as given,
// so the picker can say why it offers nothing and take a typed name.
import { z } from 'zod';
import { CLUSTER_NAMED_KINDS } from '@/lib/api/object-names';
import { errorResponse } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { objectNames } from '@/lib/server/object-names';
import { parseParams } from '@/lib/server/package-lookup';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({
  kind: z.enum(CLUSTER_NAMED_KINDS, { message: `must be one of ${CLUSTER_NAMED_KINDS.join(', ')}` }),
});

export async function GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const p = parseParams(Params, await ctx.params);
    const { client } = requestClient(req);
    return Response.json(await objectNames(client, p.kind), { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}
