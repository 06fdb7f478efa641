import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFieldSelector, parseLabelSelector, SelectorError } from './selectors';

describe('parseLabelSelector', () => {
  const labels = { app: 'etcd', tier: 'db', 'olm.managed': 'true' };
  test('=, ==, !=, in, notin, exists, !exists; comma is AND', () => {
    assert.equal(parseLabelSelector('app=etcd')(labels), true);
    assert.equal(parseLabelSelector('app==etcd,tier=db')(labels), true);
    assert.equal(parseLabelSelector('app!=etcd')(labels), false);
    assert.equal(parseLabelSelector('missing!=x')(labels), true, '!= matches objects without the label');
    assert.equal(parseLabelSelector('tier in (db, cache)')(labels), true);
    assert.equal(parseLabelSelector('tier notin (db)')(labels), false);
    assert.equal(parseLabelSelector('olm.managed')(labels), true);
    assert.equal(parseLabelSelector('!olm.managed')(labels), false);
    assert.equal(parseLabelSelector('app=etcd,tier in (web)')(labels), false);
    assert.equal(parseLabelSelector('')(undefined), true);
  });
  test('invalid selectors are errors in the API server words', () => {
    assert.throws(() => parseLabelSelector('app=Bad Value'), SelectorError);
    assert.throws(() => parseLabelSelector('app=,'), /unable to parse requirement/);
  });
});

describe('parseFieldSelector', () => {
  const obj = { metadata: { name: 'a', namespace: 'team1' }, involvedObject: { name: 'etcd' } };
  test('supported fields, = and !=', () => {
    assert.equal(parseFieldSelector('metadata.name=a', ['metadata.name'])(obj), true);
    assert.equal(parseFieldSelector('metadata.namespace!=team1', ['metadata.namespace'])(obj), false);
    assert.equal(
      parseFieldSelector('involvedObject.name=etcd,metadata.name=a', ['metadata.name', 'involvedObject.name'])(obj),
      true,
    );
  });
  test('an unsupported field is refused as Kubernetes words it', () => {
    assert.throws(
      () => parseFieldSelector('spec.foo=x', ['metadata.name']),
      /^Error: "spec\.foo" is not a known field selector: only "metadata\.name"$/,
    );
  });
});
