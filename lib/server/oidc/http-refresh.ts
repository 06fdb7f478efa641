// The HTTP server's step before Next.js for signed-in sessions (lib/server/http/console-server.ts):
// an ID token about to expire is refreshed, the request goes on with the new cookie (so every
// route acts with the fresh token), and the browser gets the new cookie with the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { revocations } from '../context';
import { openSession, sealSession, sessionCookieHeader, sessionCookieName, type SessionKey } from '../session';
import { endSessionCredentials } from '../session-lease';
import { needsRefresh, refreshSession } from './refresh';

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export async function refreshOidcCookie(key: SessionKey, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const tls = req.headers['x-olm-console-tls'] === 'true';
  const name = sessionCookieName(tls);
  const header = req.headers.cookie ?? '';
  const old = cookieValue(header, name);
  const session = openSession(old, key);
  if (!session || !needsRefresh(session) || revocations().isRevoked(session)) return;
  const fresh = await refreshSession(session);
  // The request goes on with the old token, which the API server refuses once expired: the
  // page then asks the person to sign in again. The server logs why.
  if (!fresh) {
    // The grant is over: what the console kept of this session's ID token goes now, not at its expiry.
    endSessionCredentials(session, session.token);
    const why = 'the grant ended, or the provider cannot be reached';
    throw new Error(`the identity provider refused to refresh the token (${why})`);
  }
  const sealed = sealSession(fresh, key);
  const parts = header.split(';').map((p) => (p.trim().startsWith(`${name}=`) ? ` ${name}=${sealed}` : p));
  req.headers.cookie = parts.join(';').trim();
  const maxAgeSeconds = Math.max(0, fresh.expiresAt - Math.floor(Date.now() / 1000));
  res.setHeader('Set-Cookie', sessionCookieHeader(sealed, { secure: tls, maxAgeSeconds }));
}
