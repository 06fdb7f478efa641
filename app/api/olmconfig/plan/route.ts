// POST /api/olmconfig/plan { disableCopiedCSVs }: a dry run of PATCH /api/olmconfig. Answers the
// exact change to OLMConfig `cluster`, its effect on the Copied CSVs counted now, and warnings.
// Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { OlmConfigPlanBody, planOlmConfig } from '@/lib/server/olm-config';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, OlmConfigPlanBody);
  return Response.json(await planOlmConfig(client, body.disableCopiedCSVs), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
