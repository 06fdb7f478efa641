import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { upgradeBlock } from './operator-condition';

describe('upgradeBlock (docs/olm/operator-conditions.md#upgradeable)', () => {
  test('no Upgradeable condition does not block', () => {
    assert.deepEqual(upgradeBlock({ metadata: { generation: 1 } }), { blocked: false });
  });

  test('Upgradeable=False blocks, with the operator message', () => {
    const r = upgradeBlock({
      metadata: { generation: 2 },
      status: {
        conditions: [
          {
            type: 'Upgradeable',
            status: 'False',
            reason: 'Migrating',
            message: 'data migration running',
            observedGeneration: 2,
          },
        ],
      },
    });
    assert.deepEqual(r, {
      blocked: true,
      message: 'operator is not upgradeable: the operator is not upgradeable: data migration running',
    });
  });

  test('an override wins over the status, either way', () => {
    const falseStatus = [{ type: 'Upgradeable', status: 'False' as const, message: 'no', observedGeneration: 1 }];
    assert.deepEqual(
      upgradeBlock({
        metadata: { generation: 1 },
        spec: { overrides: [{ type: 'Upgradeable', status: 'True' }] },
        status: { conditions: falseStatus },
      }),
      { blocked: false },
    );
    assert.equal(
      upgradeBlock({
        metadata: { generation: 1 },
        spec: { overrides: [{ type: 'Upgradeable', status: 'False', message: 'admin says wait' }] },
      }).blocked,
      true,
    );
  });

  test('an override that is not True blocks, Unknown included (isOperatorUpgradeable returns true only for True)', () => {
    const r = upgradeBlock({
      metadata: { generation: 1 },
      spec: { overrides: [{ type: 'Upgradeable', status: 'Unknown', message: 'unsure' }] },
    });
    assert.deepEqual(r, {
      blocked: true,
      message: 'operator is not upgradeable: the operator is not upgradeable: unsure',
    });
  });

  test('a stale observedGeneration blocks', () => {
    const r = upgradeBlock({
      metadata: { generation: 3 },
      status: { conditions: [{ type: 'Upgradeable', status: 'True', observedGeneration: 2 }] },
    });
    assert.equal(r.blocked, true);
  });
});
