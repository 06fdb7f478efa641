import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Store } from './store';
import { StoreError, type KObject, type ResourceKey, type WatchEvent } from './types';

const cm: ResourceKey = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const sub: ResourceKey = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  resource: 'subscriptions',
  kind: 'Subscription',
  namespaced: true,
};
const obj = (name: string, ns = 'a', extra: Partial<KObject> = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns },
  ...extra,
});

describe('Store', () => {
  test('create assigns uid, resourceVersion, creationTimestamp, generation; a taken name is 409', async () => {
    const s = await Store.open();
    const c = s.create(cm, obj('x', 'a', { data: { k: 'v' } }));
    assert.match(c.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(c.metadata.generation, 1);
    assert.match(c.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.throws(
      () => s.create(cm, obj('x')),
      (e: unknown) => e instanceof StoreError && e.code === 409 && e.message === 'configmaps "x" already exists',
    );
    assert.throws(
      () => s.create(sub, obj('y')) && s.create(sub, obj('y')),
      /subscriptions\.operators\.coreos\.com "y" already exists/,
    );
  });

  test('a stale resourceVersion is 409 Conflict; spec changes bump generation, status does not', async () => {
    const s = await Store.open();
    const c = s.create(sub, obj('etcd', 'a', { spec: { channel: 'alpha' } }));
    const u = s.update(sub, { ...c, spec: { channel: 'beta' } });
    assert.equal(u.metadata.generation, 2);
    assert.throws(
      () => s.update(sub, { ...c, spec: { channel: 'gamma' } }),
      (e: unknown) => e instanceof StoreError && e.code === 409 && /the object has been modified/.test(e.message),
    );
    const st = s.update(sub, { ...u, status: { state: 'AtLatestKnown' } }, { subresource: 'status' });
    assert.equal(st.metadata.generation, 2);
    assert.deepEqual(st.status, { state: 'AtLatestKnown' });
    const spec = s.update(sub, {
      ...st,
      status: { state: 'ignored' },
      metadata: { ...st.metadata, resourceVersion: undefined },
    });
    assert.deepEqual(spec.status, { state: 'AtLatestKnown' }, 'a main-resource update keeps the status');
  });

  test('finalizers hold a deletion until they are removed', async () => {
    const s = await Store.open();
    s.create(cm, obj('f', 'a', { metadata: { name: 'f', namespace: 'a', finalizers: ['x/y'] } }));
    const first = s.delete(cm, 'a', 'f');
    assert.equal(first.deleted, false);
    assert.ok(first.object.metadata.deletionTimestamp);
    const cur = s.get(cm, 'a', 'f')!;
    s.update(cm, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
    assert.equal(s.get(cm, 'a', 'f'), undefined);
  });

  test('lists are sorted and paged; the continue token resumes after the last item', async () => {
    const s = await Store.open();
    for (const n of ['c', 'a', 'e', 'b', 'd']) s.create(cm, obj(n));
    const p1 = s.list(cm, { limit: 2 });
    assert.deepEqual(
      p1.items.map((o) => o.metadata.name),
      ['a', 'b'],
    );
    assert.equal(p1.remainingItemCount, 3);
    const p2 = s.list(cm, { limit: 2, continueToken: p1.continueToken });
    const p3 = s.list(cm, { limit: 2, continueToken: p2.continueToken });
    assert.deepEqual(
      [...p2.items, ...p3.items].map((o) => o.metadata.name),
      ['c', 'd', 'e'],
    );
    assert.equal(p3.continueToken, undefined);
    assert.throws(
      () => s.list(cm, { continueToken: 'garbage!' }),
      (e: unknown) => e instanceof StoreError && e.code === 400,
    );
  });

  test('a watch resumes from a resourceVersion and is 410 Gone past the kept history', async () => {
    const s = await Store.open({ historyLimit: 3 });
    const a = s.create(cm, obj('a'));
    s.create(cm, obj('b'));
    const seen: WatchEvent[] = [];
    const stop = s.watch({ key: cm, send: (e) => seen.push(e) }, Number(a.metadata.resourceVersion));
    s.delete(cm, 'a', 'a');
    stop();
    assert.deepEqual(
      seen.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED b', 'DELETED a'],
    );
    for (const n of ['c', 'd', 'e', 'f']) s.create(cm, obj(n));
    assert.throws(
      () => s.watch({ key: cm, send: () => {} }, Number(a.metadata.resourceVersion)),
      (e: unknown) => e instanceof StoreError && e.code === 410,
    );
  });

  describe('with a data file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('reopening gives back every object, once, and resourceVersions keep growing', async () => {
      const file = join(dir, 'data.jsonl');
      const s1 = await Store.open({ dataFile: file });
      s1.create(cm, obj('keep'));
      const gone = s1.create(cm, obj('gone'));
      s1.delete(cm, 'a', 'gone');
      const last = s1.update(cm, { ...s1.get(cm, 'a', 'keep')!, data: { v: '2' } });
      s1.close();
      // A write torn by kill -9 leaves half a line at the end: it was never acknowledged.
      appendFileSync(file, '{"op":"put","k":"/configmaps","o":{"metadata":{"na');
      const s2 = await Store.open({ dataFile: file });
      assert.deepEqual(
        s2.list(cm).items.map((o) => [o.metadata.name, o.data]),
        [['keep', { v: '2' }]],
      );
      assert.ok(Number(s2.resourceVersion) >= Number(last.metadata.resourceVersion));
      assert.ok(Number(s2.create(cm, obj('new')).metadata.resourceVersion) > Number(gone.metadata.resourceVersion));
      s2.close();
      assert.equal(
        readFileSync(file, 'utf8').split('\n').filter(Boolean).length,
        2,
        'compacted on open: live objects only, plus the new write',
      );
    });
  });
});
