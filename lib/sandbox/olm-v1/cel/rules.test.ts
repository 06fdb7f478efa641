// CEL rules as kube-apiserver checks them, on rules and values whose outcome the CEL language
// definition and Kubernetes' CRD validation docs fix: the strings extension's `find`, RE2 `matches`
// (unanchored), `has`, ternaries, transition rules only with an old value, the type as the value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Schema } from '../../apimachinery/structural';
import { celErrors } from './rules';

const field = (rules: { rule: string; message: string }[]): Schema => ({
  type: 'object',
  properties: { ref: { type: 'string', 'x-kubernetes-validations': rules } },
});

test('find returns the first match, "" when none; matches searches anywhere', () => {
  const s = field([
    { rule: 'self.find(\'(@.*:)\') != "" || self.find(\':.*$\') != ""', message: 'must end with a digest or a tag' },
    { rule: "self.matches('b+')", message: 'needs a b' },
  ]);
  assert.deepEqual(celErrors({ ref: 'quay.io/a/b:1' }, s), []);
  const errs = celErrors({ ref: 'quay.io/a/c' }, s);
  assert.deepEqual(
    errs.map((e) => [e.field, e.value, e.detail]),
    [
      ['ref', 'string', 'must end with a digest or a tag'],
      ['ref', 'string', 'needs a b'],
    ],
  );
});

test('substring and size count characters; ternaries pick a branch', () => {
  const s = field([
    { rule: "self.find(':.*$') != \"\" ? self.find(':.*$').substring(1).size() <= 3 : true", message: 'long' },
  ]);
  assert.deepEqual(celErrors({ ref: 'x:ééé' }, s), []);
  assert.equal(celErrors({ ref: 'x:éééé' }, s).length, 1);
  assert.deepEqual(celErrors({ ref: 'no-tag' }, s), []);
});

test('has() tests presence; a transition rule waits for an old value', () => {
  const s: Schema = {
    type: 'object',
    'x-kubernetes-validations': [
      { rule: "has(self.type) && self.type == 'Image' ? has(self.image) : !has(self.image)", message: 'image' },
    ],
    properties: {
      type: { type: 'string' },
      image: { type: 'object' },
      ns: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] },
    },
  };
  assert.deepEqual(celErrors({ type: 'Image', image: {}, ns: 'a' }, s), []);
  assert.equal(celErrors({ type: 'Image', ns: 'a' }, s)[0]?.value, 'object');
  assert.deepEqual(
    celErrors({ type: 'Image', image: {}, ns: 'b' }, s, { ns: 'a' }).map((e) => e.field),
    ['ns'],
  );
  assert.deepEqual(celErrors({ type: 'Image', image: {}, ns: 'b' }, s, { type: 'Image' }), []);
});

test('a rule outside the evaluated part of CEL is skipped, not guessed', () => {
  const s = field([{ rule: 'self.all(x, x > 1)', message: 'm' }]);
  assert.deepEqual(celErrors({ ref: 'a' }, s), []);
});
