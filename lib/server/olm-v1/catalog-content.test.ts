// catalogd's content is whatever the catalog image held, and its address an object's status: a
// line that is not a JSON object is refused by its number, an over-long line or address the
// console will not read is refused before anything is parsed, and broken packages are counted
// apart from the healthy ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContentError, contentUrl, JsonLinesReader, MAX_LINE_BYTES, summarize } from './catalog-content';

const read = (...chunks: string[]) => {
  const r = new JsonLinesReader();
  for (const c of chunks) r.push(Buffer.from(c));
  r.end();
  return r;
};

describe("reading catalogd's JSON lines", () => {
  test('documents split across chunks are read whole; documents without a schema are skipped', () => {
    const r = read('{"schema":"olm.package","name":"a"}\n{"schema":"olm.ch', 'annel"}\n{"no":"schema"}\n\n');
    assert.deepEqual(
      r.blobs.map((b) => [b.blob.schema, b.origin.index]),
      [
        ['olm.package', 1],
        ['olm.channel', 2],
      ],
    );
  });

  test('a line that is not a JSON object is refused with its number', () => {
    assert.throws(
      () => read('{"schema":"olm.package","name":"a"}\n{"schema":\n'),
      (e: Error) => {
        assert.ok(e instanceof ContentError);
        assert.match(e.message, /^line 2 is not JSON/);
        return true;
      },
    );
    assert.throws(() => read('[1,2]\n'), /line 1 is not a JSON object/);
  });

  test('a line longer than the limit is refused without waiting for its end', () => {
    const r = new JsonLinesReader();
    const big = Buffer.alloc(1024 * 1024, 0x20);
    assert.throws(() => {
      for (let i = 0; i <= MAX_LINE_BYTES / big.length; i++) r.push(big);
    }, /line 1 is longer than 16777216 bytes/);
  });

  test('healthy and broken packages are counted apart, with the problems named', () => {
    const r = read(
      '{"schema":"olm.package","name":"good","defaultChannel":"stable"}',
      '\n{"schema":"olm.channel","package":"good","name":"stable","entries":[{"name":"good.v1"}]}',
      '\n{"schema":"olm.bundle","package":"good","name":"good.v1","image":"x","properties":[{"type":"olm.package","value":{"packageName":"good","version":"1.0.0"}}]}',
      '\n{"schema":"olm.package","name":"broken","defaultChannel":"missing"}\n',
    );
    const { summary, bundles } = summarize(r.blobs);
    assert.equal(summary.read, true);
    if (!summary.read) return;
    assert.equal(summary.packages, 1);
    assert.equal(summary.brokenPackages, 1);
    assert.match(summary.problems.join('\n'), /package "broken"/);
    assert.deepEqual([...(bundles.get('good') ?? [])], ['good.v1']);
  });

  // operator-controller's catalog cache groups documents by declcfg.Meta's package: a package's
  // own name, everything else's `package` field; resolution then sees one package's documents.
  test("each package's documents are kept apart for resolution, broken packages too", () => {
    const r = read(
      '{"schema":"olm.package","name":"good","defaultChannel":"stable"}',
      '\n{"schema":"olm.channel","package":"good","name":"stable","entries":[{"name":"good.v1"}]}',
      '\n{"schema":"olm.bundle","package":"good","name":"good.v1","image":"x","properties":[{"type":"olm.package","value":{"packageName":"good","version":"1.0.0"}}]}',
      '\n{"schema":"olm.deprecations","package":"good","entries":[]}',
      '\n{"schema":"olm.package","name":"broken","defaultChannel":"missing"}',
      '\n{"schema":"olm.channel","package":"broken","name":"beta","entries":[]}\n',
    );
    const { configs, catalog } = summarize(r.blobs);
    assert.deepEqual(
      configs.get('good')?.bundles.map((b) => b.name),
      ['good.v1'],
    );
    assert.equal(configs.get('good')?.deprecations.length, 1);
    assert.deepEqual(
      configs.get('broken')?.channels.map((c) => c.name),
      ['beta'],
    );
    assert.deepEqual([...(catalog?.packages.keys() ?? [])], ['good']);
  });
});

describe('the address the console reads content from', () => {
  test('only HTTPS, without credentials in it', () => {
    assert.equal(
      contentUrl('https://catalogd.example:8443/catalogs/a/').href,
      'https://catalogd.example:8443/catalogs/a/api/v1/all',
    );
    assert.throws(() => contentUrl('http://catalogd.example/catalogs/a'), /HTTPS only/);
    assert.throws(() => contentUrl('https://u:p@catalogd.example/catalogs/a'), /credentials/);
    assert.throws(() => contentUrl('not a url'), /is not a URL/);
  });
});
