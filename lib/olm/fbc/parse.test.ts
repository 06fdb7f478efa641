import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFbcText, sortBlobs } from './parse';

describe('parseFbcText', () => {
  test('a YAML file with several documents gives one blob per document, with its index', () => {
    const text = '---\nschema: olm.package\nname: a\n---\nschema: olm.channel\nname: stable\npackage: a\nentries: []\n';
    const { blobs, problems } = parseFbcText('a/catalog.yaml', text);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      blobs.map((b) => [b.blob.schema, b.origin.index]),
      [
        ['olm.package', 1],
        ['olm.channel', 2],
      ],
    );
    assert.equal(blobs[0]?.origin.file, 'a/catalog.yaml');
  });

  test('a JSON file may hold several concatenated objects', () => {
    const text =
      '{"schema":"olm.package","name":"a"}\n{"schema":"olm.bundle","name":"a.v1","package":"a","note":"braces } in { strings"}';
    const { blobs } = parseFbcText('a.json', text);
    assert.deepEqual(
      blobs.map((b) => b.blob.name),
      ['a', 'a.v1'],
    );
  });

  test('documents without a schema are skipped, as opm skips them', () => {
    const { blobs, problems } = parseFbcText('x.yaml', 'name: nothing\n---\nschema: olm.package\nname: p\n');
    assert.equal(blobs.length, 1);
    assert.deepEqual(problems, []);
  });

  test('a file that does not parse is a problem naming the file, not an exception', () => {
    const { blobs, problems } = parseFbcText('broken.yaml', 'schema: olm.package\nname: [unclosed\n');
    assert.equal(blobs.length, 0);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /^cannot parse broken\.yaml: /);
    const json = parseFbcText('broken.json', '{"schema": "olm.package"');
    assert.match(json.problems[0]!.message, /cannot parse broken\.json/);
  });

  test('a document that is not an object is reported', () => {
    const { problems } = parseFbcText('list.yaml', '- a\n- b\n');
    assert.match(problems[0]!.message, /list\.yaml blob 1: expected an object, found a list/);
  });
});

describe('sortBlobs', () => {
  test('blobs go to their schema; unknown schemas are kept', () => {
    const { blobs } = parseFbcText(
      'c.yaml',
      [
        'schema: olm.package\nname: p',
        'schema: olm.channel\nname: c\npackage: p',
        'schema: olm.bundle\nname: b\npackage: p',
        'schema: olm.deprecations\npackage: p\nentries: []',
        'schema: vendor.example.com/thing\npackage: p\nname: t',
      ].join('\n---\n'),
    );
    const { config, origins } = sortBlobs(blobs);
    assert.equal(config.packages.length, 1);
    assert.equal(config.channels.length, 1);
    assert.equal(config.bundles.length, 1);
    assert.equal(config.deprecations.length, 1);
    assert.equal(config.others[0]?.schema, 'vendor.example.com/thing');
    assert.deepEqual(origins.get(config.bundles[0]!), { file: 'c.yaml', index: 3 });
  });
});
