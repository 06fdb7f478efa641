import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isCopiedCsv,
  isReplacementOf,
  operatorNamespaceOf,
  targetNamespacesOf,
  watchesAllNamespaces,
  type ClusterServiceVersion,
} from './cluster-service-version';

function csv(
  namespace: string,
  labels: Record<string, string> = {},
  annotations: Record<string, string> = {},
  reason?: string,
): ClusterServiceVersion {
  return {
    metadata: { name: 'etcd.v0.9.2', namespace, labels, annotations },
    spec: { displayName: 'etcd', install: { strategy: 'deployment' } },
    status: reason ? { phase: 'Succeeded', reason } : undefined,
  };
}

describe('isCopiedCsv (docs/olm/copied-csvs.md#recognising-a-copy: any of three signs)', () => {
  test('the olm.copiedFrom label', () =>
    assert.equal(isCopiedCsv(csv('team1', { 'olm.copiedFrom': 'operators' })), true));
  test('olm.operatorNamespace naming another namespace', () =>
    assert.equal(isCopiedCsv(csv('team1', {}, { 'olm.operatorNamespace': 'operators' })), true));
  test('reason Copied', () => assert.equal(isCopiedCsv(csv('team1', {}, {}, 'Copied')), true));
  test('the operator in its own namespace is not a copy', () => {
    assert.equal(
      isCopiedCsv(
        csv('operators', {}, { 'olm.operatorNamespace': 'operators', 'olm.targetNamespaces': '' }, 'InstallSucceeded'),
      ),
      false,
    );
  });
});

describe('namespaces of a CSV', () => {
  test('a copy points at its source namespace', () => {
    assert.equal(
      operatorNamespaceOf(csv('team1', { 'olm.copiedFrom': 'operators' }, { 'olm.operatorNamespace': 'operators' })),
      'operators',
    );
    assert.equal(operatorNamespaceOf(csv('team1')), 'team1');
  });

  test('olm.targetNamespaces: "" is all namespaces, a list is split, absent is unknown', () => {
    assert.deepEqual(targetNamespacesOf(csv('o', {}, { 'olm.targetNamespaces': '' })), ['']);
    assert.equal(watchesAllNamespaces(csv('o', {}, { 'olm.targetNamespaces': '' })), true);
    assert.deepEqual(targetNamespacesOf(csv('o', {}, { 'olm.targetNamespaces': 'a,b' })), ['a', 'b']);
    assert.equal(targetNamespacesOf(csv('o')), undefined);
  });
});

test('a CSV is the replacement of the one its spec.replaces names, and of no other', () => {
  const next = {
    spec: { displayName: 'x', install: { strategy: 'deployment' }, replaces: 'pgpilot.v1.4.0' },
  } as unknown as Parameters<typeof isReplacementOf>[0];
  assert.equal(isReplacementOf(next, 'pgpilot.v1.4.0'), true);
  assert.equal(isReplacementOf(next, 'pgpilot.v1.3.0'), false);
  assert.equal(
    isReplacementOf({ spec: {} } as unknown as Parameters<typeof isReplacementOf>[0], ''),
    false,
    "a CSV that replaces nothing is no one's replacement",
  );
});
