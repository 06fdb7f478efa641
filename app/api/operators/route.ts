// GET /api/operators?namespace=N: the installed operators of one namespace (copies shown as
// copies), or, without namespace, of the cluster (copies folded into their source as a count).
import { z } from 'zod';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { listInstalledOperators } from '@/lib/server/operators';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await listInstalledOperators(client, q.namespace), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
