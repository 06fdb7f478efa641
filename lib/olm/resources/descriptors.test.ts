// Descriptors as operator-framework defines them (path into spec or status; x-descriptors
// urn:alm:descriptor:…), read against operands as operators write them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descriptorRows, operandState } from './descriptors';

const status = {
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True', reason: 'AllReplicasReady', message: '3 of 3 ready' }],
  connectionSecret: 'main-app',
  dashboard: 'https://grafana.example.com/d/pg',
  badLink: 'javascript:alert(1)',
  pods: { ready: ['main-0', 'main-1'], starting: ['main-2'] },
  nodes: [{ name: 'a' }, { name: 'b' }],
};

test('status descriptors: conditions, pod statuses, resource names, http(s) links only, phase, nested and list paths', () => {
  const rows = descriptorRows(status, [
    { path: 'conditions', displayName: 'Conditions', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes.conditions'] },
    { path: 'pods', displayName: 'Pods', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podStatuses'] },
    { path: 'connectionSecret', displayName: 'Secret', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes:Secret'] },
    { path: 'dashboard', displayName: 'Dashboard', 'x-descriptors': ['urn:alm:descriptor:org.w3:link'] },
    { path: 'badLink', displayName: 'Bad', 'x-descriptors': ['urn:alm:descriptor:org.w3:link'] },
    { path: 'phase', displayName: 'Phase', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes.phase'] },
    { path: 'nodes[1].name', displayName: 'Second node' },
    { path: 'notYet', displayName: 'Not yet' },
    { path: 'secretThing', displayName: 'Hidden', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:hidden'] },
    { displayName: 'no path' },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.displayName, r.view.kind, r.missing]),
    [
      ['Conditions', 'conditions', false],
      ['Pods', 'podStatuses', false],
      ['Secret', 'resource', false],
      ['Dashboard', 'link', false],
      ['Bad', 'value', false],
      ['Phase', 'phase', false],
      ['Second node', 'value', false],
      ['Not yet', 'value', true],
    ],
  );
  assert.deepEqual(rows[1]!.view, { kind: 'podStatuses', pods: { ready: ['main-0', 'main-1'], starting: ['main-2'] } });
  assert.deepEqual(rows[2]!.view, { kind: 'resource', resource: 'Secret', name: 'main-app' });
  assert.deepEqual(rows[6]!.view, { kind: 'value', value: 'b' });
});

test("an operand's state: Ready, then Available, then Degraded, then its phase, else unknown", () => {
  assert.deepEqual(operandState({ status }), { label: 'Ready', tone: 'ok', detail: 'AllReplicasReady: 3 of 3 ready' });
  assert.deepEqual(
    operandState({ status: { conditions: [{ type: 'Available', status: 'False', message: 'no primary' }] } }),
    { label: 'Not available', tone: 'warning', detail: 'no primary' },
  );
  assert.equal(
    operandState({ status: { conditions: [{ type: 'Degraded', status: 'True', message: 'x' }] } }).tone,
    'error',
  );
  assert.deepEqual(
    operandState({ status: { state: 'Failed' } }, [
      { path: 'state', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes.phase'] },
    ]),
    { label: 'Failed', tone: 'error' },
  );
  assert.deepEqual(operandState({ status: { phase: 'Provisioning' } }), { label: 'Provisioning', tone: 'neutral' });
  assert.equal(operandState({}).label, 'Unknown');
});
