// The headers of the sandbox's catalogd content answers, as a client reads them off the wire.
// Expectations are from the code that answers for real catalogd v1.2.0: net/http's Error (the
// length of a body written whole), fs.go's serveContent, serveError, checkPreconditions and
// parseRange, and gzhttp v1.18.0's GzipResponseWriter (compress.go: startGzip deletes
// Content-Length and Accept-Ranges); docs/olm-v1/catalogs.md#the-content-api has the file names.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { serveContent, type ServedContent } from './content-server';
import { parseHttpTime } from './go-serve-content';

interface Answer {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

// 40 KiB of hex: compressed it stays far above Go's 2 KiB buffer, so gzhttp's answer is chunked.
const big: ServedContent = {
  jsonl: Buffer.from(`${randomBytes(20 * 1024).toString('hex')}\n`),
  modified: new Date('2026-11-26T10:00:00.500Z'),
};
// 1.5 KiB of one repeated line: over gzhttp's 1 KiB threshold, a few dozen bytes compressed.
const small: ServedContent = {
  jsonl: Buffer.from('{"schema":"olm.package","name":"x"}\n'.repeat(43)),
  modified: new Date('2026-11-26T10:00:00Z'),
};
const LAST_MODIFIED = 'Thu, 26 Nov 2026 10:00:00 GMT';

let server: Server;
let base = '';

function get(path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("catalogd content answers carry Go's headers", () => {
  before(async () => {
    const catalogs: Record<string, ServedContent> = { big, small };
    server = createServer((req, res) => serveContent(req, res, (name) => catalogs[name]));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('plain-text errors give the length of their text: 404 for a path or a catalog, 405, and for HEAD', async () => {
    const cases: [string, string, number, string][] = [
      ['GET', '/catalogs/big/api/v1/metas', 404, '404 page not found\n'],
      ['GET', '/catalogs/nope/api/v1/all', 404, '404 Not Found\n'],
      ['POST', '/catalogs/big/api/v1/all', 405, 'Method Not Allowed\n'],
    ];
    for (const [method, path, code, text] of cases) {
      const a = await get(path, { method });
      assert.equal(a.code, code, `${method} ${path}`);
      assert.equal(a.body.toString(), text);
      assert.equal(a.headers['content-length'], String(Buffer.byteLength(text)));
      assert.equal(a.headers['transfer-encoding'], undefined);
      assert.equal(a.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(a.headers['x-content-type-options'], 'nosniff');
    }
    const head = await get('/catalogs/nope/api/v1/all', { method: 'HEAD' });
    assert.equal(head.code, 404);
    assert.equal(head.headers['content-length'], '14');
  });

  test('a range past the end is 416 with Content-Range and its length, without Accept-Ranges or Last-Modified', async () => {
    const a = await get('/catalogs/small/api/v1/all', { headers: { Range: `bytes=${small.jsonl.length}-` } });
    assert.equal(a.code, 416);
    assert.equal(a.body.toString(), 'invalid range: failed to overlap\n');
    assert.equal(a.headers['content-range'], `bytes */${small.jsonl.length}`);
    assert.equal(a.headers['content-length'], '33');
    assert.equal(a.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(a.headers['accept-ranges'], undefined);
    assert.equal(a.headers['last-modified'], undefined);
  });

  test('a malformed range is 416 "invalid range" with no Content-Range; several ranges are not refused', async () => {
    for (const range of ['items=0-1', 'bytes=5-1', 'bytes=x-2', 'bytes=--3', 'bytes=0-1,abc']) {
      const a = await get('/catalogs/small/api/v1/all', { headers: { Range: range } });
      assert.equal(a.code, 416, range);
      assert.equal(a.body.toString(), 'invalid range\n');
      assert.equal(a.headers['content-range'], undefined);
    }
    const empty = await get('/catalogs/small/api/v1/all', { headers: { Range: 'bytes=' } });
    assert.equal(empty.code, 200);
    assert.equal(empty.body.length, small.jsonl.length);
  });

  test('ranges that parse answer 206 with the bytes asked for, a suffix too', async () => {
    const size = small.jsonl.length;
    const tail = await get('/catalogs/small/api/v1/all', { headers: { Range: 'bytes=-10' } });
    assert.equal(tail.code, 206);
    assert.equal(tail.headers['content-range'], `bytes ${size - 10}-${size - 1}/${size}`);
    assert.deepEqual(tail.body, small.jsonl.subarray(size - 10));
    assert.equal(tail.headers['accept-ranges'], 'bytes');
    assert.equal(tail.headers['last-modified'], LAST_MODIFIED);
    // Past the end is clipped to it; the content is served uncompressed even when gzip is accepted.
    const clipped = await get('/catalogs/small/api/v1/all', {
      headers: { Range: 'bytes=1000-999999', 'Accept-Encoding': 'gzip' },
    });
    assert.equal(clipped.code, 206);
    assert.equal(clipped.headers['content-range'], `bytes 1000-${size - 1}/${size}`);
    assert.equal(clipped.headers['content-encoding'], undefined);
    assert.equal(clipped.headers['content-length'], String(size - 1000));
  });

  test('gzip streams a large body without Content-Length or Accept-Ranges', async () => {
    const a = await get('/catalogs/big/api/v1/all', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(a.code, 200);
    assert.equal(a.headers['content-encoding'], 'gzip');
    assert.equal(a.headers['content-length'], undefined);
    assert.equal(a.headers['transfer-encoding'], 'chunked');
    assert.equal(a.headers['accept-ranges'], undefined);
    assert.equal(a.headers.vary, 'Accept-Encoding');
    assert.deepEqual(gunzipSync(a.body), big.jsonl);
  });

  test("a compressed body that fits Go's 2 KiB buffer goes out whole, with its length", async () => {
    const a = await get('/catalogs/small/api/v1/all', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(a.headers['content-encoding'], 'gzip');
    assert.equal(a.headers['content-length'], String(a.body.length));
    assert.ok(a.body.length < 2048);
    assert.deepEqual(gunzipSync(a.body), small.jsonl);
  });

  test('preconditions: tags decide before dates, and dates only in the three HTTP forms', async () => {
    const path = '/catalogs/small/api/v1/all';
    const code = async (headers: Record<string, string>) => (await get(path, { headers })).code;
    // No ETag exists: a tag in If-Match never matches, `*` always does.
    assert.equal(await code({ 'If-Match': '"abc"' }), 412);
    assert.equal(await code({ 'If-Match': '*', 'If-Unmodified-Since': 'Thu, 01 Jan 2026 00:00:00 GMT' }), 200);
    assert.equal(await code({ 'If-Unmodified-Since': 'Thu, 01 Jan 2026 00:00:00 GMT' }), 412);
    // If-None-Match `*` is 304; a tag is "none match", and then If-Modified-Since is not read.
    assert.equal(await code({ 'If-None-Match': '*' }), 304);
    assert.equal(await code({ 'If-None-Match': '"abc"', 'If-Modified-Since': LAST_MODIFIED }), 200);
    assert.equal(await code({ 'If-Modified-Since': LAST_MODIFIED }), 304);
    // A date Go cannot read is ignored, however clear it is to JavaScript.
    assert.equal(await code({ 'If-Modified-Since': '2030-01-01T00:00:00Z' }), 200);
    // If-Range with another date, or any tag, serves everything instead of the range.
    assert.equal(await code({ Range: 'bytes=0-1', 'If-Range': 'Wed, 25 Nov 2026 10:00:00 GMT' }), 200);
    assert.equal(await code({ Range: 'bytes=0-1', 'If-Range': '"abc"' }), 200);
    assert.equal(await code({ Range: 'bytes=0-1', 'If-Range': LAST_MODIFIED }), 206);
  });

  test('HTTP dates: RFC 1123, RFC 850 and asctime, nothing else', () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37) / 1000;
    assert.equal(parseHttpTime('Sun, 06 Nov 1994 08:49:37 GMT'), t);
    assert.equal(parseHttpTime('Sunday, 06-Nov-94 08:49:37 GMT'), t);
    assert.equal(parseHttpTime('Sun Nov  6 08:49:37 1994'), t);
    for (const bad of [
      '1994-11-06T08:49:37Z',
      'Sun, 06 Nov 1994 08:49:37 +0000',
      'Sun, 31 Feb 1994 08:49:37 GMT',
      '',
    ]) {
      assert.equal(parseHttpTime(bad), undefined, bad);
    }
  });
});
