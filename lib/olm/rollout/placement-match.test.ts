// The preview's guess of a new Placement's clusters, by OCM v1.0.0's rules (cluster/v1beta1
// types_placement.go: cluster sets, required label and claim selectors; cluster/v1 types.go:
// a NoSelect taint keeps a cluster out unless tolerated). The placement controller itself picks
// the same two clusters on the real hub (lib/server/rollouts/rollout.cluster.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RolloutChoices } from './choices';
import { guessPlacement, type ManagedClusterLike } from './placement-match';

const choices = (over: Partial<RolloutChoices> = {}): RolloutChoices => ({
  name: 'gk',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: 'p',
  installNamespace: 'p',
  catalog: { name: 'c', namespace: 'olm' },
  placement: { clusterSets: ['default'] },
  canary: { canary: 'true' },
  waveSize: 2,
  ...over,
});

function cluster(name: string, labels: Record<string, string> = {}, more: Partial<ManagedClusterLike> = {}) {
  return {
    metadata: { name, labels: { 'cluster.open-cluster-management.io/clusterset': 'default', ...labels } },
    ...more,
  };
}

test('the canary label picks the first group; the rest are counted in waves of at most N', () => {
  const g = guessPlacement(choices(), [
    cluster('c'),
    cluster('a', { canary: 'true' }),
    cluster('b'),
    cluster('d'),
    cluster('e'),
  ]);
  assert.deepEqual(g.canary, ['a']);
  assert.deepEqual(g.rest, ['b', 'c', 'd', 'e']);
  assert.equal(g.waves, 3);
});

test('clusters of other sets are not considered; label, claim and NoSelect taint leave clusters out, with why', () => {
  const g = guessPlacement(
    choices({
      placement: {
        clusterSets: ['default'],
        labels: { env: 'prod' },
        claims: [{ key: 'region', operator: 'In', values: ['eu'] }],
      },
    }),
    [
      cluster('other', { 'cluster.open-cluster-management.io/clusterset': 'lab', env: 'prod' }),
      cluster('dev', { env: 'dev' }),
      cluster('us', { env: 'prod' }, { status: { clusterClaims: [{ name: 'region', value: 'us' }] } }),
      cluster(
        'down',
        { env: 'prod' },
        {
          status: { clusterClaims: [{ name: 'region', value: 'eu' }] },
          spec: { taints: [{ key: 'cluster.open-cluster-management.io/unavailable', effect: 'NoSelect' }] },
        },
      ),
      cluster('eu', { env: 'prod' }, { status: { clusterClaims: [{ name: 'region', value: 'eu' }] } }),
    ],
  );
  assert.deepEqual(g.rest, ['eu']);
  assert.deepEqual(g.left, [
    { cluster: 'dev', why: 'its labels do not match' },
    { cluster: 'down', why: 'it has the taint cluster.open-cluster-management.io/unavailable (NoSelect)' },
    { cluster: 'us', why: 'its cluster claims do not match' },
  ]);
});
