// GET …/forms/<group>/<version>/<plural>: what the create form of an API the operator owns is
// built from: its CRD's schema (read as the person), the CSV's spec descriptors and example.
// Only APIs the operator owns are served here (else 404).
import { z } from 'zod';
import { dnsLabel, dnsSubdomain } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { operandFormSource } from '@/lib/server/operand-form';
import { parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({
  namespace: dnsLabel,
  name: dnsSubdomain,
  group: dnsSubdomain,
  version: dnsLabel,
  plural: dnsLabel,
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const p = parseParams(Params, await ctx.params);
  const { client } = requestClient(req);
  return Response.json(await operandFormSource(client, p.namespace, p.name, p), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
