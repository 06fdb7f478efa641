// How many event streams (GET /api/events) one browser session and one person may hold open, and
// how many watches one stream may carry. Every watch is a list and a watch on the cluster, so
// these bound what one person can make the console ask of the API server and keep in memory.
// Counted per replica, in memory: behind a Service of N replicas a person may hold N times these.
import { createHash } from 'node:crypto';

export interface StreamLimits {
  perSession: number;
  perUser: number;
  watchesPerStream: number;
}

// A page opens one stream per live view, at most two at once (an operator with its Conditions
// tab), with at most five watches: 8 per session is four such tabs in one browser, 16 per person
// two browsers; a tab closed uncleanly can hold its stream a while, hence the room.
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perSession: 8, perUser: 16, watchesPerStream: 16 };

export const STREAM_LIMIT_ENV: Record<keyof StreamLimits, string> = {
  perSession: 'OLM_CONSOLE_MAX_STREAMS_PER_SESSION',
  perUser: 'OLM_CONSOLE_MAX_STREAMS_PER_USER',
  watchesPerStream: 'OLM_CONSOLE_MAX_WATCHES_PER_STREAM',
};

/** The limits from the environment; a value that is not a positive whole number keeps the default. */
export function streamLimits(env: Record<string, string | undefined> = process.env): StreamLimits {
  const read = (k: keyof StreamLimits) => {
    const n = Number(env[STREAM_LIMIT_ENV[k]]);
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_STREAM_LIMITS[k];
  };
  return { perSession: read('perSession'), perUser: read('perUser'), watchesPerStream: read('watchesPerStream') };
}

/** Whom a stream counts against: opaque keys the server derived, never a name a client sent. */
export interface StreamOwner {
  session: string;
  user: string;
}

export const RETRY_AFTER_SECONDS = 10;

export type Admission = { ok: true; release: () => void } | { ok: false; message: string; retryAfterSeconds: number };

export class StreamCounter {
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<string, number>();

  /** Counts the stream in, or says which limit it would pass; `release` (idempotent) counts it out. */
  admit(owner: StreamOwner, limits: StreamLimits): Admission {
    const session = this.sessions.get(owner.session) ?? 0;
    const user = this.users.get(owner.user) ?? 0;
    const reconnects = 'this page connects again by itself once one is closed';
    if (user >= limits.perUser) {
      return this.refused(
        `you have ${user} event streams open to this console, the most one person may (${STREAM_LIMIT_ENV.perUser}); ` +
          `close console tabs you no longer need, in any browser: ${reconnects}`,
      );
    }
    if (session >= limits.perSession) {
      return this.refused(
        `this browser has ${session} event streams open to this console, the most one session may ` +
          `(${STREAM_LIMIT_ENV.perSession}); close other console tabs: ${reconnects}`,
      );
    }
    bump(this.sessions, owner.session, 1);
    bump(this.users, owner.user, 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        bump(this.sessions, owner.session, -1);
        bump(this.users, owner.user, -1);
      },
    };
  }

  /** Streams open for this owner's session and person (tests and diagnostics). */
  count(owner: StreamOwner): { session: number; user: number } {
    return { session: this.sessions.get(owner.session) ?? 0, user: this.users.get(owner.user) ?? 0 };
  }

  private refused(message: string): Admission {
    return { ok: false, message, retryAfterSeconds: RETRY_AFTER_SECONDS };
  }
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n > 0) m.set(key, n);
  else m.delete(key);
}

const COUNTER = Symbol.for('olm-console.stream-counter');

/** The replica's one counter, whichever route bundle asks (each may hold its own copy of this module). */
export function streamCounter(): StreamCounter {
  const g = globalThis as { [COUNTER]?: StreamCounter };
  g[COUNTER] ??= new StreamCounter();
  return g[COUNTER];
}

/** A key naming a secret (a token, a session id) without holding it. */
export function opaqueKey(prefix: string, secret: string): string {
  return `${prefix}:${createHash('sha256').update(secret).digest('base64url').slice(0, 22)}`;
}
