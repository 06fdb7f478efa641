import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallPlan, Step } from '../resources/install-plan';
import { groupSteps, installPlanSummary, parseStepManifest } from './install-plan-status';

const step = (kind: string, name: string, status: string, manifest?: string): Step => ({
  resolving: 'etcd.v0.9.2',
  status,
  resource: { group: '', version: 'v1', kind, name, manifest },
});

function plan(phase: string, approved: boolean, steps: Step[] = []): InstallPlan {
  return {
    metadata: { name: 'install-abcde' },
    spec: { clusterServiceVersionNames: ['etcd.v0.9.2'], approval: 'Manual', approved },
    status: { phase, plan: steps, catalogSources: ['c'] },
  };
}

describe('installPlanSummary', () => {
  test('RequiresApproval and not approved needs approval', () => {
    const s = installPlanSummary(plan('RequiresApproval', false));
    assert.equal(s.needsApproval, true);
    assert.equal(s.label, 'Requires approval');
    assert.equal(s.manual, true);
  });

  test('a failed plan carries its message from the Installed condition', () => {
    const p = plan('Failed', true);
    p.status!.conditions = [
      {
        type: 'Installed',
        status: 'False',
        reason: 'InstallComponentFailed',
        message: 'error creating csv etcd.v0.9.2',
      },
    ];
    const s = installPlanSummary(p);
    assert.equal(s.done, true);
    assert.equal(s.message, 'error creating csv etcd.v0.9.2');
  });
});

describe('groupSteps', () => {
  test('steps grouped by kind, CSV first, RBAC together, with progress', () => {
    const groups = groupSteps(
      plan('Installing', true, [
        step('CustomResourceDefinition', 'etcdclusters.etcd.database.coreos.com', 'WaitingForApi'),
        step('ClusterServiceVersion', 'etcd.v0.9.2', 'Created'),
        step('ServiceAccount', 'etcd-operator', 'Created'),
        step('Role', 'etcd.v0.9.2-etcd-operator-abc', 'Present'),
        step('ServiceMonitor', 'etcd', 'Unknown'),
      ]),
    );
    assert.deepEqual(
      groups.map((g) => [g.group, g.steps.length, g.done]),
      [
        ['ClusterServiceVersion', 1, 1],
        ['CustomResourceDefinition', 1, 0],
        ['RBAC', 2, 2],
        ['Other', 1, 0],
      ],
    );
  });
});

describe('parseStepManifest', () => {
  test('an inline object', () => {
    const m = parseStepManifest(
      step('ServiceAccount', 'sa', 'Created', '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa"}}'),
    );
    assert.equal(m.form === 'object' && m.object.kind, 'ServiceAccount');
  });

  test('the bundle-unpack reference form', () => {
    const m = parseStepManifest(
      step(
        'ClusterServiceVersion',
        'etcd.v0.9.2',
        'Created',
        '{"kind":"ConfigMap","name":"a1b2c3","namespace":"olm","catalogSourceName":"operatorhubio-catalog","catalogSourceNamespace":"olm","replaces":"etcd.v0.9.0","properties":"{}"}',
      ),
    );
    assert.deepEqual(m, {
      form: 'reference',
      reference: {
        kind: 'ConfigMap',
        name: 'a1b2c3',
        namespace: 'olm',
        catalogSourceName: 'operatorhubio-catalog',
        catalogSourceNamespace: 'olm',
        replaces: 'etcd.v0.9.0',
      },
    });
  });

  test('missing or broken manifests are said so', () => {
    assert.equal(parseStepManifest(step('Role', 'r', 'Unknown')).form, 'missing');
    assert.equal(parseStepManifest(step('Role', 'r', 'Unknown', '{nope')).form, 'invalid');
  });
});
