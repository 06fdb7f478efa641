// The seal on a disabled-catalog record: what Disable wrote passes on every replica sharing the
// session key, however the ConfigMap's JSON is spelt; a record written by hand, or any field of a
// recorded one changed (the CatalogSource, who disabled it, where it is), does not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readRecords, recordOf, type RecordedCatalog } from '../olm/catalog/disabled-catalogs';
import type { CatalogSource } from '../olm/resources/catalog-source';
import { DisabledCatalogSeal } from './disabled-catalog-seal';
import { SessionKey } from './session';

const live = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'CatalogSource',
  metadata: { name: 'operatorhubio-catalog', namespace: 'olm', uid: 'u-1', labels: { team: 'platform' } },
  spec: { sourceType: 'grpc', image: 'quay.io/operatorhubio/catalog:latest', displayName: 'Community Operators' },
} as unknown as CatalogSource;

const key = SessionKey.random();
const seal = DisabledCatalogSeal.fromSessionKey(key);

/** The record Disable writes, read back from the ConfigMap's data as Enable reads it. */
function recorded(edit: (value: Record<string, unknown>) => void = () => {}, namespace = 'olm'): RecordedCatalog {
  const { key: name, value } = recordOf(live, '2026-11-28T08:00:00Z', 'admin', (c) => seal.sign(c));
  const parsed = JSON.parse(value) as Record<string, unknown>;
  edit(parsed);
  const { catalogs, problems } = readRecords(namespace, { [name]: JSON.stringify(parsed) });
  assert.deepEqual(problems, []);
  return catalogs[0]!;
}

describe('the seal on a disabled-catalog record', () => {
  test('what Disable recorded passes, on another replica with the same session key too', () => {
    const r = recorded();
    assert.deepEqual(seal.check(r, r.seal), { ok: true });
    assert.deepEqual(DisabledCatalogSeal.fromSessionKey(key).check(r, r.seal), { ok: true });
  });

  test('the same record spelt with its keys in another order still passes', () => {
    const r = recorded((v) => {
      const cs = v.catalogSource as { spec: Record<string, unknown> };
      cs.spec = Object.fromEntries(Object.entries(cs.spec).reverse());
    });
    assert.deepEqual(seal.check(r, r.seal), { ok: true });
  });

  test('a record without a seal is refused as not written by Disable', () => {
    const r = recorded((v) => delete v.seal);
    const verdict = seal.check(r, r.seal);
    assert.equal(verdict.ok, false);
    assert.match(!verdict.ok ? verdict.reason : '', /carries no seal of this console/);
  });

  test('another image, another person, another namespace or another key: the seal does not match', () => {
    const changed: RecordedCatalog[] = [
      recorded((v) => ((v.catalogSource as { spec: { image: string } }).spec.image = 'evil.example/catalog:latest')),
      recorded((v) => (v.disabledBy = 'bob')),
      recorded((v) => (v.disabledAt = '2026-11-28T09:00:00Z')),
      recorded(undefined, 'openshift-marketplace'),
    ];
    for (const r of changed) {
      const verdict = seal.check(r, r.seal);
      assert.equal(verdict.ok, false);
      assert.match(!verdict.ok ? verdict.reason : '', /has a seal that does not match it/);
    }
    const r = recorded();
    assert.equal(DisabledCatalogSeal.fromSessionKey(SessionKey.random()).check(r, r.seal).ok, false);
    // The same MAC in another base64 spelling is not the seal.
    assert.equal(seal.check(r, `${r.seal}=`).ok, false);
  });
});
