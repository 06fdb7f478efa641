// When OCM v1.0.0 times a rollout's cluster out, as the rollout page reads it. The expectations
// come from OCM's source: the work's status (ocm manifestworkreplicaset_deploy_reconcile.go
// clusterRolloutStatusFunc: Progressing counted from the work's creation, Failed from when Applied
// last changed, no Applied condition ToApply, Available True Succeeded, only a work with the set's
// current template), the deadline (sdk-go v1.0.0 cluster/v1alpha1 rollout.go parseTimeout and
// determineRolloutStatus: timed out unless now is before the deadline), and the failures
// (progressivePerGroup: more than the group's maxFailures stops the walk; a mandatory group
// tolerates none; progressivePerCluster counts over every cluster).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ManifestWorkLike, PlacementDecisionLike } from './status';
import { rolloutView } from './status';
import { progressDeadline } from './timeouts';

const T = Date.parse('2026-11-29T12:00:00Z');
const at = (ms: number) => new Date(T + ms).toISOString();
const MIN = 60_000;
const template = { workload: { manifests: [{ kind: 'Subscription', spec: { channel: 'stable' } }] } };

type Facts = {
  progressDeadline?: string;
  type?: 'ProgressivePerGroup' | 'Progressive' | 'All';
  maxFailures?: number | string;
  canary?: boolean;
};
function set(f: Facts) {
  const type = f.type ?? 'ProgressivePerGroup';
  const steps = {
    ...(f.progressDeadline ? { progressDeadline: f.progressDeadline } : {}),
    ...(f.maxFailures !== undefined ? { maxFailures: f.maxFailures } : {}),
    ...(f.canary ? { mandatoryDecisionGroups: [{ groupName: 'canary' }] } : {}),
  };
  const key = type === 'ProgressivePerGroup' ? 'progressivePerGroup' : type === 'Progressive' ? 'progressive' : 'all';
  return {
    metadata: { name: 'gk', namespace: 'rollouts' },
    spec: { manifestWorkTemplate: template, placementRefs: [{ name: 'gk', rolloutStrategy: { type, [key]: steps } }] },
  };
}

function group(index: number, name: string, clusters: string[]): PlacementDecisionLike {
  return {
    metadata: {
      name: `gk-decision-${index + 1}`,
      labels: {
        'cluster.open-cluster-management.io/decision-group-index': String(index),
        'cluster.open-cluster-management.io/decision-group-name': name,
      },
    },
    status: { decisions: clusters.map((clusterName) => ({ clusterName })) },
  };
}

type WorkFacts = {
  applied?: 'True' | 'False';
  appliedChanged?: number;
  available?: 'True' | 'False';
  degraded?: boolean;
  outdated?: boolean;
};
function work(cluster: string, f: WorkFacts = {}): ManifestWorkLike {
  const c = (type: string, status: string, changed = 0) => ({
    type,
    status,
    reason: 'x',
    observedGeneration: 1,
    lastTransitionTime: at(changed),
  });
  return {
    metadata: { name: 'gk', namespace: cluster, generation: 1, creationTimestamp: at(0) },
    spec: f.outdated ? { workload: { manifests: [] } } : template,
    status: {
      conditions: [
        ...(f.applied ? [c('Applied', f.applied, f.appliedChanged)] : []),
        ...(f.available ? [c('Available', f.available)] : []),
        ...(f.degraded ? [c('Degraded', 'True')] : []),
      ],
    },
  };
}

const timedOut = (v: ReturnType<typeof rolloutView>) =>
  Object.fromEntries(v.waves.flatMap((w) => w.clusters.filter((c) => c.timedOut).map((c) => [c.cluster, c.timedOut])));

test('a cluster still progressing times out at its deadline, counted from its work’s creation', () => {
  const s = set({ progressDeadline: '10m', maxFailures: 0 });
  const d = [group(0, '', ['a']), group(1, '', ['b'])];
  const w = [work('a', { applied: 'True', available: 'False' })];
  assert.deepEqual(timedOut(rolloutView(s, d, w, T + 10 * MIN - 1)), {});
  assert.deepEqual(timedOut(rolloutView(s, d, w, T + 10 * MIN)), {
    a: { deadline: '10m', at: at(10 * MIN), stops: { failures: 1, maxFailures: 0, over: 'group' } },
  });
});

test('a failed cluster is counted from when its Applied condition last changed', () => {
  const s = set({ progressDeadline: '10m' });
  const d = [group(0, '', ['a'])];
  const failed = [work('a', { applied: 'False', appliedChanged: 5 * MIN })];
  assert.deepEqual(timedOut(rolloutView(s, d, failed, T + 12 * MIN)), {});
  assert.equal(timedOut(rolloutView(s, d, failed, T + 15 * MIN)).a?.at, at(15 * MIN));
  // Applied but Degraded is failed too, from the same moment.
  const degraded = [work('a', { applied: 'True', appliedChanged: 5 * MIN, degraded: true })];
  assert.deepEqual(timedOut(rolloutView(s, d, degraded, T + 12 * MIN)), {});
  assert.equal(timedOut(rolloutView(s, d, degraded, T + 15 * MIN)).a?.at, at(15 * MIN));
});

test('an Available work, one not applied yet and one of an earlier template never time out', () => {
  const s = set({ progressDeadline: '1m' });
  const d = [group(0, '', ['a', 'b', 'c', 'd'])];
  const w = [
    work('a', { applied: 'True', available: 'True' }),
    work('b'),
    work('c', { applied: 'False', outdated: true }),
  ];
  assert.deepEqual(timedOut(rolloutView(s, d, w, T + 60 * MIN)), {});
});

test('no deadline, None, or one OCM cannot parse: nothing times out', () => {
  const d = [group(0, '', ['a'])];
  const w = [work('a', { applied: 'False' })];
  for (const progressDeadline of [undefined, 'None', '1.5h', 'soon', '10'])
    assert.deepEqual(timedOut(rolloutView(set({ progressDeadline }), d, w, T + 1000 * MIN)), {}, progressDeadline);
  assert.deepEqual(progressDeadline({ type: 'All', all: { progressDeadline: '1h30m' } }), {
    text: '1h30m',
    ms: 90 * MIN,
  });
  // Each strategy reads only its own field.
  assert.equal(progressDeadline({ type: 'Progressive', all: { progressDeadline: '1m' } }), undefined);
});

test('within maxFailures a timeout does not stop the rollout; a mandatory group tolerates none', () => {
  const d = [group(0, 'canary', ['c']), group(1, '', ['a', 'b'])];
  const w = [work('c', { applied: 'True', available: 'True' }), work('a', { applied: 'False' })];
  const now = T + 20 * MIN;
  // 50% of a group of two is one failure tolerated.
  assert.deepEqual(timedOut(rolloutView(set({ progressDeadline: '10m', maxFailures: '50%' }), d, w, now)), {
    a: { deadline: '10m', at: at(10 * MIN) },
  });
  // A count above the group's size is read as none tolerated.
  assert.deepEqual(timedOut(rolloutView(set({ progressDeadline: '10m', maxFailures: 3 }), d, w, now)).a?.stops, {
    failures: 1,
    maxFailures: 0,
    over: 'group',
  });
  const canary = [work('c', { applied: 'True' })];
  const v = rolloutView(set({ progressDeadline: '10m', maxFailures: '100%', canary: true }), d, canary, now);
  assert.deepEqual(timedOut(v).c?.stops, { failures: 1, maxFailures: 0, over: 'group' });
});

test('Progressive counts failures over every cluster; All never stops for one', () => {
  const d = [group(0, '', ['a', 'b', 'c'])];
  const w = [work('a', { applied: 'False' }), work('b', { applied: 'True' })];
  const now = T + 20 * MIN;
  const progressive = rolloutView(set({ type: 'Progressive', progressDeadline: '10m', maxFailures: 1 }), d, w, now);
  assert.deepEqual(timedOut(progressive).a?.stops, { failures: 2, maxFailures: 1, over: 'clusters' });
  const all = rolloutView(set({ type: 'All', progressDeadline: '10m' }), d, w, now);
  assert.deepEqual(Object.keys(timedOut(all)), ['a', 'b']);
  assert.equal(timedOut(all).a?.stops, undefined);
});
