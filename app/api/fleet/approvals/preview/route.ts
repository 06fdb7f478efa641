// POST /api/fleet/approvals/preview {versionChanges: [{cluster, name, version}]}: each
// ClusterExtension's version change previewed on its own cluster as the person, as the extension's
// version page previews it (`POST /api/olm-v1/clusterextensions/<name>/version/plan`): the bundle
// OLM v1 would install or its refusal in its words, what the change does against the installed
// bundle, and whether the installer's roles hold what it needs, are widened first, or refuse it.
// Writes nothing. Answers {versionChanges: [{cluster, name, ok: true, plan} or {ok: false, error}]}
// in the order given; a cluster the console does not serve refuses the whole request (400).
import { z } from 'zod';
import type { FleetPreviewResponse } from '@/lib/api/fleet-approvals';
import { ApiError, readJson } from '@/lib/server/api-error';
import { checkCsrf } from '@/lib/server/csrf';
import { requestSession } from '@/lib/server/context';
import { checkClusters, VersionChange } from '@/lib/server/fleet/approvals-request';
import { previewVersionChanges } from '@/lib/server/fleet/approvals-v1';
import { fleetRequest } from '@/lib/server/fleet/request';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  versionChanges: z
    .array(VersionChange)
    .min(1, 'name at least one ClusterExtension')
    .max(200, 'at most 200 ClusterExtensions at once'),
});

export const POST = route(async (req) => {
  // The preview reads as the person and writes nothing, but asks each cluster as them: a write's guard.
  const verdict = checkCsrf(req, requestSession(req));
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  const { members, person } = await fleetRequest(req);
  const { versionChanges } = await readJson(req, Body);
  checkClusters(members, 'versionChanges', versionChanges, (c) => `ClusterExtension ${c.cluster}/${c.name}`);
  const body: FleetPreviewResponse = { versionChanges: await previewVersionChanges(members, person, versionChanges) };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
