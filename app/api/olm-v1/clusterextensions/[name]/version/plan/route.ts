// POST /api/olm-v1/clusterextensions/<name>/version/plan {version, upgradeConstraintPolicy?, seen?}:
// the bundle OLM v1 would resolve for the extension with that version (and policy), from the
// catalogs the person may read, or v1's refusal in its words, and what the change does against the
// installed bundle (`changes`, lib/server/upgrade-changes/v1-changes.ts). Writes nothing; a version
// expression v1 cannot read is a 400 in its words.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { planVersionChange } from '@/lib/server/olm-v1/extension-versions';
import { route, type RouteContext } from '@/lib/server/route';
import { PlanBody, Target } from '../../schema';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const { name } = Target.parse(await params);
  const body = await readJson(req, PlanBody);
  return Response.json(
    await planVersionChange(client, name, {
      version: body.version,
      ...(body.upgradeConstraintPolicy ? { upgradeConstraintPolicy: body.upgradeConstraintPolicy } : {}),
    }),
  );
});
