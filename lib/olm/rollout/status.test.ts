// Reading a rollout back from the hub. The facts have the shapes a real OCM v1.0.0 hub wrote
// (PlacementDecisions labelled cluster.open-cluster-management.io/decision-group-index and -name,
// cluster/v1beta1 types_placementdecision.go; ManifestWork status with per-manifest conditions and
// statusFeedback values, work/v1 types.go), as lib/server/rollouts/rollout.cluster.test.ts reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ManifestWorkLike, PlacementDecisionLike } from './status';
import { rolloutView } from './status';

const template = { workload: { manifests: [{ kind: 'Subscription', spec: { channel: '3.18' } }] } };
// No rule here times a cluster out (no progressDeadline): timeouts.test.ts.
const NOW = Date.parse('2026-11-29T12:00:00Z');
const mwrs = { metadata: { name: 'gk', namespace: 'rollouts' }, spec: { manifestWorkTemplate: template } };

function decision(index: number, name: string, clusters: string[]): PlacementDecisionLike {
  return {
    metadata: {
      name: `gk-decision-${index + 1}`,
      labels: {
        'cluster.open-cluster-management.io/placement': 'gk',
        'cluster.open-cluster-management.io/decision-group-index': String(index),
        'cluster.open-cluster-management.io/decision-group-name': name,
      },
    },
    status: { decisions: clusters.map((clusterName) => ({ clusterName, reason: '' })) },
  };
}

type WorkFacts = {
  spec?: unknown;
  generation?: number;
  observed?: number;
  applied?: 'True' | 'False';
  available?: 'True' | 'False';
  ruleMessage?: string;
  feedback?: Record<string, string>;
};
function work(cluster: string, f: WorkFacts = {}): ManifestWorkLike {
  const generation = f.generation ?? 1;
  const observedGeneration = f.observed ?? generation;
  const conditions = [
    ...(f.applied
      ? [{ type: 'Applied', status: f.applied, reason: 'AppliedManifestWorkComplete', observedGeneration }]
      : []),
    ...(f.available
      ? [{ type: 'Available', status: f.available, reason: 'ResourcesAvailable', observedGeneration }]
      : []),
  ];
  return {
    metadata: {
      name: 'gk',
      namespace: cluster,
      generation,
      labels: { 'work.open-cluster-management.io/manifestworkreplicaset': 'rollouts.gk' },
    },
    spec: f.spec ?? template,
    status: {
      conditions,
      resourceStatus: {
        manifests: [
          {
            resourceMeta: { kind: 'Subscription', name: 'gatekeeper-operator-product', namespace: 'gatekeeper-system' },
            statusFeedback: {
              values: Object.entries(f.feedback ?? {}).map(([name, v]) => ({
                name,
                fieldValue: { type: 'String', string: v },
              })),
            },
            conditions: f.available
              ? [{ type: 'Available', status: f.available, reason: 'ConditionRuleEvaluated', message: f.ruleMessage }]
              : [],
          },
        ],
      },
    },
  };
}

test('waves follow the decision groups, the canary first, each cluster with its version from feedback', () => {
  const v = rolloutView(
    mwrs,
    [decision(1, '', ['local-cluster']), decision(0, 'canary', ['cluster2'])],
    [
      work('cluster2', {
        applied: 'True',
        available: 'True',
        feedback: { installedCSV: 'gatekeeper-operator-product.v3.18.1', state: 'AtLatestKnown' },
      }),
    ],
    NOW,
  );
  assert.deepEqual(
    v.waves.map((w) => [w.index, w.name, w.clusters.map((c) => `${c.cluster}:${c.state}`)]),
    [
      [0, 'canary', ['cluster2:healthy']],
      [1, '', ['local-cluster:waiting']],
    ],
  );
  assert.equal(v.waves[0]!.clusters[0]!.feedback.installedCSV, 'gatekeeper-operator-product.v3.18.1');
});

test('a work with an earlier template is outdated, whatever its conditions say', () => {
  const old = { workload: { manifests: [{ kind: 'Subscription', spec: { channel: '3.17' } }] } };
  const v = rolloutView(
    mwrs,
    [decision(0, '', ['a'])],
    [work('a', { spec: old, applied: 'True', available: 'True' })],
    NOW,
  );
  assert.equal(v.waves[0]!.clusters[0]!.state, 'outdated');
});

test("the same template with its keys in another order, or with the CRD's empty defaults, is current", () => {
  // A real hub's ManifestWork carries `messageExpression: ""` its ManifestWorkReplicaSet's template lacks.
  const reordered = { workload: { manifests: [{ spec: { channel: '3.18' }, kind: 'Subscription', extra: '' }] } };
  const v = rolloutView(
    mwrs,
    [decision(0, '', ['a'])],
    [work('a', { spec: reordered, applied: 'True', available: 'True' })],
    NOW,
  );
  assert.equal(v.waves[0]!.clusters[0]!.state, 'healthy');
});

test("conditions of the work's previous generation do not count as healthy: still applying", () => {
  const v = rolloutView(
    mwrs,
    [decision(0, '', ['a'])],
    [work('a', { generation: 2, observed: 1, applied: 'True', available: 'True' })],
    NOW,
  );
  assert.equal(v.waves[0]!.clusters[0]!.state, 'applying');
});

test("applied but its health rule false: unhealthy, with the rule's message; not applied: failed", () => {
  const v = rolloutView(
    mwrs,
    [decision(0, '', ['a', 'b'])],
    [
      work('a', { applied: 'True', available: 'False', ruleMessage: 'healthy when the Subscription is AtLatestKnown' }),
      work('b', { applied: 'False' }),
    ],
    NOW,
  );
  assert.deepEqual(
    v.waves[0]!.clusters.map((c) => [c.cluster, c.state, c.message]),
    [
      ['a', 'unhealthy', 'healthy when the Subscription is AtLatestKnown'],
      ['b', 'failed', undefined],
    ],
  );
});

test('a work on a cluster the Placement no longer picks is listed as leaving', () => {
  const v = rolloutView(mwrs, [decision(0, '', ['a'])], [work('a'), work('gone')], NOW);
  assert.deepEqual(v.leaving, ['gone']);
  assert.equal(v.waves[0]!.clusters[0]!.state, 'applying');
});

test("with an OperatorPolicy, each cluster's compliance in the policy's words, or why it is unknown", () => {
  const policyTemplate = {
    workload: {
      manifests: [
        {
          kind: 'OperatorPolicy',
          metadata: { name: 'gk', namespace: 'open-cluster-management-policies' },
          spec: { upgradeApproval: 'None', subscription: { name: 'gatekeeper-operator-product' } },
        },
      ],
    },
  };
  const set = { ...mwrs, spec: { manifestWorkTemplate: policyTemplate } };
  const message = 'Compliant; the policy spec is valid, the OperatorGroup matches what is required by the policy';
  const compliantWork = work('a', { spec: policyTemplate, applied: 'True', available: 'True' });
  // The agent reports the generations as integers (work/v1 FieldValue type Integer).
  compliantWork.status!.resourceStatus!.manifests![0]!.statusFeedback = {
    values: [
      { name: 'compliant', fieldValue: { type: 'String', string: 'Compliant' } },
      { name: 'compliantMessage', fieldValue: { type: 'String', string: message } },
      { name: 'observedGeneration', fieldValue: { type: 'Integer', integer: 1 } },
      { name: 'generation', fieldValue: { type: 'Integer', integer: 1 } },
    ],
  };
  const v = rolloutView(
    set,
    [decision(0, '', ['a', 'b', 'c', 'd'])],
    [
      compliantWork,
      // Applied, but nothing on the cluster evaluates it: the health rule stays false.
      work('b', { spec: policyTemplate, applied: 'True', available: 'False' }),
      // Refused by the cluster (no OperatorPolicy kind there).
      work('c', { spec: policyTemplate, applied: 'False' }),
    ],
    NOW,
  );
  assert.deepEqual(
    v.waves[0]!.clusters.map((c) => [c.cluster, c.state, c.compliance?.state, c.compliance?.current]),
    [
      ['a', 'healthy', 'Compliant', true],
      ['b', 'unhealthy', 'unknown', true],
      ['c', 'failed', 'unknown', true],
      ['d', 'waiting', 'unknown', true],
    ],
  );
  assert.equal(v.waves[0]!.clusters[0]!.compliance!.message, message);
  assert.match(v.waves[0]!.clusters[1]!.compliance!.message, /status is empty/);
  assert.match(v.waves[0]!.clusters[2]!.compliance!.message, /not on the cluster/);
  assert.deepEqual(
    [v.operatorPolicy?.namespace, v.operatorPolicy?.upgradeApproval],
    ['open-cluster-management-policies', 'None'],
  );
  assert.ok(v.operatorPolicy!.behaviour.length > 0);
});

test('a rollout without an OperatorPolicy has no compliance on its rows', () => {
  const v = rolloutView(mwrs, [decision(0, '', ['a'])], [work('a', { applied: 'True', available: 'True' })], NOW);
  assert.equal(v.waves[0]!.clusters[0]!.compliance, undefined);
  assert.equal(v.operatorPolicy, undefined);
});
