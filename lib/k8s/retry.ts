// Retrying API calls that failed for a reason that passes: the server throttling us (429), a
// 5xx, a connection refused, reset or timed out. The one place that decides what may be sent
// again (http.ts runs every request through `withRetry`; client.ts finishes creates and deletes
// whose earlier attempt may have been carried out). Watches are not retried here: the informer
// resumes them itself.
//
// What may be sent again depends on whether the server may already have done it:
// - 429 TooManyRequests and a refused connection: the server did not process the request (the
//   API server's max-in-flight and priority-and-fairness filters answer 429 before any handler
//   runs). Every request may be sent again.
// - 500, 502, 503, 504 and a reset or timed-out connection: the outcome is unknown; a write may
//   have been carried out before the answer was lost (etcd committed, then the API server timed
//   out). So:
//   - reads (GET, LIST) are sent again;
//   - PUT is sent again: the console's updates carry the resourceVersion they were read at, so a
//     second copy can never apply twice (it gets 409 Conflict). A conflict after an uncertain
//     attempt is checked by client.ts: if the object now holds what we sent, our first copy was
//     applied; otherwise it is a real conflict for the caller to re-read, as day-two.ts does;
//   - merge and strategic-merge PATCH are sent again: applying the same such patch twice leaves
//     the same object; a JSON patch may not (an `add` to `/-` appends twice), so it is not;
//   - DELETE is sent again: a 404 after an uncertain attempt means our delete happened, and
//     client.ts reports it done; a uid precondition keeps a retry off a re-created object;
//   - a create with a fixed name is sent again: names are unique, so it can never make two
//     objects; if the retry answers 409 AlreadyExists, client.ts reads the object and takes it
//     as ours only when it is what we sent (spec, labels, annotations) and not being deleted,
//     else passes the 409 on. We chose this over not retrying creates on 5xx because an install
//     is three creates: failing them on every transient 5xx is what made installs fail;
//   - a create by `generateName` or any other POST is not sent again (a retry could make a
//     second object), except reviews (SelfSubjectAccessReview…) and dry runs, which store nothing.
// - Any other 4xx is the server's answer and is passed on at once.
//
// Waits: exponential backoff with jitter (each wait drawn from [d/2, d], d = base·2ⁿ capped),
// or the server's `Retry-After` when it sent one (seconds or an HTTP date, or a Status's
// details.retryAfterSeconds). A request is sent at most `maxAttempts` times, and no retry
// starts once `budgetMs` has passed since the first attempt; a server asking us to wait longer
// than `maxRetryAfterMs` gets its error passed on at once, rather than a person kept waiting.
// The error that finally fails keeps the server's code, reason and message; the message says
// how many times it was tried.
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { KubeError } from './errors';

/**
 * - `idempotent`: sent again after any transient failure.
 * - `create`: the same, for a create with a fixed name; a 409 after an uncertain attempt is
 *   marked (`earlierAttemptUncertain`) for the caller to check.
 * - `unsafe`: sent again only when the server certainly did not process it (429, refused).
 * - `none`: never (a readiness probe answers with the state of the moment).
 */
export type RetryMode = 'idempotent' | 'create' | 'unsafe' | 'none';

export interface RetryPolicy {
  /** Times a request is sent at most (1: no retry). */
  maxAttempts: number;
  /** The first backoff; it doubles with each retry up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` waited for. */
  maxRetryAfterMs: number;
  /** No retry starts after this long since the first attempt (waits and attempts included). */
  budgetMs: number;
}

// Six attempts: with 30% of calls failing, one call still fails after retries 0.3⁶ ≈ 0.07% of
// the time, so an install of ~17 calls about 1.2%; the waits add up to at most 3.1 s
// (0.1 + 0.2 + 0.4 + 0.8 + 1.6), so a cluster that is really down is reported within seconds.
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 6,
  baseDelayMs: 100,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 5_000,
  budgetMs: 10_000,
});

let policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };

/** The policy every request uses. */
export function retryPolicy(): Readonly<RetryPolicy> {
  return policy;
}

/** Changes the policy (tests and benchmarks: `{ maxAttempts: 1 }` turns retries off); returns the previous one. */
export function setRetryPolicy(change: Partial<RetryPolicy>): RetryPolicy {
  const before = policy;
  policy = { ...policy, ...change };
  return before;
}

/** What a request's method says about sending it again, unless the caller knows better. */
export function retryModeFor(method: string, contentType?: string): RetryMode {
  switch (method) {
    case 'GET':
    case 'PUT':
    case 'DELETE':
      return 'idempotent';
    case 'PATCH':
      return contentType === 'application/json-patch+json' ? 'unsafe' : 'idempotent';
    default:
      return 'unsafe';
  }
}

/** Socket errors where the request never reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Socket errors where it may have: the answer was lost. */
const ANSWER_LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET', 'TimeoutError']);
const TRANSIENT_CODES = new Set([500, 502, 503, 504]);

export type Failure = { transient: false } | { transient: true; processed: 'no' | 'maybe' };

/** Whether a failure may pass, and whether the server may have carried the request out. */
export function classifyFailure(err: unknown): Failure {
  if (!(err instanceof KubeError)) return { transient: false };
  if (err.network !== undefined) {
    if (NOT_SENT.has(err.network)) return { transient: true, processed: 'no' };
    if (ANSWER_LOST.has(err.network)) return { transient: true, processed: 'maybe' };
    return { transient: false };
  }
  if (err.code === 429) return { transient: true, processed: 'no' };
  if (TRANSIENT_CODES.has(err.code)) return { transient: true, processed: 'maybe' };
  return { transient: false };
}

function mayResend(mode: RetryMode, f: Failure): boolean {
  if (!f.transient || mode === 'none') return false;
  return mode === 'unsafe' ? f.processed === 'no' : true;
}

/** The n-th retry's backoff (n from 1), before any Retry-After: drawn from [d/2, d]. */
export function backoffMs(n: number, p: RetryPolicy = policy, random: () => number = Math.random): number {
  const d = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (n - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface RetryOptions {
  mode: RetryMode;
  policy?: RetryPolicy;
  signal?: AbortSignal;
  /** Injected in tests; waits for `ms`, rejecting when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Called before each wait (metrics). */
  onRetry?: (err: KubeError, attempt: number, delayMs: number) => void;
}

const defaultSleep = (ms: number, signal?: AbortSignal) => sleepTimer(ms, undefined, { signal });

/**
 * Runs `attempt` until it succeeds, fails for good, or the policy says stop. Only KubeErrors
 * are retried; anything else (an aborted request, a bug) is thrown at once.
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const p = opts.policy ?? policy;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const start = now();
  let uncertain = false;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof KubeError) || opts.signal?.aborted) throw err;
      const f = classifyFailure(err);
      let delay: number | undefined;
      if (mayResend(opts.mode, f) && n < p.maxAttempts) {
        const asked = err.retryAfterMs;
        delay =
          asked !== undefined && asked > 0
            ? asked <= p.maxRetryAfterMs
              ? asked
              : undefined
            : backoffMs(n, p, opts.random);
        if (delay !== undefined && now() - start + delay > p.budgetMs) delay = undefined;
      }
      if (delay === undefined) {
        err.attempts = n;
        if (uncertain) err.earlierAttemptUncertain = true;
        if (n > 1) err.message = `${err.message} (tried ${n} times in ${((now() - start) / 1000).toFixed(1)} s)`;
        throw err;
      }
      if (f.transient && f.processed === 'maybe') uncertain = true;
      opts.onRetry?.(err, n, delay);
      await sleep(delay, opts.signal);
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `found` holds everything in `sent` (the server may add defaults, never change what we set). */
function contains(found: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(found) && found.length === sent.length && sent.every((s, i) => contains(found[i], s));
  if (isRecord(sent))
    return isRecord(found) && Object.entries(sent).every(([k, v]) => v === undefined || contains(found[k], v));
  return found === sent;
}

/**
 * After a create whose earlier attempt got no clear answer was refused as AlreadyExists: is the
 * object there the one we sent? Its labels, annotations and every other field we set (spec,
 * data…) must be there as we set them, and it must not be going away. An identical object made
 * by someone else in the same second would pass too; the planner checked it was absent just before.
 */
export function isObjectWeSent(sent: unknown, found: unknown): boolean {
  if (!isRecord(sent) || !isRecord(found)) return false;
  const sm = isRecord(sent.metadata) ? sent.metadata : {};
  const fm = isRecord(found.metadata) ? found.metadata : {};
  if (fm.deletionTimestamp) return false;
  if (sm.labels !== undefined && !contains(fm.labels ?? {}, sm.labels)) return false;
  if (sm.annotations !== undefined && !contains(fm.annotations ?? {}, sm.annotations)) return false;
  for (const [k, v] of Object.entries(sent)) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!contains(found[k], v)) return false;
  }
  return true;
}
