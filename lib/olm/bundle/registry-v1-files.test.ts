// A bundle's files read as operator-controller v1.2.0 reads an unpacked registry+v1 bundle
// (render/registryv1 source FromFS): the package from metadata/annotations.yaml, every manifests/
// file in name order with all its YAML or JSON documents, no folders inside manifests/, a CSV
// required and the last of several kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRegistryV1Files } from './registry-v1-files';

const ANNOTATIONS = [
  'annotations:',
  '  operators.operatorframework.io.bundle.mediatype.v1: registry+v1',
  '  operators.operatorframework.io.bundle.manifests.v1: manifests/',
  '  operators.operatorframework.io.bundle.package.v1: kube-green',
  '',
].join('\n');
const CSV =
  'apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: kube-green.v0.7.1\n';
const CRD = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'sleepinfos.kube-green.com' },
});

function files(over: Record<string, string | undefined> = {}): Map<string, string> {
  const all: Record<string, string | undefined> = {
    'metadata/annotations.yaml': ANNOTATIONS,
    'manifests/kube-green.clusterserviceversion.yaml': CSV,
    'manifests/kube-green.com_sleepinfos.json': CRD,
    ...over,
  };
  return new Map(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

test('the package, the CSV and the other objects of a bundle folder', () => {
  const read = readRegistryV1Files(files());
  assert.ok(!('error' in read), JSON.stringify(read));
  assert.equal(read.packageName, 'kube-green');
  assert.equal(read.csv.metadata.name, 'kube-green.v0.7.1');
  assert.deepEqual(
    read.others.map((o) => `${o.kind}/${String(o.metadata.name)}`),
    ['CustomResourceDefinition/sleepinfos.kube-green.com'],
  );
});

test('a file of several documents gives each, and a List gives its items, in file-name order', () => {
  const read = readRegistryV1Files(
    files({
      'manifests/a-services.yaml': [
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: metrics\n',
        '---\n',
        'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings\n',
        '---\n',
      ].join(''),
    }),
  );
  assert.ok(!('error' in read));
  assert.deepEqual(
    read.others.map((o) => o.kind),
    ['Service', 'ConfigMap', 'CustomResourceDefinition'],
  );
});

test('a folder inside manifests/ is refused, as operator-controller refuses it', () => {
  const read = readRegistryV1Files(files({ 'manifests/extra/role.yaml': 'apiVersion: v1\nkind: ConfigMap\n' }));
  assert.deepEqual(read, { error: 'a folder inside manifests/ is not allowed in a bundle: found manifests/extra' });
});

test('a bundle without annotations or without a CSV is not a bundle', () => {
  assert.deepEqual(readRegistryV1Files(files({ 'metadata/annotations.yaml': undefined })), {
    error: 'the bundle has no metadata/annotations.yaml',
  });
  assert.deepEqual(readRegistryV1Files(files({ 'manifests/kube-green.clusterserviceversion.yaml': undefined })), {
    error: 'the bundle has no ClusterServiceVersion in manifests/',
  });
});

test('of two CSVs the last read is kept, and neither is among the other objects', () => {
  const read = readRegistryV1Files(files({ 'manifests/z-second.yaml': CSV.replace('v0.7.1', 'v0.7.2') }));
  assert.ok(!('error' in read));
  assert.equal(read.csv.metadata.name, 'kube-green.v0.7.2');
  assert.deepEqual(
    read.others.map((o) => o.kind),
    ['CustomResourceDefinition'],
  );
});

test('a manifest that is not YAML, or not an object with a kind, is named in the reason', () => {
  const notYaml = readRegistryV1Files(files({ 'manifests/broken.yaml': 'kind: [unclosed\n' }));
  assert.match('error' in notYaml ? notYaml.error : '', /^manifests\/broken\.yaml is neither YAML nor JSON: /);
  assert.deepEqual(readRegistryV1Files(files({ 'manifests/list.yaml': '- 1\n- 2\n' })), {
    error: 'manifests/list.yaml holds a document that is not an object',
  });
  assert.deepEqual(readRegistryV1Files(files({ 'manifests/nokind.yaml': 'metadata: {}\n' })), {
    error: 'manifests/nokind.yaml holds an object without apiVersion and kind',
  });
});
