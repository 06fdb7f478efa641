// The page a failed sign-in lands on: what happened, in words, and "Sign in again" (a new sign-in
// that comes back to the same page). Plain HTML from the route: it must work when nothing else does.
import { PROBLEM_TEXT, type SignInProblem } from './errors';
import { clearedStateCookieHeader } from './state-cookie';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function problemPage(problem: SignInProblem, next: string, secure: boolean, status = 400): Response {
  const again = `/api/auth/login?next=${encodeURIComponent(next)}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed — OLM console</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>Sign-in failed</h1>
<p role="alert" data-problem="${problem}">${escape(PROBLEM_TEXT[problem])}</p>
<p><a href="${escape(again)}">Sign in again</a></p>
</body></html>`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Set-Cookie': clearedStateCookieHeader(secure) },
  });
}
