// Where to go after logging in: a `next` parameter is read as a URL relative to the console and
// must stay on the console's own origin. Prefix checks on the text are not enough: browsers read
// `/\evil.example` and `/<TAB>/evil.example` as `//evil.example`, another site.

export function safeRedirectTarget(next: string | null | undefined, origin: string, fallback = '/operatorhub'): string {
  if (!next) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
