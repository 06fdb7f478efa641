// Object health as `kubectl rollout status` judges a Deployment (kubectl
// pkg/polymorphichelpers/rollout_status.go DeploymentStatusViewer: observedGeneration first, then
// ProgressDeadlineExceeded, updated, old and available replicas) and as the API server marks a CRD
// (NamesAccepted, Established); and the one verdict over them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Condition } from '../resources/common';
import { extensionVerdict, objectHealth } from './extension-health';

const dep = (status: object, generation = 1, replicas = 1) => ({
  kind: 'Deployment',
  name: 'op',
  generation,
  spec: { replicas },
  status: { observedGeneration: 1, ...status },
});

test('a Deployment rolled out only when observed, updated, old replicas gone and available', () => {
  assert.equal(objectHealth(dep({ replicas: 1, updatedReplicas: 1, availableReplicas: 1 })).health, 'healthy');
  assert.equal(objectHealth(dep({ replicas: 1, updatedReplicas: 1, availableReplicas: 1 }, 2)).health, 'progressing');
  assert.deepEqual(objectHealth(dep({ replicas: 2, updatedReplicas: 1, availableReplicas: 2 }, 1, 2)), {
    health: 'progressing',
    detail: 'rollout: 1 of 2 new replicas updated',
  });
  assert.deepEqual(objectHealth(dep({ replicas: 2, updatedReplicas: 1, availableReplicas: 1 })), {
    health: 'progressing',
    detail: 'rollout: 1 old replicas pending termination',
  });
  assert.deepEqual(objectHealth(dep({ replicas: 1, updatedReplicas: 1, availableReplicas: 0 })), {
    health: 'progressing',
    detail: 'rollout: 0 of 1 updated replicas available',
  });
  const deadline: Condition = {
    type: 'Progressing',
    status: 'False',
    reason: 'ProgressDeadlineExceeded',
    message: 'too slow',
  };
  const stuck = dep({ replicas: 1, updatedReplicas: 1, availableReplicas: 0, conditions: [deadline] });
  assert.deepEqual(objectHealth(stuck), { health: 'degraded', detail: 'exceeded its progress deadline: too slow' });
});

test('a CRD is healthy once Established; refused names are degraded', () => {
  const crd = (conditions: Condition[]) => ({ kind: 'CustomResourceDefinition', name: 'x', status: { conditions } });
  assert.equal(objectHealth(crd([{ type: 'Established', status: 'True' }])).health, 'healthy');
  assert.equal(objectHealth(crd([])).health, 'progressing');
  assert.equal(
    objectHealth(crd([{ type: 'NamesAccepted', status: 'False', message: '"xs" is already in use' }])).health,
    'degraded',
  );
  assert.equal(objectHealth({ kind: 'ClusterRole', name: 'r' }).health, 'healthy');
});

test('one verdict: degraded outweighs progressing; unread kinds make it Unknown; nothing installed says so', () => {
  const ok = { kind: 'Deployment', name: 'op', health: 'healthy' as const };
  assert.equal(extensionVerdict({ installed: true, objects: [ok], unread: [] }).state, 'Healthy');
  assert.equal(
    extensionVerdict({
      installed: true,
      objects: [
        ok,
        { kind: 'Deployment', name: 'b', health: 'progressing' },
        { kind: 'X', name: 'c', health: 'degraded' },
      ],
      unread: [],
    }).detail,
    'Not healthy: X c.',
  );
  assert.equal(extensionVerdict({ installed: true, objects: [ok], unread: ['Secret'] }).state, 'Unknown');
  assert.equal(extensionVerdict({ installed: false, objects: [], unread: [] }).state, 'Not installed');
});
