// GET /api/me/permissions?namespace=N: which console actions the current person may take in N,
// answered by the cluster (SelfSubjectAccessReview), each refusal with its reason.
import { z } from 'zod';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { consolePermissions } from '@/lib/server/permissions';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel });

export const GET = route(async (req) => {
  const { namespace } = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(
    { namespace, permissions: await consolePermissions(client, namespace) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
