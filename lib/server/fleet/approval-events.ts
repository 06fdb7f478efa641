// The Approvals across clusters page's Server-Sent Events stream: for each cluster, where its
// shared watch stands (`watch`: watching, retrying, refused or unwatched, with a mark) and when
// its approvals changed (`change`), so the page reads that cluster's row again and no other. The
// stream carries no objects: what the page shows is always the approvals route's answer. It ends
// by itself after `maxLifeMs`, saying so first (`reconnect`: the browser reconnects at once, with
// the person's current token and rights), and when the session it acts with ends (`session`, as /api/events does), and its
// end releases every watch it held (each outlives it a little: approval-watches.ts).
import type { StreamSessionState } from '../stream-session';
import type { ApprovalWatches, FleetWatchNews } from './approval-watches';
import type { FleetMember } from './members';
import type { FleetPerson } from './person';

/** How long one stream lasts before the browser is made to open another. */
export const FLEET_STREAM_MAX_MS = 10 * 60_000;
/** How long the browser waits before it reconnects (the stream's `retry`). */
const RETRY_MS = 2000;

export interface FleetEventsOptions {
  signal?: AbortSignal;
  heartbeatMs?: number;
  maxLifeMs?: number;
  session?: () => StreamSessionState;
  sessionCheckMs?: number;
  /** Called once when the stream ends, whatever ends it. */
  onClose?: () => void;
}

export function openApprovalEvents(
  watches: ApprovalWatches,
  members: readonly FleetMember[],
  person: FleetPerson,
  opts: FleetEventsOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const releases: (() => void)[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    for (const t of timers) clearInterval(t);
    for (const release of releases.splice(0)) release();
    opts.onClose?.();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const close = () => {
        if (closed) return;
        finish();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      opts.signal?.addEventListener('abort', close, { once: true });
      if (opts.signal?.aborted) return close();
      if (opts.session) {
        const check = opts.session;
        const ended = () => {
          const s = check();
          if (s.state === 'live') return false;
          if (s.state === 'ended') send('session', { state: 'ended', reason: s.reason, message: s.message });
          close();
          return true;
        };
        if (ended()) return;
        timers.push(setInterval(ended, opts.sessionCheckMs ?? 1_000));
      }
      write(`retry: ${RETRY_MS}\n\n`);
      const tell = (n: FleetWatchNews) => {
        const { type, ...data } = n;
        send(type === 'change' ? 'change' : 'watch', data);
      };
      for (const m of members) releases.push(watches.listen(person, m, tell));
      const beat = () => write(`: heartbeat ${new Date().toISOString()}\n\n`);
      timers.push(setInterval(beat, opts.heartbeatMs ?? 15_000));
      // clearInterval clears a timeout too (Node's and the web's timers share their ids).
      // A planned end says so first: the page keeps saying it is live across the reconnect it expects,
      // and says otherwise only when the stream ends without this (a replica gone, the network).
      const planned = () => {
        send('reconnect', { afterMs: RETRY_MS });
        close();
      };
      timers.push(setTimeout(planned, opts.maxLifeMs ?? FLEET_STREAM_MAX_MS));
    },
    cancel() {
      finish();
    },
  });
}
