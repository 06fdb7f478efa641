// Cross-site request protection for route handlers, which Next.js does not give them: a write
// must come from a page of this console (Origin, or Referer when Origin is absent, is one of the
// origins the administrator configured, never one derived from the request) and must echo the
// session's CSRF token in a header, which another site cannot read.
import { timingSafeEqual } from 'node:crypto';
import { allowedOrigins, originPolicyFromEnv, type OriginPolicy } from './security/origin-policy';
import type { Session } from './session';

export const CSRF_HEADER = 'x-csrf-token';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestFacts {
  method: string;
  /** The URL the request was made to, as the server sees it. */
  url: string;
  headers: { get(name: string): string | null };
}

export type CsrfVerdict = { ok: true } | { ok: false; message: string };

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The Origin half alone: for the login request, which has no session (and so no token) yet. */
export function checkSameOrigin(req: RequestFacts, policy: OriginPolicy = originPolicyFromEnv()): CsrfVerdict {
  return originVerdict(req, policy);
}

function originVerdict(req: RequestFacts, policy: OriginPolicy): CsrfVerdict {
  const origins = allowedOrigins(policy);
  const origin = req.headers.get('origin');
  const referer = req.headers.get('referer');
  let from: string | undefined;
  if (origin && origin !== 'null') from = origin;
  else if (referer) {
    try {
      from = new URL(referer).origin;
    } catch {
      from = undefined;
    }
  }
  if (!from)
    return {
      ok: false,
      message: 'cross-site check failed: the request names no Origin; send it from the console page',
    };
  if (!origins.has(from))
    return { ok: false, message: `cross-site check failed: requests from ${from} are not accepted` };
  return { ok: true };
}

export function checkCsrf(
  req: RequestFacts,
  session: Session | undefined,
  policy: OriginPolicy = originPolicyFromEnv(),
): CsrfVerdict {
  if (safeMethods.has(req.method.toUpperCase())) return { ok: true };
  const origin = originVerdict(req, policy);
  if (!origin.ok) return origin;
  const token = req.headers.get(CSRF_HEADER);
  if (!session) return { ok: false, message: 'no session: reload the console page and try again' };
  if (!token || !sameToken(token, session.csrf)) {
    return { ok: false, message: `missing or stale ${CSRF_HEADER} header: reload the console page and try again` };
  }
  return { ok: true };
}
