// catalogd's catalog content HTTP API as v1.2.0 answers it (internal/catalogd/storage/localdir.go,
// internal/catalogd/serverutil/serverutil.go): GET and HEAD of /catalogs/<name>/api/v1/all, JSON
// lines as application/jsonl through Go's http.ServeContent (Last-Modified, If-Modified-Since → 304,
// If-Unmodified-Since → 412, one byte range → 206/416), gzip through klauspost's gzhttp for bodies
// of 1 KiB or more, and Go's plain-text errors. /api/v1/metas is behind a feature gate v1.2.0 leaves
// off, so it is a 404 here as there. docs/olm-v1/catalogs.md#the-content-api.
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ServedContent {
  jsonl: Buffer;
  /** When the content was stored: Last-Modified. */
  modified: Date;
}

/** Go's http.Error: the text, a newline, plain text that browsers must not sniff. */
function goError(res: ServerResponse, code: number, text: string): void {
  res.statusCode = code;
  res.removeHeader('Content-Length');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${text}\n`);
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A parsed HTTP date, in whole seconds; undefined when absent or unreadable (Go then ignores it). */
function httpDate(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.floor(t / 1000);
}

/** One `bytes=` range against `size`; 'bad' when it does not overlap, undefined for none or several. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | undefined {
  if (!header?.startsWith('bytes=')) return undefined;
  const specs = header.slice(6).split(',');
  if (specs.length !== 1) return undefined;
  const m = /^\s*(\d*)-(\d*)\s*$/.exec(specs[0]!);
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  if (m[1] === '') {
    const n = Math.min(Number(m[2]), size);
    return n === 0 ? 'bad' : { start: size - n, end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return 'bad';
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return end < start ? 'bad' : { start, end };
}

const GZIP_MIN_SIZE = 1024;
const ALL = /^\/catalogs\/([^/]+)\/api\/v1\/all$/;

/**
 * Answers one request. `lookup` gives a catalog's stored content, or undefined when catalogd
 * has none (never unpacked, Unavailable, deleted): a 404 in catalogd's words.
 */
export function serveContent(
  req: IncomingMessage,
  res: ServerResponse,
  lookup: (catalog: string) => ServedContent | undefined,
): void {
  // gzhttp says on every answer that it depends on Accept-Encoding.
  res.setHeader('Vary', 'Accept-Encoding');
  if (req.method !== 'GET' && req.method !== 'HEAD') return goError(res, 405, 'Method Not Allowed');
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const m = ALL.exec(path);
  if (!m) return goError(res, 404, '404 page not found');
  const content = lookup(decodeURIComponent(m[1]!));
  if (!content) return goError(res, 404, '404 Not Found');

  const size = content.jsonl.length;
  const modified = seconds(content.modified);
  res.setHeader('Content-Type', 'application/jsonl');
  res.setHeader('Last-Modified', content.modified.toUTCString());
  const ius = httpDate(req.headers['if-unmodified-since']);
  if (ius !== undefined && modified > ius) {
    // Go writes the bare status; the handler's Content-Type stays.
    res.statusCode = 412;
    return void res.end();
  }
  const ims = httpDate(req.headers['if-modified-since']);
  if (ims !== undefined && modified <= ims) {
    // Go's writeNotModified drops the body's headers and keeps Last-Modified (there is no ETag).
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    return void res.end();
  }
  let body = content.jsonl;
  res.setHeader('Accept-Ranges', 'bytes');
  const range = byteRange(req.headers.range, size);
  if (range === 'bad') {
    res.setHeader('Content-Range', `bytes */${size}`);
    return goError(res, 416, 'invalid range: failed to overlap');
  }
  if (range) {
    // A partial answer carries Content-Range, which gzhttp never compresses.
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    body = body.subarray(range.start, range.end + 1);
  } else {
    res.statusCode = 200;
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    // HEAD writes no body, so gzhttp has nothing to compress and the plain length stays.
    if (gzip && req.method === 'GET' && size >= GZIP_MIN_SIZE) {
      res.removeHeader('Accept-Ranges');
      res.setHeader('Content-Encoding', 'gzip');
      return void res.end(gzipSync(body));
    }
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
