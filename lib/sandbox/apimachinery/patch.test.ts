import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patch';

describe('JSON patch (RFC 6902)', () => {
  const doc = { metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2] }, 'a/b': { '~c': 1 } };
  test('add, remove, replace, move, copy, test, "-" and escaping', () => {
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/spec/list/-', value: 3 },
      { op: 'remove', path: '/metadata/labels/x' },
      { op: 'replace', path: '/metadata/name', value: 'b' },
      { op: 'copy', from: '/metadata/name', path: '/spec/copied' },
      { op: 'move', from: '/spec/copied', path: '/spec/moved' },
      { op: 'test', path: '/a~1b/~0c', value: 1 },
    ]);
    assert.deepEqual(out, {
      metadata: { name: 'b', labels: {} },
      spec: { list: [1, 2, 3], moved: 'b' },
      'a/b': { '~c': 1 },
    });
    assert.deepEqual(doc.spec.list, [1, 2], 'the input is not changed');
  });
  test("a failing test is kube-apiserver's generic 422; a missing path an error a person can read", () => {
    assert.throws(
      () => applyJsonPatch(doc, [{ op: 'test', path: '/metadata/name', value: 'z' }]),
      (e: unknown) =>
        e instanceof PatchError &&
        e.code === 422 &&
        e.message === 'the server rejected our request due to an error in our request',
    );
    assert.throws(() => applyJsonPatch(doc, [{ op: 'remove', path: '/nope' }]), /does not exist/);
    assert.throws(
      () => applyJsonPatch(doc, { op: 'add' }),
      (e: unknown) => e instanceof PatchError && e.code === 400,
    );
  });
});

describe('merge patch (RFC 7386)', () => {
  test('objects merge, null deletes, lists replace', () => {
    assert.deepEqual(applyMergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1, 2] }, { a: null, b: { c: 9 }, l: [3] }), {
      b: { c: 9, d: 3 },
      l: [3],
    });
  });
});

describe('strategic merge patch', () => {
  const dep = {
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'op', image: 'a:1', env: [{ name: 'X', value: '1' }] },
            { name: 'side', image: 's:1' },
          ],
        },
      },
    },
    metadata: { finalizers: ['a'] },
  };
  test('containers merge by name, env by name; finalizers merge as a set', () => {
    const out = applyStrategicMergePatch(dep, {
      spec: { template: { spec: { containers: [{ name: 'op', image: 'a:2', env: [{ name: 'Y', value: '2' }] }] } } },
      metadata: { finalizers: ['b'] },
    }) as typeof dep;
    assert.deepEqual(
      out.spec.template.spec.containers.map((c) => c.image),
      ['a:2', 's:1'],
    );
    assert.deepEqual(
      out.spec.template.spec.containers[0]!.env?.map((e) => e.name),
      ['X', 'Y'],
    );
    assert.deepEqual(out.metadata.finalizers, ['a', 'b']);
  });
  test('$patch: delete removes a keyed item; $deleteFromPrimitiveList removes values', () => {
    const out = applyStrategicMergePatch(dep, {
      spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } },
      metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
    }) as typeof dep;
    assert.deepEqual(
      out.spec.template.spec.containers.map((c) => c.name),
      ['op'],
    );
    assert.deepEqual(out.metadata.finalizers, []);
  });
});
