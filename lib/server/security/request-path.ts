// The path a request is for, as the router will route it. Next.js resolves dot segments, doubled
// slashes and percent-encoded letters before it matches a route, so `/./api/session`,
// `/api//session` and `/%61pi/session` all reach the session route; a check that compares the
// raw text would not see them as that route. Every check in front of Next.js is keyed on the
// path this module returns, and a path whose spelling could be read as another one is refused.

export type CanonicalPath = { ok: true; path: string } | { ok: false; message: string };

// Control characters, and the separators that would make one segment two.
const FORBIDDEN_IN_SEGMENT = /[\u0000-\u001f\u007f/\\]/;

/**
 * The request target's path, percent-decoded segment by segment, without a trailing slash; or
 * why it is refused. Refused: anything but an origin-form target (`/…`), backslashes, empty
 * segments (`//`), `.` and `..` segments however they are encoded, malformed percent-encoding,
 * and encoded slashes, backslashes or control characters.
 */
export function canonicalPath(target: string): CanonicalPath {
  const raw = target.split(/[?#]/, 1)[0]!;
  if (!raw.startsWith('/')) return { ok: false, message: 'the request target must be a path that starts with "/"' };
  if (raw.includes('\\')) return { ok: false, message: 'the path contains a backslash' };
  if (raw === '/') return { ok: true, path: '/' };
  const segments = raw.slice(1).split('/');
  // One trailing slash names the same page (Next.js redirects it); more are doubled slashes.
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const decoded: string[] = [];
  for (const s of segments) {
    if (s === '') return { ok: false, message: 'the path contains an empty segment ("//")' };
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return { ok: false, message: `the path segment "${s}" is not valid percent-encoding` };
    }
    if (d === '.' || d === '..') return { ok: false, message: `the path contains a "${d}" segment` };
    if (FORBIDDEN_IN_SEGMENT.test(d))
      return { ok: false, message: `the path segment "${s}" encodes a slash, backslash or control character` };
    decoded.push(d);
  }
  return { ok: true, path: `/${decoded.join('/')}` };
}
