// GET /api/olm-v1/clustercatalogs: every ClusterCatalog the person may list, with catalogd's
// Serving and Progressing conditions in its words, the image and its resolved digest, the content
// address and package count, and what the person may change (SelfSubjectAccessReview); where the
// cluster does not serve olm.operatorframework.io/v1, `{served: false, message}`.
// POST /api/olm-v1/clustercatalogs {name, imageRef, priority?, pollIntervalMinutes?}: adds a
// catalog from an image reference as the person; the API server judges the name and reference.
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { createClusterCatalog } from '@/lib/server/olm-v1/cluster-catalog-edit';
import { listClusterCatalogs } from '@/lib/server/olm-v1/cluster-catalogs';
import { CreateBody } from './schema';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({});

export const GET = route(async (req) => {
  readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await listClusterCatalogs(client), { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, CreateBody);
  const cc = await createClusterCatalog(client, body);
  return Response.json({ name: cc.metadata?.name, generation: cc.metadata?.generation }, { status: 201 });
});
