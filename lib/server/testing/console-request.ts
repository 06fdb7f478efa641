// Requests as a console page sends them, for route tests: the person's session cookie (sealed
// with this process's key), the CSRF header and a same-site Origin.
import { CSRF_HEADER } from '../csrf';
import { sessionKey } from '../context';
import { newSession, sealSession, SESSION_COOKIE, type Session } from '../session';

export const CONSOLE_ORIGIN = 'http://console.local';
// Route tests play a console whose public URL is CONSOLE_ORIGIN, as `--public-url` would set it.
process.env.OLM_CONSOLE_PUBLIC_URL ??= CONSOLE_ORIGIN;

export function consoleRequest(
  path: string,
  opts: { token: string; method?: string; body?: unknown; origin?: string; csrf?: string | null },
): Request {
  const session = newSession(3600, opts.token, 'tester');
  const headers: Record<string, string> = {
    cookie: `${SESSION_COOKIE}=${sealSession(session, sessionKey())}`,
    origin: opts.origin ?? CONSOLE_ORIGIN,
    host: new URL(CONSOLE_ORIGIN).host,
  };
  if (opts.csrf !== null) headers[CSRF_HEADER] = opts.csrf ?? session.csrf;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return new Request(`${CONSOLE_ORIGIN}${path}`, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
}

/** A logged-in session as a login makes one, and its Cookie header: for tests that log it out. */
export function loggedInSession(token: string, username: string): { session: Session; cookie: string } {
  const session = newSession(3600, token, username);
  return { session, cookie: `${SESSION_COOKIE}=${sealSession(session, sessionKey())}` };
}
