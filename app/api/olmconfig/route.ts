// GET /api/olmconfig: OLMConfig `cluster` as the cluster settings page shows it: disableCopiedCSVs,
// its DisabledCopiedCSVs condition in words, what switching it would do to the Copied CSVs (how
// many go, or come back), the DisabledCopiedCSVs events OLM recorded, and whether the person may
// change it (SelfSubjectAccessReview `update olmconfigs`).
// PATCH /api/olmconfig { disableCopiedCSVs, seen }: switches it as the person. `seen` is the value
// the person saw; someone else's switch since is a 409.
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyOlmConfig, OlmConfigBody, olmConfigView } from '@/lib/server/olm-config';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const { client } = requestClient(req);
  return Response.json(await olmConfigView(client), { headers: { 'Cache-Control': 'no-store' } });
});

export const PATCH = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, OlmConfigBody);
  return Response.json(await applyOlmConfig(client, body));
});
