// GET /api/operatorhub: the Catalogs page's "Default sources": whether the cluster serves
// OpenShift's OperatorHub API, OperatorHub `cluster` with each default source's switch, what the
// marketplace operator reported, the Subscriptions that install from each source, and whether the
// person may change it (SelfSubjectAccessReview `update operatorhubs`).
// PATCH /api/operatorhub { change, seen }: one switch as the person, at the resourceVersion they
// loaded (`seen`); any change since is a 409.
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyOperatorHubSwitch, OperatorHubApplyBody, operatorHubView } from '@/lib/server/operator-hub';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const { client } = requestClient(req);
  return Response.json(await operatorHubView(client), { headers: { 'Cache-Control': 'no-store' } });
});

export const PATCH = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, OperatorHubApplyBody);
  return Response.json(await applyOperatorHubSwitch(client, body));
});
