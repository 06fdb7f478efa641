// The mirror rule against what containers-registries.conf(5) (containers/image) and OpenShift's
// ImageDigestMirrorSet / ImageTagMirrorSet documentation say a node does: the longest matching
// prefix chooses one table; digest mirrors only for digest references ("mirrors will only be used
// for digest pulls"), tag mirrors only for tag references; mirrors in the listed order, then the
// source; `NeverContactSource` keeps the node from the source; a `*.example.com` prefix matches
// any subdomain; "example.com/foo" is not a prefix of "example.com/foobar".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseImageReference, referenceText, type ImageReference } from './image-reference';
import { pullSources, type MirrorRule } from './mirror-rules';

const D = `sha256:${'a'.repeat(64)}`;

const ref = (text: string): ImageReference => {
  const r = parseImageReference(text);
  if ('error' in r) throw new Error(r.error);
  return r;
};

const rule = (source: string, mirrors: string[], over: Partial<MirrorRule> = {}): MirrorRule => ({
  source,
  mirrors,
  by: 'digest',
  neverContactSource: false,
  ...over,
});

const tried = (image: string, rules: MirrorRule[]) => pullSources(ref(image), rules).map((s) => referenceText(s.ref));

describe('mirrors as registries.conf applies them', () => {
  test('no rule: the image itself', () => {
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, []), [`quay.io/org/bundle@${D}`]);
  });

  test('a digest mirror set: its mirrors in order, the rest of the name kept, then the source', () => {
    const rules = [rule('quay.io/org', ['mirror.example.com/a', 'mirror2.example.com/b/c'])];
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, rules), [
      `mirror.example.com/a/bundle@${D}`,
      `mirror2.example.com/b/c/bundle@${D}`,
      `quay.io/org/bundle@${D}`,
    ]);
  });

  test('digest mirrors are not used for a tag, tag mirrors not for a digest', () => {
    const rules = [
      rule('quay.io/org', ['digests.example.com/org']),
      rule('quay.io/org', ['tags.example.com/org'], { by: 'tag' }),
    ];
    assert.deepEqual(tried('quay.io/org/bundle:v1', rules), [
      'tags.example.com/org/bundle:v1',
      'quay.io/org/bundle:v1',
    ]);
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, rules), [
      `digests.example.com/org/bundle@${D}`,
      `quay.io/org/bundle@${D}`,
    ]);
  });

  test('the longest matching source alone applies, even when its mirrors are of the other kind', () => {
    const rules = [
      rule('quay.io', ['wide.example.com']),
      rule('quay.io/org/bundle', ['narrow.example.com/b'], { by: 'tag' }),
    ];
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, rules), [`quay.io/org/bundle@${D}`]);
    assert.deepEqual(tried(`quay.io/other/x@${D}`, rules), [`wide.example.com/other/x@${D}`, `quay.io/other/x@${D}`]);
  });

  test('a source matches only up to a path, tag or digest separator', () => {
    const rules = [rule('quay.io/org', ['mirror.example.com/org'])];
    assert.deepEqual(tried(`quay.io/organisation/x@${D}`, rules), [`quay.io/organisation/x@${D}`]);
  });

  test('NeverContactSource: the mirrors only, and a tag under that source is not pulled at all', () => {
    const rules = [rule('quay.io/org', ['mirror.example.com/org'], { neverContactSource: true })];
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, rules), [`mirror.example.com/org/bundle@${D}`]);
    assert.deepEqual(tried('quay.io/org/bundle:v1', rules), []);
  });

  test('rules for one source merge: mirrors in listed order, each once; blocked if any blocks', () => {
    const rules = [
      rule('quay.io/org', ['m1.example.com/org', 'm2.example.com/org']),
      rule('quay.io/org', ['m2.example.com/org', 'm3.example.com/org'], { neverContactSource: true }),
    ];
    assert.deepEqual(tried(`quay.io/org/bundle@${D}`, rules), [
      `m1.example.com/org/bundle@${D}`,
      `m2.example.com/org/bundle@${D}`,
      `m3.example.com/org/bundle@${D}`,
    ]);
  });

  test('a *.example.com source matches any subdomain, the mirror taking the host', () => {
    const rules = [rule('*.example.com', ['mirror.internal/ex'])];
    assert.deepEqual(tried(`a.b.example.com/org/x@${D}`, rules), [
      `mirror.internal/ex/org/x@${D}`,
      `a.b.example.com/org/x@${D}`,
    ]);
    assert.deepEqual(tried(`example.org/x@${D}`, rules), [`example.org/x@${D}`]);
  });
});
