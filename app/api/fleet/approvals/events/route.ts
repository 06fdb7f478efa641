// GET /api/fleet/approvals/events[?cluster=NAME…]: the Approvals across clusters page's
// Server-Sent Events (lib/server/fleet/approval-events.ts). Per cluster, `watch` {cluster, state:
// watching|retrying|refused|unwatched, mark, stale?, message?} and `change` {cluster, state, mark}
// when its waiting InstallPlans or ClusterExtension versions changed; `session` when the session
// ends; comments as heartbeats. Each cluster's watches are shared by the person's pages and made
// as the person (approval-watches.ts). Counted with /api/events' streams per session and per
// person (lib/server/stream-limits.ts): past a limit, 429 with Retry-After. Another query parameter
// is a 400 naming it.
import { z } from 'zod';
import { readQuery } from '@/lib/server/api-error';
import { clusterAccess, proxyToken, requestClient, revocations } from '@/lib/server/context';
import { openApprovalEvents } from '@/lib/server/fleet/approval-events';
import { approvalWatches } from '@/lib/server/fleet/approval-watches';
import { onlyClusters } from '@/lib/server/fleet/cluster-filter';
import { fleetRequest } from '@/lib/server/fleet/request';
import { whoAmI } from '@/lib/server/permissions';
import { route } from '@/lib/server/route';
import { streamCounter, streamLimits } from '@/lib/server/stream-limits';
import { streamOwnership } from '@/lib/server/stream-owner';
import { streamSessionCheck } from '@/lib/server/stream-session';

export const dynamic = 'force-dynamic';

// `cluster` (repeatable) is the only parameter: anything else is refused before a cluster is asked.
const Query = z.strictObject({ cluster: z.union([z.string(), z.array(z.string())]).optional() });

export const GET = route(async (req) => {
  readQuery(req.url, Query);
  const fleet = await fleetRequest(req);
  const { members } = onlyClusters(fleet.members, req.url);
  const { client, session } = requestClient(req);
  const { owner, endsWith } = await streamOwnership({
    mode: clusterAccess().mode,
    session,
    proxyToken: proxyToken(req),
    whoAmI: () => whoAmI(client),
  });
  const admission = streamCounter().admit(owner, streamLimits());
  if (!admission.ok) {
    return Response.json(
      { error: { code: 429, reason: 'TooManyRequests', message: admission.message } },
      { status: 429, headers: { 'Retry-After': String(admission.retryAfterSeconds), 'Cache-Control': 'no-store' } },
    );
  }
  const check = endsWith ? streamSessionCheck(endsWith, revocations()) : undefined;
  const stream = openApprovalEvents(approvalWatches(), members, fleet.person, {
    signal: req.signal,
    session: check,
    onClose: admission.release,
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    },
  });
});
