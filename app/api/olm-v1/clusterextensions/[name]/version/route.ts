// PATCH /api/olm-v1/clusterextensions/<name>/version {version, upgradeConstraintPolicy?, seen}:
// upgrade to, pin or roll back to a version or range (spec.source.catalog.version), as the person,
// at the resourceVersion `seen` (409 when the extension changed since). Answers {name,
// resourceVersion, generation}; `POST …/version/plan` with the same body previews it.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { changeVersion } from '@/lib/server/olm-v1/extension-versions';
import { route, type RouteContext } from '@/lib/server/route';
import { ChangeBody, Target } from '../schema';

export const dynamic = 'force-dynamic';

export const PATCH = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const { name } = Target.parse(await params);
  const body = await readJson(req, ChangeBody);
  const ce = await changeVersion(client, name, body);
  return Response.json({ name, resourceVersion: ce.metadata?.resourceVersion, generation: ce.metadata?.generation });
});
