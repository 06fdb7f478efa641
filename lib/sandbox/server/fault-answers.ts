// How the sandbox fails a request when fault injection asks it to (faults.ts decides when).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendStatus } from './http-util';

/**
 * A failed answer (fault injection): a Status (with `Retry-After` when set), or the connection
 * closed with no answer (`reset`). With `after`, the request is carried out first and only its
 * answer is lost, as when an API server times out after etcd committed a write.
 */
export type FaultAnswer = (
  { code: number; reason: string; message: string; retryAfterSeconds?: number } | { reset: true }
) & { after?: boolean };

export function answerFault(req: IncomingMessage, res: ServerResponse, fault: FaultAnswer): void {
  if ('reset' in fault) {
    req.socket.destroy();
    return;
  }
  if (fault.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(fault.retryAfterSeconds));
  sendStatus(res, fault.code, fault.reason, fault.message);
}

/** Lets the request run, then answers the fault instead of what the handler wrote. */
export function loseAnswer(req: IncomingMessage, res: ServerResponse, fault: FaultAnswer): void {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  res.writeHead = function (this: ServerResponse) {
    return this;
  } as typeof res.writeHead;
  res.write = (() => true) as typeof res.write;
  res.end = function (this: ServerResponse) {
    Object.assign(res, original);
    for (const h of res.getHeaderNames()) res.removeHeader(h);
    answerFault(req, res, fault);
    return this;
  } as typeof res.end;
}
