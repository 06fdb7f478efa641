// GET /api/events?w=id:kind[:namespace[:name]]&w=…: one Server-Sent Events stream multiplexing
// the watches a page needs (lib/server/watch-stream.ts). Events: `snapshot`, `change`, `status`
// (a watch is reconnecting or back), `error` (a watch the person may not make), `session` (the
// session the stream acted with has ended: log in again); comments as heartbeats. Reconnecting
// with Last-Event-ID resumes each watch where it was. Streams per session and per person are
// limited (lib/server/stream-limits.ts): past a limit, 429 with Retry-After.

import { clusterAccess, proxyToken, requestClient, revocations } from '@/lib/server/context';
import { whoAmI } from '@/lib/server/permissions';
import { streamCounter, streamLimits } from '@/lib/server/stream-limits';
import { streamOwnership } from '@/lib/server/stream-owner';
import { streamSessionCheck } from '@/lib/server/stream-session';
import { decodeResume, openWatchStream, parseWatchSpecs } from '@/lib/server/watch-stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const url = new URL(req.url);
  const limits = streamLimits();
  const specs = parseWatchSpecs(url.searchParams.getAll('w'), limits.watchesPerStream);
  const { client, session } = requestClient(req);
  const { owner, endsWith } = await streamOwnership({
    mode: clusterAccess().mode,
    session,
    proxyToken: proxyToken(req),
    whoAmI: () => whoAmI(client),
    cluster: client.cluster,
  });
  const admission = streamCounter().admit(owner, limits);
  if (!admission.ok) {
    return Response.json(
      { error: { code: 429, reason: 'TooManyRequests', message: admission.message } },
      { status: 429, headers: { 'Retry-After': String(admission.retryAfterSeconds), 'Cache-Control': 'no-store' } },
    );
  }
  const resume = decodeResume(req.headers.get('last-event-id') ?? url.searchParams.get('resume'));
  const check = endsWith ? streamSessionCheck(endsWith, revocations()) : undefined;
  let stream: ReadableStream<Uint8Array>;
  try {
    const options = { resume, signal: req.signal, session: check, onClose: admission.release };
    stream = openWatchStream(client, specs, options);
  } catch (err) {
    admission.release();
    throw err;
  }
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    },
  });
});
