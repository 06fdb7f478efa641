// GET /api/subscriptions/<namespace>/<name>: see below.
// PATCH /api/subscriptions/<namespace>/<name> { channel?, approval?, seen?: { channel?, approval? } }:
// changes the channel (only to one OLM can move to from the installed version) or the approval
// strategy, with what that means for the namespace's other operators. `seen` is what the person
// saw ('' for the default channel); a change by someone else since is a 409.
import { z } from 'zod';
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { changeSubscription, subscriptionProgress } from '@/lib/server/day-two';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Approval = z.enum(['Automatic', 'Manual'], { message: 'must be Automatic or Manual' });
const Body = z
  .strictObject({
    channel: z.string().min(1, 'must not be empty').max(253).optional(),
    approval: Approval.optional(),
    seen: z
      .strictObject({ channel: z.string().max(253).optional(), approval: Approval.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => b.channel !== undefined || b.approval !== undefined, {
    message: 'give a channel or an approval to change',
  });

export const PATCH = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await changeSubscription(client, namespace, name, body));
});

// GET: the Subscription as an install's progress view follows it — its conditions and upgrade
// status, the InstallPlan it points to (summary and steps), and the CSV it installs.
export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await subscriptionProgress(client, namespace, name), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
