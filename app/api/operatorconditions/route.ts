// GET /api/operatorconditions[?namespace=N]: every OperatorCondition the person may list (one
// namespace, or the cluster), each condition with its source and OLM's upgrade verdict.
import { z } from 'zod';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { listOperatorConditions } from '@/lib/server/operator-conditions';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

export const GET = route(async (req) => {
  const { namespace } = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await listOperatorConditions(client, namespace), { headers: { 'Cache-Control': 'no-store' } });
});
