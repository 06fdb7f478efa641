import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogSource } from '../resources/catalog-source';
import { readRecords, recordOf } from './disabled-catalogs';

// A CatalogSource as the API server and OLM return it (OLM's upstream install's operatorhubio-catalog).
const live = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'CatalogSource',
  metadata: {
    name: 'operatorhubio-catalog',
    namespace: 'olm',
    uid: 'u-1',
    resourceVersion: '812',
    generation: 2,
    creationTimestamp: '2026-11-01T00:00:00Z',
    labels: { team: 'platform' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
    managedFields: [{}],
  },
  spec: {
    sourceType: 'grpc',
    image: 'quay.io/operatorhubio/catalog:latest',
    displayName: 'Community Operators',
    publisher: 'OperatorHub.io',
    updateStrategy: { registryPoll: { interval: '60m' } },
  },
  status: { connectionState: { lastObservedState: 'READY' } },
} as unknown as CatalogSource;

test('the record makes the catalog again as a person wrote it: no status, uid or versions', () => {
  const r = recordOf(live, '2026-11-25T08:00:00Z', 'admin');
  assert.equal(r.key, 'operatorhubio-catalog');
  const [back] = readRecords('olm', { [r.key]: r.value }).catalogs;
  assert.deepEqual(back?.catalogSource, {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name: 'operatorhubio-catalog', namespace: 'olm', labels: { team: 'platform' } },
    spec: live.spec,
  });
  assert.deepEqual([back?.disabledAt, back?.disabledBy], ['2026-11-25T08:00:00Z', 'admin']);
});

test('entries edited into something else are reported, not guessed at', () => {
  const good = recordOf(live, '2026-11-25T08:00:00Z');
  const { catalogs, problems } = readRecords('olm', {
    broken: '{',
    other: JSON.stringify({
      disabledAt: 'x',
      catalogSource: { ...JSON.parse(good.value).catalogSource, metadata: { name: 'elsewhere' } },
    }),
    [good.key]: good.value,
  });
  assert.deepEqual(
    catalogs.map((c) => c.name),
    ['operatorhubio-catalog'],
  );
  assert.deepEqual(problems, [
    'entry broken of ConfigMap olm/olm-console-disabled-catalogs is not JSON',
    'entry other of ConfigMap olm/olm-console-disabled-catalogs is not a disabled CatalogSource named other',
  ]);
});

test('a seal given to the record is stored with it and read back; the record it was given is the one read', () => {
  let given: unknown;
  const r = recordOf(live, '2026-11-25T08:00:00Z', 'admin', (c) => {
    given = c;
    return 'v1.seal';
  });
  const [back] = readRecords('olm', { [r.key]: r.value }).catalogs;
  assert.equal(back?.seal, 'v1.seal');
  assert.deepEqual({ ...back, seal: undefined }, { ...(given as object), seal: undefined });
});
