// Reading a watch the way a client does, one JSON event a line, for the checks that compare what a
// watch shows on both clusters (target.ts's watchEvents, olm-unpack.ts's Subscription conditions).
// The request is node:https with the cluster's CA, as target.ts's `call`, so that both clusters get
// the same bytes; the checks decide what of the events they keep.
import { request } from 'node:https';
import type { Target } from './target';

/**
 * Reads the watch at `path` as the admin, handing each event to `take` until `take` returns true,
 * the server ends the stream or `timeoutMs` has passed, then resolves. A failed connection
 * rejects unless `enough()` says what was taken already answers the check: a stream cut after
 * events is the end of the watch, not an error. `signal` ends the watch from outside (a check that
 * collects events until it has read something else).
 */
export function readWatch<E>(
  t: Target,
  path: string,
  take: (event: E) => boolean,
  timeoutMs: number,
  enough: () => boolean,
  signal?: AbortSignal,
): Promise<void> {
  const u = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    let buffer = '';
    const req = request(
      u,
      { ca: t.ca, headers: { authorization: `Bearer ${t.tokens.admin}`, accept: 'application/json' } },
      (res) => {
        res.on('data', (d: Buffer) => {
          buffer += d.toString();
          let i: number;
          while ((i = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, i).trim();
            buffer = buffer.slice(i + 1);
            if (!line) continue;
            if (take(JSON.parse(line) as E)) {
              req.destroy();
              resolve();
              return;
            }
          }
        });
        res.on('end', () => resolve());
      },
    );
    req.on('error', (err) => (enough() ? resolve() : reject(err)));
    const end = () => {
      req.destroy();
      resolve();
    };
    setTimeout(end, timeoutMs).unref();
    signal?.addEventListener('abort', end, { once: true });
    req.end();
  });
}
