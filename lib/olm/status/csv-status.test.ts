import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterServiceVersion } from '../resources/cluster-service-version';
import { csvDisplayStatus } from './csv-status';

function csv(
  namespace: string,
  phase: string,
  reason: string,
  extra: Partial<ClusterServiceVersion['metadata']> = {},
  message?: string,
): ClusterServiceVersion {
  return {
    metadata: { name: 'x.v1', namespace, ...extra },
    spec: { displayName: 'X', install: { strategy: 'deployment' } },
    status: { phase, reason, message },
  };
}

describe('csvDisplayStatus', () => {
  test('Succeeded is ok', () => {
    const s = csvDisplayStatus(csv('operators', 'Succeeded', 'InstallSucceeded'));
    assert.equal(s.severity, 'ok');
    assert.equal(s.label, 'Succeeded');
    assert.match(s.detail, /installed and running/);
  });

  test('a copy says where it comes from', () => {
    const s = csvDisplayStatus(
      csv(
        'team1',
        'Succeeded',
        'Copied',
        { labels: { 'olm.copiedFrom': 'operators' } },
        'The operator is running in operators but is managing this namespace',
      ),
    );
    assert.equal(s.label, 'Copied');
    assert.equal(s.copiedFrom, 'operators');
    assert.match(s.detail, /^Copied from operators/);
  });

  test('an OperatorGroup failure is an error with an explanation and OLM message kept', () => {
    const s = csvDisplayStatus(
      csv(
        'n',
        'Failed',
        'UnsupportedOperatorGroup',
        {},
        'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces',
      ),
    );
    assert.equal(s.severity, 'error');
    assert.match(s.detail, /install modes do not support/);
    assert.equal(s.message, 'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces');
  });

  test('Pending on unmet requirements is a warning; Installing is progress', () => {
    assert.equal(csvDisplayStatus(csv('n', 'Pending', 'RequirementsNotMet')).severity, 'warning');
    assert.equal(csvDisplayStatus(csv('n', 'Installing', 'InstallWaiting')).severity, 'progressing');
  });

  test('an unknown reason is shown as is', () => {
    assert.equal(csvDisplayStatus(csv('n', 'Failed', 'SomethingNew')).detail, 'Failed (SomethingNew)');
  });
});
