// Where to go after logging in: a `next` parameter is read as a URL relative to the console and
// must stay on the console's own origin. Prefix checks on the text are not enough: browsers read
// `/\evil.example` and `/<TAB>/evil.example` as `//evil.example`, another site; and a target on
// the console's origin whose path starts with `//` (`/.//evil.example`, `/a/..//evil.example`,
// `http://console//evil.example`) is, once given back as a path, a link to another host.

export function safeRedirectTarget(next: string | null | undefined, origin: string, fallback = '/operatorhub'): string {
  if (!next) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  // The URL parser has resolved dot segments; what is left must be a path of this origin alone.
  if (!url.pathname.startsWith('/') || url.pathname.startsWith('//') || url.pathname.startsWith('/\\')) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Read back as the browser will read it: the same origin, or not at all.
  return new URL(target, origin).origin === url.origin ? target : fallback;
}
