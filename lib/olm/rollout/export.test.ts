import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { rolloutFiles } from './export';

test('every hub object gets a file by kind and namespace, listed in the kustomization, without status', () => {
  const files = rolloutFiles([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rollouts' } },
    {
      apiVersion: 'cluster.open-cluster-management.io/v1beta1',
      kind: 'Placement',
      metadata: { name: 'gk', namespace: 'rollouts' },
      spec: {},
      status: { numberOfSelectedClusters: 2 },
    },
  ]);
  assert.deepEqual(
    files.map((f) => f.path),
    ['kustomization.yaml', 'namespaces/rollouts.yaml', 'placements/rollouts/gk.yaml'],
  );
  assert.deepEqual((load(files[0]!.content) as { resources: string[] }).resources, [
    'namespaces/rollouts.yaml',
    'placements/rollouts/gk.yaml',
  ]);
  assert.deepEqual(load(files[2]!.content), {
    apiVersion: 'cluster.open-cluster-management.io/v1beta1',
    kind: 'Placement',
    metadata: { name: 'gk', namespace: 'rollouts' },
    spec: {},
  });
});
