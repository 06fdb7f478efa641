// GET …/instances/<group>/<version>/<plural>/<instanceNamespace>/<instance>: one operand with its
// state, conditions, spec and status read through the CSV's descriptors, events, and whether the
// person may delete it. DELETE: deletes it as the person; answers it as it is then (finalizers
// still holding it) or `{gone: true}`. Only APIs the operator owns are served here (else 404).
// An instance of a cluster-scoped API is at `_cluster` in place of a namespace.
import { z } from 'zod';
import { CLUSTER_SEGMENT, namespaceOfSegment } from '@/lib/api/instance-path';
import { dnsLabel, dnsSubdomain } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { deleteOperand, operandDetails } from '@/lib/server/operands';
import { parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({
  namespace: dnsLabel,
  name: dnsSubdomain,
  group: dnsSubdomain,
  version: dnsLabel,
  plural: dnsLabel,
  instanceNamespace: z
    .string()
    .refine(
      (v) => v === CLUSTER_SEGMENT || dnsLabel.safeParse(v).success,
      `must be a namespace's name, or ${CLUSTER_SEGMENT} for a cluster-scoped instance`,
    ),
  instance: dnsSubdomain,
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const p = parseParams(Params, await ctx.params);
  const { client } = requestClient(req);
  return Response.json(
    await operandDetails(client, p.namespace, p.name, p, namespaceOfSegment(p.instanceNamespace), p.instance),
    { headers: { 'Cache-Control': 'no-store' } },
  );
});

export const DELETE = route(async (req: Request, ctx: RouteContext) => {
  const p = parseParams(Params, await ctx.params);
  const { client } = writeClient(req);
  return Response.json(
    await deleteOperand(client, p.namespace, p.name, p, namespaceOfSegment(p.instanceNamespace), p.instance),
  );
});
