// GET /api/namespaces/<namespace>/<secrets|configmaps>: the names (never the data) of the
// Secrets or ConfigMaps in a namespace, read as the person, for the operand form's pickers. The
// API server's refusal (a 403 for a person who may not list Secrets there) is passed on as given,
// so the picker can say why it offers nothing.
import { z } from 'zod';
import { NAMESPACED_NAMED_KINDS } from '@/lib/api/object-names';
import { dnsLabel } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { objectNames } from '@/lib/server/object-names';
import { parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({
  namespace: dnsLabel,
  kind: z.enum(NAMESPACED_NAMED_KINDS, { message: `must be one of ${NAMESPACED_NAMED_KINDS.join(', ')}` }),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const p = parseParams(Params, await ctx.params);
  const { client } = requestClient(req);
  return Response.json(await objectNames(client, p.kind, p.namespace), { headers: { 'Cache-Control': 'no-store' } });
});
