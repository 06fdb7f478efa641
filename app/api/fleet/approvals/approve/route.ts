// POST /api/fleet/approvals/approve {plans: [{cluster, namespace, name, resourceVersion?,
// clusterServiceVersionNames?}]}: approves each plan on its own cluster as the person (CSRF as every
// write); answers {results: [{cluster, namespace, name, ok: true, approved} or {ok: false, error}]},
// one per plan in the order given. A cluster the console does not serve, or a plan named twice,
// refuses the whole request (400) before anything is approved.
import { z } from 'zod';
import type { FleetApproveResponse } from '@/lib/api/fleet';
import { ApiError, dnsLabel, dnsSubdomain, readJson } from '@/lib/server/api-error';
import { checkCsrf } from '@/lib/server/csrf';
import { requestSession } from '@/lib/server/context';
import { approveAcross } from '@/lib/server/fleet/approvals';
import { fleetRequest } from '@/lib/server/fleet/request';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  plans: z
    .array(
      z.strictObject({
        cluster: z.string().min(1, 'must not be empty').max(253),
        namespace: dnsLabel,
        name: dnsSubdomain,
        resourceVersion: z.string().min(1, 'must not be empty').max(64).optional(),
        clusterServiceVersionNames: z.array(dnsSubdomain).min(1).max(1000).optional(),
      }),
    )
    .min(1, 'name at least one InstallPlan')
    .max(200, 'at most 200 InstallPlans at once'),
});

export const POST = route(async (req) => {
  const verdict = checkCsrf(req, requestSession(req));
  if (!verdict.ok) throw new ApiError(403, 'Forbidden', verdict.message);
  const { members, person } = await fleetRequest(req);
  const { plans } = await readJson(req, Body);
  const seen = new Set<string>();
  for (const [i, p] of plans.entries()) {
    if (!members.some((m) => m.name === p.cluster))
      throw new ApiError(
        400,
        'BadRequest',
        `plans.${i}.cluster: the console serves no cluster "${p.cluster}" (it serves ${members.map((m) => m.name).join(', ')})`,
      );
    const key = `${p.cluster}/${p.namespace}/${p.name}`;
    if (seen.has(key)) throw new ApiError(400, 'BadRequest', `plans.${i}: InstallPlan ${key} is named twice`);
    seen.add(key);
  }
  const body: FleetApproveResponse = { results: await approveAcross(members, person, plans) };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
