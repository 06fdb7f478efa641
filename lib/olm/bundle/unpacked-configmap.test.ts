// A bundle read back from OLM's unpack ConfigMap as the catalog operator reads it (operator-registry
// v1.61.0 configmap.go loadBundle; OLM v0.38.0 resolver steps.go NewStepResourceFromBundle): keys in
// name order, the first document of each value, values that are not objects skipped, the last CSV.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readUnpackedFiles } from './unpacked-configmap';

const csv = (name: string) =>
  `apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: ${name}\n`;
const crd = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gateways.net.example.com' },
});

test('the CSV and the other objects, in key order', () => {
  const r = readUnpackedFiles(
    new Map([
      ['z-service.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: metrics\n'],
      ['gatewise.clusterserviceversion.yaml', csv('gatewise.v1.1.0')],
      ['gateways.crd.json', crd],
    ]),
  );
  assert.ok(!('error' in r));
  assert.equal(r.csv.metadata.name, 'gatewise.v1.1.0');
  assert.deepEqual(
    r.others.map((o) => o.kind),
    ['CustomResourceDefinition', 'Service'],
  );
});

test('only the first document of a value counts, and a value that is not an object is skipped', () => {
  const r = readUnpackedFiles(
    new Map([
      ['a.yaml', `${csv('gatewise.v1.1.0')}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: hidden\n`],
      ['b.txt', 'just some words'],
      ['c.yaml', 'metadata:\n  name: no-kind\n'],
    ]),
  );
  assert.ok(!('error' in r));
  assert.deepEqual(r.others, []);
});

test('of two CSVs the last in key order is the one OLM keeps; none at all is refused', () => {
  const r = readUnpackedFiles(
    new Map([
      ['b.yaml', csv('second')],
      ['a.yaml', csv('first')],
    ]),
  );
  assert.ok(!('error' in r) && r.csv.metadata.name === 'second');
  assert.ok('error' in readUnpackedFiles(new Map([['crd.json', crd]])));
});
