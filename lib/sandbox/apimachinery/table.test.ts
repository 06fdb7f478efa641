import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evalJsonPath, humanAge, toTable } from './table';

describe('Table rendering', () => {
  test('printer column paths, including list indexes', () => {
    const ip = { spec: { clusterServiceVersionNames: ['etcd.v0.9.4', 'x'], approved: false } };
    assert.equal(evalJsonPath(ip, '.spec.clusterServiceVersionNames[0]'), 'etcd.v0.9.4');
    assert.equal(evalJsonPath(ip, '.spec.approved'), false);
    assert.equal(evalJsonPath(ip, '.status.phase'), undefined);
  });

  test('ages as kubectl prints them', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    assert.equal(humanAge('2026-01-01T11:59:30Z', now), '30s');
    assert.equal(humanAge('2026-01-01T11:55:00Z', now), '5m');
    assert.equal(humanAge('2026-01-01T09:30:00Z', now), '150m', 'minutes up to three hours, as Kubernetes prints them');
    assert.equal(humanAge('2026-01-01T06:30:00Z', now), '5h30m');
    assert.equal(humanAge('2025-12-29T12:00:00Z', now), '3d');
  });

  test('a row per object: Name, then the declared columns; missing values are empty', () => {
    const t = toTable(
      [
        {
          apiVersion: 'v1',
          kind: 'X',
          metadata: { name: 'etcd.v0.9.4', namespace: 'ns' },
          spec: { displayName: 'etcd', version: '0.9.4' },
        },
      ],
      [
        { name: 'Display', type: 'string', jsonPath: '.spec.displayName' },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      ],
      { resourceVersion: '7' },
    );
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Display', 'Phase'],
    );
    assert.deepEqual(t.rows[0]!.cells, ['etcd.v0.9.4', 'etcd', '']);
    assert.equal((t.rows[0]!.object as { metadata: { namespace: string } }).metadata.namespace, 'ns');
  });
});
