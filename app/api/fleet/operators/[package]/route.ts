// GET /api/fleet/operators/<package>: the package's rollout across the fleet ({package, clusters}).
// Each cluster, asked as the person, says which installs of the package it runs (OLM v0
// Subscription and CSV, OLM v1 ClusterExtension), at which version, from which catalog, what
// InstallPlan waits for approval, the newest version its own catalog offers in the install's
// channel, and the path it would take there from its catalog's edges, or why that path is not
// known there; a cluster that did not answer is in `clusters` with its reason.
import { z } from 'zod';
import type { FleetRolloutResponse } from '@/lib/api/fleet-rollout';
import { readQuery } from '@/lib/server/api-error';
import { acrossClusters } from '@/lib/server/fleet/across';
import { fleetRequest } from '@/lib/server/fleet/request';
import { clusterRollout } from '@/lib/server/fleet/rollout';
import { packageName, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({ package: packageName });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { package: pkg } = parseParams(Params, await ctx.params);
  readQuery(req.url, z.strictObject({}));
  const { members, person } = await fleetRequest(req);
  const clusters = await acrossClusters(members, person, `rollout\n${pkg}`, (client, member) =>
    clusterRollout(client, member, pkg),
  );
  const body: FleetRolloutResponse = { package: pkg, clusters };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
