import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notRunnableReason } from './platforms';

test('a package runs when some node matches both its OS and architecture', () => {
  const nodes = [{ os: 'linux', arch: 'amd64' }];
  assert.equal(notRunnableReason({ os: [], arch: [] }, nodes), undefined, 'no labels: linux/amd64');
  assert.equal(notRunnableReason({ os: ['linux'], arch: ['amd64', 'arm64'] }, nodes), undefined);
  assert.equal(
    notRunnableReason({ os: ['linux'], arch: ['arm64'] }, nodes),
    "built for linux/arm64; this cluster's nodes are linux/amd64",
  );
  assert.equal(notRunnableReason({ os: [], arch: ['arm64'] }, [...nodes, { os: 'linux', arch: 'arm64' }]), undefined);
  assert.equal(notRunnableReason({ os: [], arch: ['arm64'] }, undefined), undefined, 'nodes unknown: nothing said');
});
