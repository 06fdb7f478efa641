// The page a failed sign-in lands on: what happened, in words, and "Sign in again" (a new sign-in
// that comes back to the same page). Plain HTML from the route, for the browser's navigation; a
// client that does not ask for HTML gets the API's usual JSON error with the same words.
import { PROBLEM_TEXT, type SignInProblem } from './errors';

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  403: 'Forbidden',
  500: 'InternalError',
  502: 'BadGateway',
};
import { clearedStateCookieHeader } from './state-cookie';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function problemPage(
  req: Request,
  problem: SignInProblem,
  next: string,
  secure: boolean,
  status = 400,
): Response {
  const again = `/api/auth/login?next=${encodeURIComponent(next)}`;
  if (!(req.headers.get('accept') ?? '').includes('text/html')) {
    const message = `${PROBLEM_TEXT[problem]} Sign in again: ${again}`;
    const error = { code: status, reason: REASONS[status] ?? 'BadRequest', message, problem };
    const headers = { 'Cache-Control': 'no-store', 'Set-Cookie': clearedStateCookieHeader(secure) };
    return Response.json({ error }, { status, headers });
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Sign-in failed — OLM console</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>Sign-in failed</h1>
<p role="alert" data-problem="${problem}">${escape(PROBLEM_TEXT[problem])}</p>
<p><a href="${escape(again)}">Sign in again</a></p>
</body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Set-Cookie': clearedStateCookieHeader(secure),
    },
  });
}
