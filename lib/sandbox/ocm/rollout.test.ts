// Which clusters a ManifestWorkReplicaSet writes its work to now, under each rollout strategy, as
// OCM's rollout handler (open-cluster-management-io/sdk-go, cluster/v1alpha1/rollout.go) decides
// from each decided cluster's state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  clustersToRollOut,
  durationMs,
  progressDeadlineMs,
  type ClusterRolloutState,
  type DecidedCluster,
} from './rollout';

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

  test('Progressive: a timed-out cluster frees its place in flight and counts as a failure', () => {
    const strategy = { type: 'Progressive' as const, progressive: { maxConcurrency: 1, maxFailures: 1 } };
    assert.deepEqual(clustersToRollOut(strategy, facts(['Failed', 'ToApply'])), []);
    assert.deepEqual(clustersToRollOut(strategy, facts(['TimeOut', 'ToApply'])), ['b']);
    assert.deepEqual(clustersToRollOut(strategy, facts(['TimeOut', 'TimeOut', 'ToApply'])), []);
  });

  test('ProgressivePerGroup: a timed-out group stops the rollout unless maxFailures allows it', () => {
    assert.deepEqual(clustersToRollOut({ type: 'ProgressivePerGroup' }, facts(['TimeOut'], ['ToApply'])), []);
    assert.deepEqual(
      clustersToRollOut(
        { type: 'ProgressivePerGroup', progressivePerGroup: { maxFailures: 1 } },
        facts(['TimeOut'], ['ToApply']),
      ),
      ['b'],
    );
  });

  test('a timed-out mandatory cluster holds the rest back for good', () => {
    const strategy = {
      type: 'Progressive' as const,
      progressive: { mandatoryDecisionGroups: [{ groupIndex: 0 }], maxFailures: 5 },
    };
    assert.deepEqual(clustersToRollOut(strategy, facts(['TimeOut'], ['ToApply'])), []);
  });

  test('maxFailures above the number of clusters tolerates no failure at all', () => {
    const clusters = facts(['TimeOut', 'ToApply']);
    const progressive = (maxFailures: number | string) =>
      clustersToRollOut({ type: 'Progressive', progressive: { maxConcurrency: 1, maxFailures } }, clusters);
    assert.deepEqual(progressive(1), ['b']);
    assert.deepEqual(progressive('50%'), ['b']);
    assert.deepEqual(progressive(3), []);
    const perGroup = (maxFailures: number) =>
      clustersToRollOut(
        { type: 'ProgressivePerGroup', progressivePerGroup: { maxFailures } },
        facts(['Failed'], ['ToApply']),
      );
    assert.deepEqual(perGroup(1), ['b']);
    assert.deepEqual(perGroup(2), []);
  });

  test('maxConcurrency 0 or above the number of clusters lets every cluster through', () => {
    for (const maxConcurrency of [0, 9])
      assert.deepEqual(
        clustersToRollOut({ type: 'Progressive', progressive: { maxConcurrency } }, facts(['ToApply', 'ToApply'])),
        ['a', 'b'],
      );
  });

  test('Progressive: maxFailures counts every decided cluster, the mandatory ones too', () => {
    const strategy = {
      type: 'Progressive' as const,
      progressive: { mandatoryDecisionGroups: [{ groupIndex: 0 }], maxConcurrency: 1, maxFailures: '30%' },
    };
    // 30% of all four clusters is 2 failures allowed; of the three not mandatory it would be 1.
    assert.deepEqual(clustersToRollOut(strategy, facts(['Succeeded'], ['TimeOut', 'TimeOut', 'ToApply'])), ['d']);
  });

  test('progressDeadline: unbounded when absent, None or not a duration; each strategy reads its own', () => {
    const of = (type: 'All' | 'Progressive' | 'ProgressivePerGroup', progressDeadline?: string) =>
      progressDeadlineMs({
        type,
        all: { progressDeadline },
        progressive: { progressDeadline },
        progressivePerGroup: { progressDeadline },
      });
    assert.deepEqual(
      ['10m', '90s', '0s', '1h30m', 'None', '', undefined, 'm5', '5x'].map((d) => of('Progressive', d)),
      [600_000, 90_000, 0, 5_400_000, Infinity, Infinity, Infinity, Infinity, Infinity],
    );
    assert.equal(of('All', '3s'), 3000);
    assert.equal(of('ProgressivePerGroup', '3s'), 3000);
    assert.equal(progressDeadlineMs({ type: 'Progressive', all: { progressDeadline: '3s' } }), Infinity);
  });

  test('durations as Go writes them', () => {
    assert.deepEqual(
      ['1m', '90s', '1m30s', '2h', '', 'soon', '10'].map((d) => durationMs(d)),
      [60_000, 90_000, 90_000, 7_200_000, 0, 0, 0],
    );
  });
});
