// GET /api/events?w=id:kind[:namespace[:name]]&w=…: one Server-Sent Events stream multiplexing
// the watches a page needs (lib/server/watch-stream.ts). Events: `snapshot`, `change`, `status`
// (a watch is reconnecting or back), `error` (a watch the person may not make); comments as
// heartbeats. Reconnecting with Last-Event-ID resumes each watch where it was.
import { errorResponse } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { decodeResume, openWatchStream, parseWatchSpecs } from '@/lib/server/watch-stream';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  try {
    const url = new URL(req.url);
    const specs = parseWatchSpecs(url.searchParams.getAll('w'));
    const { client } = requestClient(req);
    const resume = decodeResume(req.headers.get('last-event-id') ?? url.searchParams.get('resume'));
    const stream = openWatchStream(client, specs, { resume, signal: req.signal });
    return new Response(stream, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' },
    });
  } catch (err) {
    return errorResponse(err);
  }
}
