import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OperatorCondition } from './operator-condition';
import {
  operatorConditionRows,
  overrideConflict,
  overrideWarnings,
  planOverrideChange,
  upgradeVerdict,
  CONDITION_REASON_PATTERN,
  CONDITION_TYPE_PATTERN,
} from './operator-condition-overrides';

const NOW = new Date('2026-02-03T04:05:06.789Z');

function oc(
  parts: Partial<OperatorCondition['spec']> & { status?: OperatorCondition['status']; generation?: number } = {},
): OperatorCondition {
  const { status, generation = 2, ...spec } = parts;
  return {
    metadata: { name: 'pgpilot.v1.4.0', namespace: 'pg', generation },
    spec: { serviceAccounts: ['pgpilot'], deployments: ['pgpilot'], ...spec },
    ...(status ? { status } : {}),
  };
}

const notSafe = {
  type: 'Upgradeable',
  status: 'False' as const,
  reason: 'Migrating',
  message: 'schema migration running',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};

describe('operatorConditionRows', () => {
  test("the operator's condition is read from the status OLM copied it into, with its source", () => {
    const rows = operatorConditionRows(
      oc({ conditions: [notSafe], status: { conditions: [{ ...notSafe, observedGeneration: 2 }] } }),
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.effective.source, 'operator');
    assert.equal(rows[0]!.effective.status, 'False');
    assert.equal(rows[0]!.operator?.from, 'status');
    assert.equal(rows[0]!.operator?.outdated, false);
    assert.equal(rows[0]!.actedOn, true);
  });

  test("an override wins and says so; the operator's own condition stays visible beside it", () => {
    const rows = operatorConditionRows(
      oc({
        overrides: [
          {
            type: 'Upgradeable',
            status: 'True',
            reason: 'KnownIssue',
            message: 'always says false',
            lastTransitionTime: '2026-02-01T00:00:00Z',
          },
        ],
        status: { conditions: [{ ...notSafe, observedGeneration: 1 }] },
      }),
    );
    const [row] = rows;
    assert.equal(row!.effective.source, 'override');
    assert.equal(row!.effective.status, 'True');
    assert.equal(row!.operator?.status, 'False');
    assert.equal(row!.operator?.outdated, true, 'observedGeneration 1 < generation 2');
  });

  test('every type mentioned is a row, Upgradeable first; a spec condition OLM has not copied yet is outdated', () => {
    const rows = operatorConditionRows(
      oc({
        conditions: [{ type: 'Degraded', status: 'False' }],
        overrides: [{ type: 'Available', status: 'True', reason: 'Fine', message: 'x' }],
        status: { conditions: [{ type: 'Upgradeable', status: 'True', observedGeneration: 2 }] },
      }),
    );
    assert.deepEqual(
      rows.map((r) => [r.type, r.effective.source, r.actedOn]),
      [
        ['Upgradeable', 'operator', true],
        ['Available', 'override', false],
        ['Degraded', 'operator', false],
      ],
    );
    assert.equal(rows[2]!.operator?.from, 'spec');
    assert.equal(rows[2]!.operator?.outdated, true);
  });
});

describe('upgradeVerdict', () => {
  test('what decides: override, operator, or nothing', () => {
    assert.deepEqual(upgradeVerdict(oc()), { blocked: false, decidedBy: 'none' });
    const held = upgradeVerdict(oc({ status: { conditions: [{ ...notSafe, observedGeneration: 2 }] } }));
    assert.equal(held.blocked, true);
    assert.equal(held.decidedBy, 'operator');
    assert.match(held.message!, /schema migration running/);
    assert.deepEqual(
      upgradeVerdict(
        oc({
          overrides: [{ type: 'Upgradeable', status: 'True', reason: 'R', message: 'm' }],
          status: { conditions: [{ ...notSafe, observedGeneration: 2 }] },
        }),
      ),
      { blocked: false, decidedBy: 'override' },
    );
  });
});

describe('planOverrideChange', () => {
  test("setting Upgradeable=True over the operator's False: the exact overrides, the warning of what it bypasses, the effect", () => {
    const object = oc({
      overrides: [
        { type: 'Other', status: 'True', reason: 'Keep', message: 'kept', lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
      status: { conditions: [{ ...notSafe, observedGeneration: 2 }] },
    });
    const plan = planOverrideChange(
      object,
      {
        action: 'set',
        type: 'Upgradeable',
        status: 'True',
        reason: 'KnownIssue',
        message: 'the operator always reports false',
      },
      NOW,
    );
    assert.equal(plan.noChange, false);
    assert.deepEqual(plan.patch, {
      spec: {
        overrides: [
          {
            type: 'Other',
            status: 'True',
            reason: 'Keep',
            message: 'kept',
            lastTransitionTime: '2025-01-01T00:00:00Z',
          },
          {
            type: 'Upgradeable',
            status: 'True',
            reason: 'KnownIssue',
            message: 'the operator always reports false',
            lastTransitionTime: '2026-02-03T04:05:06Z',
          },
        ],
      },
    });
    assert.equal(plan.before?.effective.source, 'operator');
    assert.equal(plan.after?.effective.source, 'override');
    assert.equal(plan.upgrade.before.blocked, true);
    assert.equal(plan.upgrade.after.blocked, false);
    assert.match(plan.warnings[0]!, /bypasses the operator's own safety check/);
    assert.match(
      plan.warnings[0]!,
      /not safe to upgrade now: Upgradeable=False \(Migrating: schema migration running\)/,
    );
    assert.ok(plan.warnings.some((w) => /new version's OperatorCondition starts without it/.test(w)));
  });

  test('changing an override keeps its lastTransitionTime while the status stays; the same override again is no change', () => {
    const existing = {
      type: 'Upgradeable',
      status: 'False' as const,
      reason: 'Hold',
      message: 'wait',
      lastTransitionTime: '2025-05-05T00:00:00Z',
    };
    const object = oc({ overrides: [existing] });
    const reworded = planOverrideChange(
      object,
      { action: 'set', type: 'Upgradeable', status: 'False', reason: 'Hold', message: 'wait for the backup' },
      NOW,
    );
    assert.equal(reworded.overrides[0]!.lastTransitionTime, '2025-05-05T00:00:00Z');
    const same = planOverrideChange(
      object,
      { action: 'set', type: 'Upgradeable', status: 'False', reason: 'Hold', message: 'wait' },
      NOW,
    );
    assert.equal(same.noChange, true);
    assert.deepEqual(same.overrides, [existing]);
    assert.match(same.warnings[0]!, /already exactly so/);
  });

  test('removing the last override removes the field (null in the merge patch); removing none is no change', () => {
    const object = oc({
      overrides: [{ type: 'Upgradeable', status: 'True', reason: 'R', message: 'm' }],
      status: { conditions: [{ ...notSafe, observedGeneration: 2 }] },
    });
    const plan = planOverrideChange(object, { action: 'remove', type: 'Upgradeable' }, NOW);
    assert.deepEqual(plan.patch, { spec: { overrides: null } });
    assert.equal(plan.upgrade.after.blocked, true, "the operator's False counts again");
    assert.match(plan.warnings[0]!, /upgrades of pgpilot\.v1\.4\.0 wait again/);
    assert.equal(planOverrideChange(oc(), { action: 'remove', type: 'Upgradeable' }, NOW).noChange, true);
  });

  test('False and Unknown overrides hold upgrades back; other types change nothing OLM does', () => {
    assert.match(
      overrideWarnings(oc(), { action: 'set', type: 'Upgradeable', status: 'False', reason: 'R', message: 'm' })[0]!,
      /will not upgrade pgpilot\.v1\.4\.0, whatever the operator says/,
    );
    const unknown = planOverrideChange(
      oc(),
      { action: 'set', type: 'Upgradeable', status: 'Unknown', reason: 'R', message: 'm' },
      NOW,
    );
    assert.equal(unknown.upgrade.after.blocked, true);
    assert.match(unknown.warnings[0]!, /only for an Upgradeable override that is True/);
    assert.match(
      overrideWarnings(oc(), { action: 'set', type: 'Degraded', status: 'True', reason: 'R', message: 'm' })[0]!,
      /acts only on Upgradeable/,
    );
  });
});

describe('overrideConflict', () => {
  const object = oc({ overrides: [{ type: 'Upgradeable', status: 'False', reason: 'Hold', message: 'wait' }] });
  test('the override the person saw is still there: no conflict', () => {
    assert.equal(
      overrideConflict(object, 'Upgradeable', { status: 'False', reason: 'Hold', message: 'wait' }),
      undefined,
    );
    assert.equal(overrideConflict(object, 'Degraded', null), undefined);
  });
  test('someone else set or changed it meanwhile: says what it is now and what the person saw', () => {
    assert.match(overrideConflict(object, 'Upgradeable', null)!, /it is now False \(Hold\), you saw none/);
    assert.match(
      overrideConflict(object, 'Upgradeable', { status: 'True', reason: 'Go' })!,
      /it is now False \(Hold\), you saw True \(Go\)/,
    );
  });
});

describe('metav1.Condition patterns', () => {
  test('types and reasons as the CRD schema takes them', () => {
    assert.ok(CONDITION_TYPE_PATTERN.test('Upgradeable'));
    assert.ok(CONDITION_TYPE_PATTERN.test('example.com/Ready'));
    assert.ok(!CONDITION_TYPE_PATTERN.test('has space'));
    assert.ok(CONDITION_REASON_PATTERN.test('KnownIssue'));
    assert.ok(CONDITION_REASON_PATTERN.test('Upgrade_Is:Safe'));
    assert.ok(!CONDITION_REASON_PATTERN.test('known issue'));
    assert.ok(!CONDITION_REASON_PATTERN.test('1Reason'));
  });
});
