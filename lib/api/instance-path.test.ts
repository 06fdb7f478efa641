import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLUSTER_SEGMENT, instanceSegment, namespaceOfSegment, placeOf } from './instance-path';

test('a namespaced instance keeps its namespace through the path; a cluster-scoped one goes as _cluster and back', () => {
  assert.equal(namespaceOfSegment(instanceSegment('pg')), 'pg');
  assert.equal(instanceSegment(undefined), CLUSTER_SEGMENT);
  assert.equal(instanceSegment(''), CLUSTER_SEGMENT);
  assert.equal(namespaceOfSegment(CLUSTER_SEGMENT), undefined);
});

test('where an instance is, in words', () => {
  assert.equal(placeOf('pg'), 'in pg');
  assert.equal(placeOf(undefined), 'cluster-scoped');
});
