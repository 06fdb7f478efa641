// POST /api/fleet/approvals/approve {plans?: [{cluster, namespace, name, resourceVersion?,
// clusterServiceVersionNames?}], versionChanges?: [{cluster, name, version, seen}]}: approves each
// InstallPlan and sets each ClusterExtension's version, each on its own cluster as the person
// (CSRF as every write). A plan is approved as the InstallPlan page approves it (still the plan
// the person saw); a version is set as the extension's version page sets it (on the extension at
// the resourceVersion `seen`, the installer's roles widened first only where the console's install
// made them, nothing written on a refusal). Answers {results: [{cluster, namespace, name, ok: true,
// approved} or {ok: false, error}], versionChanges: [{cluster, name, version, ok: true,
// resourceVersion} or {ok: false, error}]}, each in the order given. A cluster the console does not
// serve, or an object named twice, refuses the whole request (400) before anything is written.
import { z } from 'zod';
import type { FleetApproveResponse } from '@/lib/api/fleet';
import { ApiError, dnsLabel, dnsSubdomain, readJson } from '@/lib/server/api-error';
import { checkCsrf } from '@/lib/server/csrf';
import { requestSession } from '@/lib/server/context';
import { approveAcross } from '@/lib/server/fleet/approvals';
import { changeVersionsAcross } from '@/lib/server/fleet/approvals-v1';
import { checkClusters, ClusterName, VersionChange } from '@/lib/server/fleet/approvals-request';
import { fleetRequest } from '@/lib/server/fleet/request';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z
  .strictObject({
    plans: z
      .array(
        z.strictObject({
          cluster: ClusterName,
          namespace: dnsLabel,
          name: dnsSubdomain,
          resourceVersion: z.string().min(1, 'must not be empty').max(64).optional(),
          clusterServiceVersionNames: z.array(dnsSubdomain).min(1).max(1000).optional(),
        }),
      )
      .max(200, 'at most 200 InstallPlans at once')
      .optional(),
    versionChanges: z
      .array(
        VersionChange.extend({
          seen: z
            .string({ message: 'the resourceVersion you saw' })
            .regex(/^[0-9A-Za-z_.-]{1,64}$/, 'the resourceVersion you saw'),
        }),
      )
      .max(200, 'at most 200 ClusterExtensions at once')
      .optional(),
  })
  .refine((b) => (b.plans?.length ?? 0) + (b.versionChanges?.length ?? 0) > 0, {
    message: 'name at least one InstallPlan (plans) or ClusterExtension (versionChanges)',
  });

export const POST = route(async (req) => {
  const verdict = checkCsrf(req, requestSession(req));
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  const { members, person } = await fleetRequest(req);
  const { plans = [], versionChanges = [] } = await readJson(req, Body);
  checkClusters(members, 'plans', plans, (p) => `InstallPlan ${p.cluster}/${p.namespace}/${p.name}`);
  checkClusters(members, 'versionChanges', versionChanges, (c) => `ClusterExtension ${c.cluster}/${c.name}`);
  const [results, changed] = await Promise.all([
    plans.length ? approveAcross(members, person, plans) : [],
    versionChanges.length ? changeVersionsAcross(members, person, versionChanges) : [],
  ]);
  const body: FleetApproveResponse = { results, versionChanges: changed };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
