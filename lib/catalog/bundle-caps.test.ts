import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BundleMessage } from '../olm/registry-api';
import { capCsv, capText, DESCRIPTION_CAP_CHARS, parseCsvCapped, slimListedBundle } from './bundle-caps';

describe('bundle caps', () => {
  test('a description over the cap is cut with a marker saying how much there was', () => {
    assert.equal(capText('short'), 'short');
    const long = 'ab'.repeat(DESCRIPTION_CAP_CHARS);
    const cut = capText(long);
    assert.ok(cut.startsWith(long.slice(0, DESCRIPTION_CAP_CHARS)));
    assert.match(cut, /\n\n… \(truncated by the console: 128 KB of description, the first 64 KB shown\)$/);
    // Never half a surrogate pair.
    const emoji = `${'a'.repeat(DESCRIPTION_CAP_CHARS - 1)}😀${'b'.repeat(10)}`;
    assert.ok(!capText(emoji).includes('\ufffd'));
  });

  test('CSVs and csv metadata: spec.description, top-level description, description annotations', () => {
    const big = 'x'.repeat(DESCRIPTION_CAP_CHARS + 10);
    const csv = { metadata: { annotations: { description: big } }, spec: { description: big, displayName: 'X' } };
    assert.equal(capCsv(csv).capped, 2);
    assert.ok(csv.spec.description.length < DESCRIPTION_CAP_CHARS + 200);
    assert.ok(csv.metadata.annotations.description.length < DESCRIPTION_CAP_CHARS + 200);
    const meta = { description: big, annotations: { description: 'fine' } };
    capCsv(meta);
    assert.match(meta.description, /truncated/);
    assert.equal(parseCsvCapped('not json'), undefined);
    const parsed = parseCsvCapped(JSON.stringify({ spec: { description: big } }))!;
    assert.ok(parsed.chars < DESCRIPTION_CAP_CHARS + 300);
  });

  test('a ListBundles message is kept without its manifests, its properties capped', () => {
    const big = 'y'.repeat(DESCRIPTION_CAP_CHARS * 2);
    const csv = { kind: 'ClusterServiceVersion', spec: { description: big } };
    const msg = {
      csvName: 'a.v1',
      packageName: 'a',
      channelName: 'stable',
      csvJson: JSON.stringify(csv),
      object: [JSON.stringify(csv)],
      bundlePath: '',
      providedApis: [],
      requiredApis: [],
      version: '1',
      skipRange: '',
      dependencies: [],
      replaces: 'a.v0',
      skips: ['a.v00'],
      properties: [
        { type: 'olm.package', value: '{"packageName":"a","version":"1"}' },
        { type: 'olm.csv.metadata', value: JSON.stringify({ description: big }) },
        {
          type: 'olm.bundle.object',
          value: JSON.stringify({ data: Buffer.from(JSON.stringify(csv)).toString('base64') }),
        },
      ],
    } satisfies BundleMessage;
    const slim = slimListedBundle(msg);
    assert.deepEqual([slim.csvJson, slim.object, slim.replaces, slim.skips], ['', [], 'a.v0', ['a.v00']]);
    assert.equal(slim.properties[0], msg.properties[0]);
    for (const p of slim.properties)
      assert.ok(p.value.length < DESCRIPTION_CAP_CHARS * 1.4 + 500, `${p.type}: ${p.value.length}`);
    const obj = JSON.parse(
      Buffer.from((JSON.parse(slim.properties[2]!.value) as { data: string }).data, 'base64').toString(),
    ) as typeof csv;
    assert.match(obj.spec.description, /truncated by the console/);
  });
});
