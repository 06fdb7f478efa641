// The matching rules of Kubernetes' "Taints and Tolerations" and "Assigning Pods to Nodes"
// (nodeSelector) documentation, on which the console's placement warning rests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { placement, tolerates, type NodeFacts } from './node-placement';

const worker: NodeFacts = {
  name: 'worker-1',
  labels: { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/worker': '' },
  taints: [],
};
const infra: NodeFacts = {
  name: 'infra-1',
  labels: { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/infra': '' },
  taints: [{ key: 'node-role.kubernetes.io/infra', value: 'reserved', effect: 'NoSchedule' }],
};
const cordoned: NodeFacts = {
  name: 'infra-2',
  labels: { 'node-role.kubernetes.io/infra': '' },
  taints: [],
  unschedulable: true,
};

describe('tolerates', () => {
  const taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
  test('Equal needs key and value; Exists the key; an empty key with Exists tolerates everything', () => {
    assert.equal(tolerates({ key: 'k', operator: 'Equal', value: 'v' }, taint), true);
    assert.equal(tolerates({ key: 'k', operator: 'Equal', value: 'w' }, taint), false);
    assert.equal(tolerates({ key: 'k', operator: 'Exists' }, taint), true);
    assert.equal(tolerates({ operator: 'Exists' }, taint), true);
    assert.equal(tolerates({ key: 'k', value: 'v' }, taint), true, 'the operator defaults to Equal');
  });
  test("an effect given must be the taint's; none matches all effects", () => {
    assert.equal(tolerates({ key: 'k', operator: 'Exists', effect: 'NoExecute' }, taint), false);
    assert.equal(tolerates({ key: 'k', operator: 'Exists', effect: 'NoSchedule' }, taint), true);
  });
});

describe('placement', () => {
  test('no selector: any untainted schedulable node', () => {
    assert.deepEqual(placement([worker, infra, cordoned], undefined, undefined), { fits: ['worker-1'] });
  });

  test('a selector no node has', () => {
    const v = placement([worker, infra], { 'node-role.kubernetes.io/gpu': '' }, []);
    assert.deepEqual(v.fits, []);
    assert.equal(v.problem, 'no schedulable node has every label node-role.kubernetes.io/gpu (empty value)');
  });

  test('infra nodes selected but their taint not tolerated, then tolerated', () => {
    const sel = { 'node-role.kubernetes.io/infra': '' };
    assert.equal(
      placement([worker, infra, cordoned], sel, []).problem,
      'the node with these labels has taints it does not tolerate: node-role.kubernetes.io/infra=reserved:NoSchedule',
    );
    assert.deepEqual(
      placement([worker, infra, cordoned], sel, [
        { key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' },
      ]),
      { fits: ['infra-1'] },
    );
  });

  test('PreferNoSchedule taints do not keep a pod off', () => {
    assert.deepEqual(
      placement([{ ...worker, taints: [{ key: 'busy', effect: 'PreferNoSchedule' }] }], undefined, []).fits,
      ['worker-1'],
    );
  });
});
