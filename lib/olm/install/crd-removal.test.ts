// CRD removal against other operators' CSVs (OLM's customresourcedefinitions.owned / .required).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterServiceVersion } from '../resources/cluster-service-version';
import { crdsInUse, instanceConfirmation } from './crd-removal';

const csv = (
  namespace: string,
  name: string,
  owned: string[],
  required: string[] = [],
  copiedFrom?: string,
): ClusterServiceVersion =>
  ({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name, namespace, ...(copiedFrom ? { labels: { 'olm.copiedFrom': copiedFrom } } : {}) },
    spec: {
      customresourcedefinitions: {
        owned: owned.map((n) => ({ name: n, version: 'v1', kind: 'K' })),
        required: required.map((n) => ({ name: n, version: 'v1', kind: 'K' })),
      },
    },
  }) as ClusterServiceVersion;

test("another operator owning or requiring the CRD keeps it; the operator itself and OLM's copies do not", () => {
  const crds = ['certificates.certwarden.example.com'];
  const uses = crdsInUse(
    crds,
    [
      csv('operators', 'certwarden.v1.0.0', crds),
      csv('team1', 'certwarden.v1.0.0', crds, [], 'operators'),
      csv('vault', 'vaultkeeper.v1.0.0', ['vaults.vaultkeeper.example.com'], crds),
      csv('other', 'certwarden.v1.0.0', crds),
    ],
    { namespace: 'operators', name: 'certwarden.v1.0.0' },
  );
  assert.deepEqual(uses, [
    { crd: 'certificates.certwarden.example.com', csv: 'certwarden.v1.0.0', namespace: 'other', relation: 'owns' },
    { crd: 'certificates.certwarden.example.com', csv: 'vaultkeeper.v1.0.0', namespace: 'vault', relation: 'requires' },
  ]);
  assert.deepEqual(
    crdsInUse(crds, [csv('operators', 'certwarden.v1.0.0', crds)], {
      namespace: 'operators',
      name: 'certwarden.v1.0.0',
    }),
    [],
  );
});

test('the confirmation names the count', () => {
  assert.equal(instanceConfirmation(1), 'delete 1 instance');
  assert.equal(instanceConfirmation(3), 'delete 3 instances');
});
