// The hub objects of a rollout, against OCM v1.0.0's API (open-cluster-management-io/api v1.0.0):
// cluster/v1beta1 types_placement.go (Placement, DecisionStrategy), cluster/v1alpha1
// types_rolloutstrategy.go (ProgressivePerGroup, MandatoryDecisionGroups), work/v1alpha1
// types_manifestworkreplicaset.go and work/v1 types.go (ManifestConfigOption, FeedbackRule,
// ConditionRule). scripts/ and lib/server/rollouts/rollout.cluster.test.ts apply them to a real hub.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RolloutChoices } from './choices';
import { choicesProblems } from './choices';
import { clusterSetBindings, manifestWorkReplicaSet, placement } from './hub-objects';

function choices(over: Partial<RolloutChoices> = {}): RolloutChoices {
  return {
    name: 'gatekeeper',
    hubNamespace: 'rollouts',
    olm: 'v0',
    package: 'gatekeeper-operator-product',
    channel: '3.18',
    version: 'gatekeeper-operator-product.v3.18.0',
    approval: 'Automatic',
    installNamespace: 'gatekeeper-system',
    catalog: { name: 'redhat-operators', namespace: 'openshift-marketplace' },
    placement: { clusterSets: ['default'] },
    canary: { canary: 'true' },
    waveSize: 2,
    ...over,
  };
}

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const spec = (o: Record<string, unknown>) => o.spec as Spec;

test('the canary is a named decision group; the other clusters go in groups of at most the wave size', () => {
  const p = placement(choices());
  assert.deepEqual(spec(p).decisionStrategy, {
    groupStrategy: {
      decisionGroups: [
        { groupName: 'canary', groupClusterSelector: { labelSelector: { matchLabels: { canary: 'true' } } } },
      ],
      clustersPerDecisionGroup: 2,
    },
  });
  assert.deepEqual(spec(p).clusterSets, ['default']);
});

test('labels and claims become one required cluster selector; none leaves the predicates out', () => {
  const p = placement(
    choices({
      placement: {
        clusterSets: ['prod'],
        labels: { region: 'eu' },
        claims: [{ key: 'platform.open-cluster-management.io', operator: 'In', values: ['AWS'] }],
      },
    }),
  );
  assert.deepEqual(spec(p).predicates, [
    {
      requiredClusterSelector: {
        labelSelector: { matchLabels: { region: 'eu' } },
        claimSelector: {
          matchExpressions: [{ key: 'platform.open-cluster-management.io', operator: 'In', values: ['AWS'] }],
        },
      },
    },
  ]);
  assert.equal(spec(placement(choices())).predicates, undefined);
});

test('the rollout goes group by group, the canary mandatory, no failure tolerated', () => {
  const ref = spec(manifestWorkReplicaSet(choices({ progressDeadline: '10m', minSuccessTime: '1m' }))).placementRefs;
  assert.deepEqual(ref, [
    {
      name: 'gatekeeper',
      rolloutStrategy: {
        type: 'ProgressivePerGroup',
        progressivePerGroup: {
          mandatoryDecisionGroups: [{ groupName: 'canary' }],
          progressDeadline: '10m',
          minSuccessTime: '1m',
          maxFailures: 0,
        },
      },
    },
  ]);
  // Without a deadline OCM waits for ever ("None", its default).
  const noCanary = spec(manifestWorkReplicaSet(choices({ canary: undefined }))).placementRefs[0].rolloutStrategy;
  assert.deepEqual(noCanary.progressivePerGroup, { progressDeadline: 'None', maxFailures: 0 });
});

test('v0: Namespace, an all-namespaces OperatorGroup and the Subscription with approval and starting CSV', () => {
  const t = spec(manifestWorkReplicaSet(choices({ approval: 'Manual' }))).manifestWorkTemplate;
  assert.deepEqual(
    t.workload.manifests.map((m: Spec) => `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`),
    [
      'Namespace /gatekeeper-system',
      'OperatorGroup gatekeeper-system/gatekeeper-system-operators',
      'Subscription gatekeeper-system/gatekeeper-operator-product',
    ],
  );
  assert.deepEqual(t.workload.manifests[2].spec, {
    name: 'gatekeeper-operator-product',
    source: 'redhat-operators',
    sourceNamespace: 'openshift-marketplace',
    channel: '3.18',
    startingCSV: 'gatekeeper-operator-product.v3.18.0',
    installPlanApproval: 'Manual',
  });
  assert.deepEqual(t.deleteOption, { propagationPolicy: 'Orphan' });
});

test("v0: the Subscription's installed CSV and state come back, and its health is the work's Available", () => {
  const [config] = spec(manifestWorkReplicaSet(choices())).manifestWorkTemplate.manifestConfigs;
  assert.deepEqual(config.resourceIdentifier, {
    group: 'operators.coreos.com',
    resource: 'subscriptions',
    name: 'gatekeeper-operator-product',
    namespace: 'gatekeeper-system',
  });
  assert.equal(config.feedbackRules[0].type, 'JSONPaths');
  const paths = Object.fromEntries(config.feedbackRules[0].jsonPaths.map((p: Spec) => [p.name, p.path]));
  assert.equal(paths.installedCSV, '.status.installedCSV');
  assert.equal(paths.state, '.status.state');
  assert.equal(config.conditionRules[0].condition, 'Available');
  assert.equal(config.conditionRules[0].type, 'CEL');
});

test('v0 with an OperatorPolicy: the policy makes the Subscription, its compliance is the health', () => {
  const c = choices({
    approval: undefined,
    operatorPolicy: {
      namespace: 'open-cluster-management-policies',
      allowedVersions: ['gatekeeper-operator-product.v3.18.1'],
      upgradeApproval: 'None',
    },
  });
  assert.deepEqual(choicesProblems(c), []);
  const t = spec(manifestWorkReplicaSet(c)).manifestWorkTemplate;
  assert.deepEqual(
    t.workload.manifests.map((m: Spec) => m.kind),
    ['Namespace', 'OperatorPolicy'],
  );
  const policy = t.workload.manifests[1];
  assert.equal(policy.apiVersion, 'policy.open-cluster-management.io/v1beta1');
  assert.equal(policy.metadata.namespace, 'open-cluster-management-policies');
  assert.equal(policy.spec.complianceType, 'musthave');
  assert.equal(policy.spec.remediationAction, 'enforce');
  assert.equal(policy.spec.upgradeApproval, 'None');
  assert.deepEqual(policy.spec.versions, ['gatekeeper-operator-product.v3.18.1']);
  // config-policy-controller v0.16.0 buildSubscription: "installPlanApproval is prohibited in
  // spec.subscription"; `namespace` is the policy's own field, the rest a Subscription's spec.
  assert.deepEqual(policy.spec.subscription, {
    namespace: 'gatekeeper-system',
    name: 'gatekeeper-operator-product',
    source: 'redhat-operators',
    sourceNamespace: 'openshift-marketplace',
    channel: '3.18',
    startingCSV: 'gatekeeper-operator-product.v3.18.0',
  });
  const config = t.manifestConfigs[0];
  assert.deepEqual(config.resourceIdentifier, {
    group: 'policy.open-cluster-management.io',
    resource: 'operatorpolicies',
    name: 'gatekeeper',
    namespace: 'open-cluster-management-policies',
  });
  const paths = Object.fromEntries(config.feedbackRules[0].jsonPaths.map((p: Spec) => [p.name, p.path]));
  assert.equal(paths.compliant, '.status.compliant');
  assert.equal(paths.compliantMessage, '.status.conditions[?(@.type=="Compliant")].message');
  assert.equal(paths.observedGeneration, '.status.observedGeneration');
  assert.equal(paths.generation, '.metadata.generation');
  assert.match(config.conditionRules[0].celExpressions[0], /object\.status\.compliant == 'Compliant'/);
  assert.match(config.conditionRules[0].celExpressions[0], /observedGeneration == object\.metadata\.generation/);
});

test('an OperatorPolicy with an approval of its own is refused: the policy sets the approval itself', () => {
  const operatorPolicy = {
    namespace: 'open-cluster-management-policies',
    allowedVersions: [],
    upgradeApproval: 'None',
  };
  assert.deepEqual(choicesProblems(choices({ approval: 'Manual', operatorPolicy } as Partial<RolloutChoices>)), [
    'with an OperatorPolicy, its upgradeApproval decides the approval: leave approval out',
  ]);
});

test('v1: Namespace, installer ServiceAccount, its rights, then the ClusterExtension on the chosen catalog', () => {
  const rights = [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'x-installer' } },
  ];
  const t = spec(
    manifestWorkReplicaSet(
      choices({ olm: 'v1', approval: undefined, version: '3.18.x', catalog: { name: 'demo' } }),
      rights,
    ),
  ).manifestWorkTemplate;
  assert.deepEqual(
    t.workload.manifests.map((m: Spec) => m.kind),
    ['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterExtension'],
  );
  assert.deepEqual(t.workload.manifests[3].spec, {
    namespace: 'gatekeeper-system',
    serviceAccount: { name: 'gatekeeper-operator-product-installer' },
    source: {
      sourceType: 'Catalog',
      catalog: {
        packageName: 'gatekeeper-operator-product',
        channels: ['3.18'],
        version: '3.18.x',
        selector: { matchLabels: { 'olm.operatorframework.io/metadata.name': 'demo' } },
      },
    },
  });
  const paths = Object.fromEntries(t.manifestConfigs[0].feedbackRules[0].jsonPaths.map((p: Spec) => [p.name, p.path]));
  assert.equal(paths.bundleVersion, '.status.install.bundle.version');
  assert.equal(paths.installed, '.status.conditions[?(@.type=="Installed")].status');
});

test('a cluster set already bound to the namespace gets no second binding', () => {
  const c = choices({ placement: { clusterSets: ['default', 'prod'] } });
  assert.deepEqual(
    clusterSetBindings(c, ['default']).map((b) => `${b.kind} ${b.metadata.namespace}/${b.metadata.name}`),
    ['ManagedClusterSetBinding rollouts/prod'],
  );
});

test('bad choices are each named, in words a person can act on', () => {
  assert.deepEqual(choicesProblems(choices()), []);
  const p = choicesProblems(
    choices({ name: 'Bad_Name', waveSize: 0, progressDeadline: '10 minutes', placement: { clusterSets: [] } }),
  );
  assert.deepEqual(p, [
    'rollout name "Bad_Name" must be a DNS-1123 label',
    'choose at least one cluster set',
    'wave size must be a whole number of clusters, 1 or more',
    'progress deadline "10 minutes" must be a number and h, m or s (e.g. 10m)',
  ]);
  assert.deepEqual(choicesProblems(choices({ olm: 'v1', approval: 'Manual' })), [
    'OLM v1 has no approval: leave it out',
  ]);
});

test("an upgrade's set is the next generation: named and labelled for it, soaking a minute unless chosen", () => {
  const first = manifestWorkReplicaSet(choices({ canary: undefined }));
  assert.deepEqual(first.metadata, {
    name: 'gatekeeper',
    namespace: 'rollouts',
    labels: { 'olm-console.io/rollout': 'gatekeeper', 'olm-console.io/rollout-generation': '1' },
  });
  const third = manifestWorkReplicaSet(choices({ canary: undefined }), [], 3);
  assert.deepEqual(third.metadata, {
    name: 'gatekeeper-g3',
    namespace: 'rollouts',
    labels: { 'olm-console.io/rollout': 'gatekeeper', 'olm-console.io/rollout-generation': '3' },
  });
  // Every generation shares the rollout's Placement.
  assert.equal(spec(third).placementRefs[0].name, 'gatekeeper');
  assert.equal(spec(third).placementRefs[0].rolloutStrategy.progressivePerGroup.minSuccessTime, '1m');
  const chosen = manifestWorkReplicaSet(choices({ minSuccessTime: '5m' }), [], 2);
  assert.equal(spec(chosen).placementRefs[0].rolloutStrategy.progressivePerGroup.minSuccessTime, '5m');
});

test("a rollout's name may not look like an upgrade's, nor be too long to label its works", () =>
  assert.deepEqual(
    choicesProblems(choices({ name: 'gatekeeper-g2' })).concat(choicesProblems(choices({ name: 'a'.repeat(50) }))),
    [
      'rollout name "gatekeeper-g2" may not end in -g and a number: the console names a rollout\'s upgrades so',
      'the rollout name and hub namespace together must be at most 56 characters: OCM labels every ManifestWork ' +
        'with both',
    ],
  ));
