// A body compressed once and served many times: which coding a client's Accept-Encoding gets,
// when If-None-Match means "not modified", and that what is served decodes to the text itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  chooseEncoding,
  declaredEncoding,
  EncodedBody,
  notModified,
  STORED_ENCODING_HEADER,
  storedBodyResponse,
} from './stored-encoding';

test('brotli when the client takes it, gzip when only that, nothing when neither or refused', () => {
  assert.equal(chooseEncoding('gzip, deflate, br, zstd'), 'br', "a browser's header");
  assert.equal(chooseEncoding('gzip'), 'gzip');
  assert.equal(chooseEncoding('deflate'), undefined);
  assert.equal(chooseEncoding(''), undefined);
  assert.equal(chooseEncoding(null), undefined);
  assert.equal(chooseEncoding('identity'), undefined);
  assert.equal(chooseEncoding('br;q=0, gzip'), 'gzip', 'q=0 refuses a coding');
  assert.equal(chooseEncoding('br;q=0.2, gzip;q=0.8'), 'gzip', 'the higher weight wins');
  assert.equal(chooseEncoding('*'), 'br', 'any coding');
  assert.equal(chooseEncoding('*;q=0'), undefined);
  assert.equal(chooseEncoding('GZIP'), 'gzip', 'codings are case-insensitive');
  assert.equal(chooseEncoding('gzip;q=banana'), undefined, 'a weight that is no number counts as a refusal');
});

test('If-None-Match: the tag, a list holding it, its strong twin or * mean not modified', () => {
  const etag = 'W/"abc"';
  assert.equal(notModified('W/"abc"', etag), true);
  assert.equal(notModified('"x", W/"abc"', etag), true);
  assert.equal(notModified('"abc"', etag), true, 'weak comparison');
  assert.equal(notModified('*', etag), true);
  assert.equal(notModified('W/"abd"', etag), false);
  assert.equal(notModified(null, etag), false);
  assert.equal(notModified('', etag), false);
});

const text = JSON.stringify({ packages: Array.from({ length: 200 }, (_, i) => ({ name: `operator-${i}` })) });

function get(headers: Record<string, string>): Request {
  return new Request('http://console.local/api/x', { headers });
}

test('the same body answers the same bytes to each client, in the coding it accepts, decoding to the text', async () => {
  const body = new EncodedBody(text);
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  const br1 = storedBodyResponse(get({ 'accept-encoding': 'gzip, br' }), body, 'W/"t"', headers);
  const br2 = storedBodyResponse(get({ 'accept-encoding': 'br' }), body, 'W/"t"', headers);
  const gz = storedBodyResponse(get({ 'accept-encoding': 'gzip' }), body, 'W/"t"', headers);
  const plain = storedBodyResponse(get({}), body, 'W/"t"', headers);
  for (const r of [br1, br2, gz, plain]) {
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('vary'), 'Accept-Encoding');
    assert.equal(r.headers.get('etag'), 'W/"t"');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('content-type'), 'application/json');
  }
  // Declared for the console's server, which sends it as Content-Encoding (Next.js drops that header).
  assert.equal(br1.headers.get(STORED_ENCODING_HEADER), 'br');
  assert.equal(gz.headers.get(STORED_ENCODING_HEADER), 'gzip');
  assert.equal(plain.headers.get(STORED_ENCODING_HEADER), null);
  const [b1, b2, g, p] = await Promise.all([br1, br2, gz, plain].map(async (r) => Buffer.from(await r.arrayBuffer())));
  assert.deepEqual(b1, b2, 'the second client gets the same bytes');
  assert.equal(brotliDecompressSync(b1!).toString(), text);
  assert.equal(gunzipSync(g!).toString(), text);
  assert.equal(p!.toString(), text);
  assert.ok(b1!.length < text.length / 5 && g!.length < text.length / 5, 'compressed well below the text');
});

test('a client holding the ETag gets 304 and no body, whatever it accepts', async () => {
  const body = new EncodedBody(text);
  const r = storedBodyResponse(get({ 'if-none-match': 'W/"t"', 'accept-encoding': 'br' }), body, 'W/"t"', {});
  assert.equal(r.status, 304);
  assert.equal(r.headers.get('etag'), 'W/"t"');
  assert.equal(r.headers.get(STORED_ENCODING_HEADER), null);
  assert.equal((await r.arrayBuffer()).byteLength, 0);
  const other = storedBodyResponse(get({ 'if-none-match': 'W/"old"' }), body, 'W/"t"', {});
  assert.equal(other.status, 200);
});

test("the server turns a route's declared coding into Content-Encoding, and nothing else into anything", () => {
  const head = (declared?: unknown) => {
    const h = new Map<string, unknown>(
      declared === undefined ? [] : [[STORED_ENCODING_HEADER.toLowerCase(), declared]],
    );
    const res = {
      getHeader: (n: string) => h.get(n.toLowerCase()),
      setHeader: (n: string, v: string) => h.set(n.toLowerCase(), v),
      removeHeader: (n: string) => h.delete(n.toLowerCase()),
    };
    return { said: declaredEncoding(res), headers: Object.fromEntries(h) };
  };
  assert.deepEqual(head('br'), { said: 'br', headers: { 'content-encoding': 'br' } });
  assert.deepEqual(head(['gzip']), { said: 'gzip', headers: { 'content-encoding': 'gzip' } }, 'as Next.js appends it');
  assert.deepEqual(head('compress'), { said: undefined, headers: {} }, 'an unknown coding is dropped, not declared');
  assert.deepEqual(head(), { said: undefined, headers: {} });
});
