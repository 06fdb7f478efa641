// POST /api/operatorhub/plan { change }: a dry run of PATCH /api/operatorhub. Answers the new spec,
// the merge patch, and for each default source whose state changes what happens to its
// CatalogSource and the Subscriptions that install from it. Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { OperatorHubPlanBody, planOperatorHubSwitch } from '@/lib/server/operator-hub';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, OperatorHubPlanBody);
  return Response.json(await planOperatorHubSwitch(client, body.change), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
