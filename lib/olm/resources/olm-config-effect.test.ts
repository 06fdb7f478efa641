import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterServiceVersion } from './cluster-service-version';
import { explainCopiedCsvsCondition } from './olm-config';
import { allNamespacesOperators, copiedCsvEffect, copiedCsvRef } from './olm-config-effect';

function csv(
  namespace: string,
  name: string,
  targets: string | undefined,
  extra: { reason?: string; copiedFrom?: string } = {},
): ClusterServiceVersion {
  return {
    metadata: {
      name,
      namespace,
      annotations:
        targets === undefined
          ? {}
          : { 'olm.targetNamespaces': targets, 'olm.operatorNamespace': extra.copiedFrom ?? namespace },
      labels: extra.copiedFrom ? { 'olm.copiedFrom': extra.copiedFrom } : {},
    },
    spec: {} as ClusterServiceVersion['spec'],
    status: { phase: 'Succeeded', reason: extra.reason ?? 'InstallSucceeded' },
  } as ClusterServiceVersion;
}

const certwarden = csv('operators', 'certwarden.v2.0.0', '');
const logship = csv('operators', 'logship.v1.0.0', '');
const pgpilot = csv('pg', 'pgpilot.v1.4.0', 'pg,team1');
const failed = csv('broken', 'gatewise.v1.0.0', '', { reason: 'InterOperatorGroupOwnerConflict' });
const copies = [
  ...['default', 'team1', 'pg'].map((ns) => ({ namespace: ns, name: 'certwarden.v2.0.0', copiedFrom: 'operators' })),
  { namespace: 'team1', name: 'pgpilot.v1.4.0', copiedFrom: 'pg' },
];

describe('copiedCsvEffect', () => {
  test('turning copies off: only the copies of all-namespaces operators go, the others stay', () => {
    const e = copiedCsvEffect({
      to: true,
      operators: [certwarden, logship, pgpilot, failed],
      copies,
      namespaceCount: 6,
    });
    assert.equal(e.present, 4);
    assert.equal(e.ofAllNamespacesOperators, 3);
    assert.equal(e.unaffected, 1);
    assert.equal(e.removes, 3);
    assert.deepEqual(
      e.operators.map((o) => [o.name, o.copies]),
      [
        ['certwarden.v2.0.0', 3],
        ['logship.v1.0.0', 0],
      ],
    );
    assert.match(e.summary, /OLM deletes 3 copied CSVs of 1 operator installed for all namespaces/);
    assert.match(e.summary, /The 1 copy of operators watching chosen namespaces stay/);
  });

  test('turning copies on: each all-namespaces operator into every other namespace, less what is there', () => {
    const e = copiedCsvEffect({ to: false, operators: [certwarden, logship, pgpilot], copies: [], namespaceCount: 6 });
    assert.equal(e.restores, 10, '2 operators × 5 other namespaces');
    assert.match(
      e.summary,
      /OLM copies 2 operators installed for all namespaces into the other 5 namespaces: 10 copied CSVs come back/,
    );
    const partly = copiedCsvEffect({
      to: false,
      operators: [certwarden],
      copies: copies.slice(0, 2),
      namespaceCount: 6,
    });
    assert.equal(partly.restores, 3);
  });

  test('without the number of namespaces it says so instead of guessing; with no such operator nothing changes', () => {
    const e = copiedCsvEffect({ to: false, operators: [certwarden], copies: [] });
    assert.equal(e.restores, undefined);
    assert.match(e.summary, /could not be read/);
    assert.equal(copiedCsvEffect({ to: false, operators: [pgpilot], copies: [] }).restores, 0);
    assert.match(
      copiedCsvEffect({ to: true, operators: [pgpilot], copies: copies.slice(3) }).summary,
      /No copied CSV goes/,
    );
  });

  test('copies and failed operators are not operators whose copies OLM makes', () => {
    const copy = csv('team1', 'certwarden.v2.0.0', undefined, { copiedFrom: 'operators', reason: 'Copied' });
    assert.deepEqual(
      allNamespacesOperators([certwarden, copy, failed, pgpilot]).map((c) => c.metadata?.name),
      ['certwarden.v2.0.0'],
    );
    assert.deepEqual(copiedCsvRef(copy), { namespace: 'team1', name: 'certwarden.v2.0.0', copiedFrom: 'operators' });
    assert.equal(copiedCsvRef(certwarden), undefined);
  });
});

describe('explainCopiedCsvsCondition', () => {
  const cfg = (disable: boolean, condition?: { status: 'True' | 'False'; reason: string; message: string }) => ({
    spec: { features: { disableCopiedCSVs: disable } },
    status: { conditions: condition ? [{ type: 'DisabledCopiedCSVs', ...condition }] : [] },
  });
  test('each condition OLM writes, and the moment before it acts', () => {
    assert.equal(
      explainCopiedCsvsCondition(
        cfg(false, {
          status: 'False',
          reason: 'CopiedCSVsEnabled',
          message: 'Copied CSVs are enabled and present across the cluster',
        }),
      ).state,
      'enabled',
    );
    assert.equal(
      explainCopiedCsvsCondition(
        cfg(true, { status: 'True', reason: 'CopiedCSVsDisabled', message: '…no unexpected copied CSVs…' }),
      ).state,
      'disabled',
    );
    assert.equal(
      explainCopiedCsvsCondition(
        cfg(true, { status: 'False', reason: 'CopiedCSVsDisabled', message: '…at least one unexpected copied CSV…' }),
      ).state,
      'disabling',
    );
    assert.equal(
      explainCopiedCsvsCondition(
        cfg(true, {
          status: 'False',
          reason: 'CopiedCSVsEnabled',
          message: 'Copied CSVs are enabled and present across the cluster',
        }),
      ).state,
      'disabling',
    );
    assert.equal(
      explainCopiedCsvsCondition(cfg(false, { status: 'True', reason: 'CopiedCSVsDisabled', message: '…' })).state,
      'restoring',
    );
    assert.equal(
      explainCopiedCsvsCondition(
        cfg(false, {
          status: 'False',
          reason: 'CopiedCSVsEnabled',
          message: 'Copied CSVs are enabled and at least one copied CSVs is missing',
        }),
      ).state,
      'restoring',
    );
    assert.equal(explainCopiedCsvsCondition(cfg(false)).state, 'pending');
  });
});
