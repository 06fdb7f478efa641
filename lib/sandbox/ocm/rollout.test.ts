// Which clusters a ManifestWorkReplicaSet writes its work to now, under each rollout strategy, as
// OCM's rollout handler (open-cluster-management-io/sdk-go, cluster/v1alpha1/rollout.go) decides
// from each decided cluster's state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clustersToRollOut, durationMs, type ClusterRolloutState, type DecidedCluster } from './rollout';

/** Clusters `a`, `b`, … in decision groups: `groups[i]` is the states of group i's clusters. */
function facts(...groups: ClusterRolloutState[][]): DecidedCluster[] {
  let n = 0;
  return groups.flatMap((states, groupIndex) =>
    states.map((state) => ({ name: String.fromCharCode(97 + n++), groupIndex, groupName: '', state })),
  );
}

describe('the clusters a rollout writes to now', () => {
  test('All: every cluster still to apply, at once', () =>
    assert.deepEqual(clustersToRollOut({ type: 'All' }, facts(['ToApply', 'Succeeded'], ['ToApply'])), ['a', 'c']));

  test('All: a failed cluster holds nothing back', () =>
    assert.deepEqual(clustersToRollOut({ type: 'All' }, facts(['Failed'], ['ToApply'])), ['b']));

  test('Progressive: at most maxConcurrency clusters not yet succeeded', () => {
    const strategy = { type: 'Progressive' as const, progressive: { maxConcurrency: 2 } };
    assert.deepEqual(clustersToRollOut(strategy, facts(['ToApply', 'ToApply', 'ToApply'])), ['a', 'b']);
    assert.deepEqual(clustersToRollOut(strategy, facts(['Succeeded', 'Progressing', 'ToApply', 'ToApply'])), ['c']);
  });

  test('Progressive: a failure beyond maxFailures starts nothing new; within it, the window moves on', () => {
    const clusters = facts(['Failed', 'ToApply', 'ToApply']);
    assert.deepEqual(clustersToRollOut({ type: 'Progressive', progressive: { maxConcurrency: 2 } }, clusters), []);
    assert.deepEqual(
      clustersToRollOut({ type: 'Progressive', progressive: { maxConcurrency: 2, maxFailures: 1 } }, clusters),
      ['b'],
    );
  });

  test('Progressive: maxConcurrency as a percentage of the clusters, rounded up', () =>
    assert.deepEqual(
      clustersToRollOut(
        { type: 'Progressive', progressive: { maxConcurrency: '25%' } },
        facts(['ToApply', 'ToApply', 'ToApply', 'ToApply', 'ToApply']),
      ),
      ['a', 'b'],
    ));

  test('Progressive: the mandatory group first, alone, until all of it succeeded', () => {
    const strategy = {
      type: 'Progressive' as const,
      progressive: { mandatoryDecisionGroups: [{ groupIndex: 1 }] },
    };
    assert.deepEqual(clustersToRollOut(strategy, facts(['ToApply'], ['ToApply', 'Progressing'])), ['b']);
    assert.deepEqual(clustersToRollOut(strategy, facts(['ToApply'], ['Succeeded', 'Succeeded'])), ['a']);
  });

  test('ProgressivePerGroup: one decision group after another', () => {
    const strategy = { type: 'ProgressivePerGroup' as const };
    assert.deepEqual(clustersToRollOut(strategy, facts(['ToApply'], ['ToApply'])), ['a']);
    assert.deepEqual(clustersToRollOut(strategy, facts(['Progressing'], ['ToApply'])), []);
    assert.deepEqual(clustersToRollOut(strategy, facts(['Succeeded'], ['ToApply', 'ToApply'])), ['b', 'c']);
  });

  test('ProgressivePerGroup: a failed group stops the rollout unless maxFailures allows it', () => {
    assert.deepEqual(clustersToRollOut({ type: 'ProgressivePerGroup' }, facts(['Failed'], ['ToApply'])), []);
    assert.deepEqual(
      clustersToRollOut(
        { type: 'ProgressivePerGroup', progressivePerGroup: { maxFailures: 1 } },
        facts(['Failed'], ['ToApply']),
      ),
      ['b'],
    );
  });

  test('minSuccessTime: a succeeded cluster still soaking holds the next group as one in flight does', () => {
    const strategy = {
      type: 'ProgressivePerGroup' as const,
      progressivePerGroup: { mandatoryDecisionGroups: [{ groupName: 'canary' }], minSuccessTime: '1m' },
    };
    const clusters = facts(['Succeeded'], ['ToApply']).map((c, i) => (i === 0 ? { ...c, groupName: 'canary' } : c));
    assert.deepEqual(clustersToRollOut(strategy, [{ ...clusters[0]!, soaking: true }, clusters[1]!]), []);
    assert.deepEqual(clustersToRollOut(strategy, clusters), ['b']);
  });

  test('durations as Go writes them', () => {
    assert.deepEqual(
      ['1m', '90s', '1m30s', '2h', '', 'soon', '10'].map((d) => durationMs(d)),
      [60_000, 90_000, 90_000, 7_200_000, 0, 0, 0],
    );
  });
});
