import assert from 'node:assert/strict';
import { test } from 'node:test';
import { iconVerdict, SVG_CSP } from './icon';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

test('raster images are served as declared, never sniffed, with a stable ETag', () => {
  const v = iconVerdict(png, 'image/PNG; charset=binary');
  assert.ok(v.ok);
  assert.equal(v.headers['Content-Type'], 'image/png');
  assert.equal(v.headers['X-Content-Type-Options'], 'nosniff');
  assert.equal(v.headers['Content-Security-Policy'], undefined);
  const again = iconVerdict(png, 'image/png');
  assert.ok(again.ok);
  assert.equal(again.etag, v.etag);
  const other = iconVerdict(Buffer.concat([png, Buffer.from([0])]), 'image/png');
  assert.ok(other.ok);
  assert.notEqual(other.etag, v.etag);
});

test('SVG gets a policy that forbids script and network', () => {
  const v = iconVerdict(
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    'image/svg+xml',
  );
  assert.ok(v.ok);
  assert.equal(v.headers['Content-Security-Policy'], SVG_CSP);
  assert.match(SVG_CSP, /default-src 'none'/);
  assert.match(SVG_CSP, /sandbox/);
});

test('anything that is not an image, or empty, is refused with the reason', () => {
  for (const t of ['text/html', 'application/javascript', 'image/svg', '', 'svg+xml']) {
    const v = iconVerdict(png, t);
    assert.ok(!v.ok, t);
    assert.match(v.message, /not an image type/);
  }
  const empty = iconVerdict(Buffer.alloc(0), 'image/png');
  assert.ok(!empty.ok);
  assert.match(empty.message, /empty/);
});
