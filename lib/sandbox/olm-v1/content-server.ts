// catalogd's catalog content HTTP API as v1.2.0 answers it (internal/catalogd/storage/localdir.go,
// internal/catalogd/serverutil/serverutil.go): GET and HEAD of /catalogs/<name>/api/v1/all, JSON
// lines as application/jsonl through Go's http.ServeContent (Last-Modified, its preconditions and
// byte ranges as go-serve-content.ts reads them), gzip through klauspost's gzhttp for bodies
// of 1 KiB or more, and Go's plain-text errors. /api/v1/metas is behind a feature gate v1.2.0 leaves
// off, so it is a 404 here as there. docs/olm-v1/catalogs.md#the-content-api.
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPreconditions, parseRange } from './go-serve-content';

export interface ServedContent {
  jsonl: Buffer;
  /** When the content was stored: Last-Modified. */
  modified: Date;
}

/**
 * Go's http.Error: the text and a newline as plain text browsers must not sniff. Go's server then
 * gives a body written whole while the handler ran its Content-Length, for HEAD too (it counts the
 * bytes the handler wrote, then drops them).
 */
function goError(res: ServerResponse, code: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Go's server holds the first 2 KiB of a body in a buffer; a body that ends within it goes out
 * with a Content-Length, a longer one chunked. gzhttp streams what it compresses into that buffer.
 */
const GO_BUFFER_BEFORE_CHUNKING = 2048;
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
  const pre = checkPreconditions(req.method ?? 'GET', req.headers, modified);
  if (pre.answer === 412) {
    // Go writes the bare status; the handler's Content-Type stays.
    res.statusCode = 412;
    return void res.end();
  }
  if (pre.answer === 304) {
    // Go's writeNotModified drops the body's headers and keeps Last-Modified (there is no ETag).
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    return void res.end();
  }
  let ranges = parseRange(pre.range, size);
  // An empty file ignores a range past its end rather than refusing it.
  if (ranges === 'invalid range: failed to overlap' && size === 0) ranges = [];
  if (typeof ranges === 'string') {
    if (ranges === 'invalid range: failed to overlap') res.setHeader('Content-Range', `bytes */${size}`);
    // ServeContent's serveError clears Last-Modified before the error; Accept-Ranges comes later.
    res.removeHeader('Last-Modified');
    return goError(res, 416, ranges);
  }
  let body = content.jsonl;
  res.setHeader('Accept-Ranges', 'bytes');
  // Several ranges are a multipart/byteranges answer in Go; the sandbox serves the whole content
  // for them (docs/olm-v1/catalogs.md#the-content-api).
  const range = ranges.length === 1 ? ranges[0]! : undefined;
  if (range) {
    // A partial answer carries Content-Range, which gzhttp never compresses.
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${range.start}-${range.start + range.length - 1}/${size}`);
    body = body.subarray(range.start, range.start + range.length);
  } else {
    res.statusCode = 200;
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    // HEAD writes no body, so gzhttp has nothing to compress and the plain length stays.
    if (gzip && req.method === 'GET' && size >= GZIP_MIN_SIZE) {
      // gzhttp deletes the plain length and Accept-Ranges, then streams the compressed bytes.
      res.removeHeader('Accept-Ranges');
      res.setHeader('Content-Encoding', 'gzip');
      const zipped = gzipSync(body);
      if (zipped.length <= GO_BUFFER_BEFORE_CHUNKING) res.setHeader('Content-Length', zipped.length);
      // Without the header Node would add one for a body given whole; removing it makes it chunked.
      else res.removeHeader('Content-Length');
      return void res.end(zipped);
    }
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
