// The sandbox fleet's first cluster is an Open Cluster Management hub: what a client of the hub
// reads of each OCM kind, checked against OCM v1.0.0's behaviour (conformance/checks/ocm.ts
// compares the same with a real hub).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import type { ResourceType } from '../../olm/resources/common';
import { clientAs, ensureNamespace, waitFor } from '../../server/testing/cluster';
import { startSandboxFleet, type SandboxFleet } from '../fleet';

const C = 'cluster.open-cluster-management.io';
const W = 'work.open-cluster-management.io';
const t = (group: string, version: string, plural: string, kind: string, namespaced = true): ResourceType => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});
const MANAGED_CLUSTER = t(C, 'v1', 'managedclusters', 'ManagedCluster', false);
const CLUSTER_SET = t(C, 'v1beta2', 'managedclustersets', 'ManagedClusterSet', false);
const BINDING = t(C, 'v1beta2', 'managedclustersetbindings', 'ManagedClusterSetBinding');
const PLACEMENT = t(C, 'v1beta1', 'placements', 'Placement');
const DECISION = t(C, 'v1beta1', 'placementdecisions', 'PlacementDecision');
const CLAIM = t(C, 'v1alpha1', 'clusterclaims', 'ClusterClaim', false);
const WORK = t(W, 'v1', 'manifestworks', 'ManifestWork');
const MWRS = t(W, 'v1alpha1', 'manifestworkreplicasets', 'ManifestWorkReplicaSet');
const CONFIG_MAP = t('', 'v1', 'configmaps', 'ConfigMap');

type Obj = {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; finalizers?: string[] };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown> & {
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
};
const conditions = (o: Obj) =>
  (o.status?.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`).sort();

let dir: string;
let fleet: SandboxFleet;
let hub: KubeClient;
let member: KubeClient;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'olm-ocm-'));
  fleet = await startSandboxFleet({
    count: 2,
    kubeconfigPath: join(dir, 'kubeconfig'),
    seed: false,
    deploymentDelayMs: 0,
  });
  hub = clientAs(fleet.clusters[0]!.sandbox, 'admin');
  member = clientAs(fleet.clusters[1]!.sandbox, 'admin');
});
after(async () => {
  await fleet.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function absent(c: KubeClient, type: ResourceType, name: string, namespace?: string): Promise<boolean> {
  try {
    await c.get(type, name, namespace);
    return false;
  } catch (err) {
    if (isKubeError(err, 404)) return true;
    throw err;
  }
}

test('the hub lists every cluster, itself as local-cluster, joined and available with its address and CA', async () => {
  const list = (await hub.list<Obj>(MANAGED_CLUSTER)).items;
  assert.deepEqual(list.map((m) => m.metadata.name).sort(), ['local-cluster', 'prod-west']);
  const west = list.find((m) => m.metadata.name === 'prod-west')!;
  const sb = fleet.clusters[1]!.sandbox;
  assert.deepEqual(west.spec?.managedClusterClientConfigs, [
    { url: sb.url, caBundle: Buffer.from(sb.caPem).toString('base64') },
  ]);
  assert.equal(west.spec?.hubAcceptsClient, true);
  assert.equal(west.metadata.labels?.['cluster.open-cluster-management.io/clusterset'], 'default');
  assert.deepEqual(conditions(west), [
    'HubAcceptedManagedCluster=True HubClusterAdminAccepted: Accepted by hub cluster admin',
    'ManagedClusterConditionAvailable=True ManagedClusterAvailable: Managed cluster is available',
    'ManagedClusterConditionClockSynced=True ManagedClusterClockSynced: ' +
      'The clock of the managed cluster is synced with the hub.',
    'ManagedClusterJoined=True ManagedClusterJoined: Managed cluster joined',
  ]);
  // The registration controller's two sets; the hub made each cluster's namespace.
  const sets = (await hub.list<Obj>(CLUSTER_SET)).items;
  assert.deepEqual(
    sets.map((s) => [s.metadata.name, conditions(s)]),
    [
      ['default', ['ClusterSetEmpty=False ClustersSelected: 2 ManagedClusters selected']],
      ['global', ['ClusterSetEmpty=False ClustersSelected: 2 ManagedClusters selected']],
    ],
  );
  assert.equal(await absent(hub, t('', 'v1', 'namespaces', 'Namespace', false), 'prod-west'), false);
});

test("a ClusterClaim made on a member shows in its ManagedCluster's clusterClaims", async () => {
  await member.create(CLAIM, { metadata: { name: 'region.open-cluster-management.io' }, spec: { value: 'us-west-2' } });
  const claims = await waitFor('the claim on the hub', async () => {
    const mc = await hub.get<Obj>(MANAGED_CLUSTER, 'prod-west');
    return (mc.status?.clusterClaims as unknown[] | undefined)?.length ? mc.status!.clusterClaims : undefined;
  });
  assert.deepEqual(claims, [{ name: 'region.open-cluster-management.io', value: 'us-west-2' }]);
});

test('a Placement decides as OCM does: bound sets, label predicates, numberOfClusters, decision groups', async () => {
  await ensureNamespace(hub, 'place');
  // No binding yet: nothing is eligible.
  await hub.create(PLACEMENT, { metadata: { name: 'unbound', namespace: 'place' }, spec: {} });
  const unbound = await waitFor('unbound status', async () => {
    const p = await hub.get<Obj>(PLACEMENT, 'unbound', 'place');
    return p.status?.conditions ? p : undefined;
  });
  assert.ok(
    conditions(unbound).includes(
      'PlacementSatisfied=False NoManagedClusterSetBindings: ' +
        'No valid ManagedClusterSetBindings found in placement namespace',
    ),
  );
  await hub.create(BINDING, { metadata: { name: 'default', namespace: 'place' }, spec: { clusterSet: 'default' } });
  await hub.create(PLACEMENT, {
    metadata: { name: 'each', namespace: 'place' },
    spec: { decisionStrategy: { groupStrategy: { clustersPerDecisionGroup: 1 } } },
  });
  await hub.create(PLACEMENT, {
    metadata: { name: 'one', namespace: 'place' },
    spec: { numberOfClusters: 1 },
  });
  await hub.create(PLACEMENT, {
    metadata: { name: 'none', namespace: 'place' },
    spec: { predicates: [{ requiredClusterSelector: { labelSelector: { matchLabels: { env: 'nowhere' } } } }] },
  });
  const decided = async (placement: string) =>
    (await hub.list<Obj>(DECISION, { namespace: 'place', labelSelector: `${C}/placement=${placement}` })).items
      .map((d) => [
        d.metadata.name,
        d.metadata.labels?.[`${C}/decision-group-index`],
        ((d.status?.decisions as { clusterName: string; reason: string }[] | undefined) ?? []).map(
          (x) => x.clusterName,
        ),
      ])
      .sort();
  await waitFor('each decided', async () => ((await decided('each')).length === 2 ? true : undefined));
  assert.deepEqual(await decided('each'), [
    ['each-decision-1', '0', ['local-cluster']],
    ['each-decision-2', '1', ['prod-west']],
  ]);
  const each = await hub.get<Obj>(PLACEMENT, 'each', 'place');
  assert.equal(each.status?.numberOfSelectedClusters, 2);
  assert.ok(
    conditions(each).includes('PlacementSatisfied=True AllDecisionsScheduled: All cluster decisions scheduled'),
  );
  assert.deepEqual(await decided('one'), [['one-decision-1', '0', ['local-cluster']]]);
  const none = await hub.get<Obj>(PLACEMENT, 'none', 'place');
  assert.ok(
    conditions(none).includes(
      'PlacementSatisfied=False NoManagedClusterMatched: No ManagedCluster matches any of the cluster predicate',
    ),
  );
  assert.deepEqual(await decided('none'), [['none-decision-1', '0', []]]);
  // Labelling a cluster brings it into a Placement that selects by that label.
  const west = await hub.get<Obj>(MANAGED_CLUSTER, 'prod-west');
  await hub.replace(MANAGED_CLUSTER, {
    ...west,
    metadata: { ...west.metadata, labels: { ...west.metadata.labels, env: 'nowhere' } },
  });
  await waitFor('none decides prod-west', async () =>
    JSON.stringify(await decided('none')).includes('prod-west') ? true : undefined,
  );
});

test('a ManifestWork is applied on the member it names, reports its status and feedback, and is removed', async () => {
  await hub.create(WORK, {
    metadata: { name: 'hello', namespace: 'prod-west' },
    spec: {
      workload: {
        manifests: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hello', namespace: 'default' }, data: { a: 'b' } },
        ],
      },
      manifestConfigs: [
        {
          resourceIdentifier: { resource: 'configmaps', name: 'hello', namespace: 'default' },
          feedbackRules: [{ type: 'JSONPaths', jsonPaths: [{ name: 'a', path: '.data.a' }] }],
        },
      ],
    },
  });
  const work = await waitFor('the work to be available', async () => {
    const w = await hub.get<Obj>(WORK, 'hello', 'prod-west');
    return conditions(w).some((c) => c.startsWith('Available=True')) ? w : undefined;
  });
  assert.deepEqual(conditions(work), [
    'Applied=True AppliedManifestWorkComplete: Apply manifest work complete',
    'Available=True ResourcesAvailable: All resources are available',
  ]);
  const [m] = (work.status?.resourceStatus as { manifests: Obj[] & Record<string, unknown>[] }).manifests;
  assert.deepEqual(m!.resourceMeta, {
    group: '',
    kind: 'ConfigMap',
    name: 'hello',
    namespace: 'default',
    ordinal: 0,
    resource: 'configmaps',
    version: 'v1',
  });
  assert.deepEqual(m!.statusFeedback, { values: [{ name: 'a', fieldValue: { type: 'String', string: 'b' } }] });
  assert.deepEqual(work.metadata.finalizers, ['cluster.open-cluster-management.io/manifest-work-cleanup']);
  // On the member, not on the hub.
  assert.deepEqual((await member.get<{ data: unknown }>(CONFIG_MAP, 'hello', 'default')).data, { a: 'b' });
  assert.equal(await absent(hub, CONFIG_MAP, 'hello', 'default'), true);

  await hub.delete(WORK, 'hello', { namespace: 'prod-west' });
  await waitFor('the ConfigMap removed', async () =>
    (await absent(member, CONFIG_MAP, 'hello', 'default')) ? true : undefined,
  );
  await waitFor('the work gone', async () => ((await absent(hub, WORK, 'hello', 'prod-west')) ? true : undefined));
});

test('a manifest the member refuses fails the work with the reason', async () => {
  await hub.create(WORK, {
    metadata: { name: 'nowhere', namespace: 'prod-west' },
    spec: {
      workload: {
        manifests: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'no-such-ns' }, data: {} },
        ],
      },
    },
  });
  const work = await waitFor('the work status', async () => {
    const w = await hub.get<Obj>(WORK, 'nowhere', 'prod-west');
    return w.status?.conditions?.length ? w : undefined;
  });
  assert.deepEqual(conditions(work), [
    'Applied=False AppliedManifestWorkFailed: Failed to apply manifest work',
    'Available=False ResourcesNotAvailable: 1 of 1 resources are not available',
  ]);
  await hub.delete(WORK, 'nowhere', { namespace: 'prod-west' });
});

async function mwrs(name: string, strategy: Record<string, unknown>, manifests: unknown[]): Promise<void> {
  await hub.create(MWRS, {
    metadata: { name, namespace: 'place' },
    spec: {
      placementRefs: [{ name: 'each', rolloutStrategy: strategy }],
      manifestWorkTemplate: { workload: { manifests } },
    },
  });
}

const worksOf = async (name: string) =>
  (await hub.list<Obj>(WORK, { labelSelector: `${W}/manifestworkreplicaset=place.${name}` })).items
    .map((w) => w.metadata.namespace)
    .sort();

test('a ManifestWorkReplicaSet rolls out to every decided cluster and sums up their works', async () => {
  await mwrs('all', { type: 'All' }, [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-mwrs', namespace: 'default' }, data: { x: 'y' } },
  ]);
  const set = await waitFor('the set rolled out', async () => {
    const s = await hub.get<Obj>(MWRS, 'all', 'place');
    return conditions(s).some((c) => c.startsWith('ManifestworkApplied=True')) ? s : undefined;
  });
  assert.deepEqual(await worksOf('all'), ['local-cluster', 'prod-west']);
  assert.deepEqual(conditions(set), [
    'ManifestworkApplied=True AsExpected: ',
    'PlacementRolledOut=True Complete: ',
    'PlacementVerified=True AsExpected: ',
  ]);
  assert.deepEqual(set.status?.summary, { Applied: 2, available: 2, total: 2 });
  assert.deepEqual(set.status?.placementSummary, [
    {
      name: 'each',
      availableDecisionGroups: '2 (2 / 2 clusters applied)',
      summary: { total: 2, Applied: 2, available: 2, degraded: 0, progressing: 0 },
    },
  ]);
  assert.deepEqual((await member.get<{ data: unknown }>(CONFIG_MAP, 'from-mwrs', 'default')).data, { x: 'y' });
  // Deleted: its works go, and their objects with them.
  await hub.delete(MWRS, 'all', { namespace: 'place' });
  await waitFor('its works gone', async () => ((await worksOf('all')).length === 0 ? true : undefined));
  await waitFor('the object gone', async () =>
    (await absent(member, CONFIG_MAP, 'from-mwrs', 'default')) ? true : undefined,
  );
});

test('ProgressivePerGroup stops at a group whose work failed', async () => {
  await mwrs('waves', { type: 'ProgressivePerGroup' }, [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'no-such-ns' }, data: {} },
  ]);
  const set = await waitFor('the first wave failed', async () => {
    const s = await hub.get<Obj>(MWRS, 'waves', 'place');
    return (s.status?.placementSummary as unknown[] | undefined)?.length ? s : undefined;
  });
  // Only the first decision group's cluster has a work; the second waits for it to succeed.
  assert.deepEqual(await worksOf('waves'), ['local-cluster']);
  assert.deepEqual(conditions(set), [
    'ManifestworkApplied=False NotAsExpected: ',
    'PlacementRolledOut=False Progressing: ',
    'PlacementVerified=True AsExpected: ',
  ]);
  assert.deepEqual(set.status?.summary, { total: 1 });
});

test('a ManifestWorkReplicaSet naming no Placement says so', async () => {
  await hub.create(MWRS, {
    metadata: { name: 'lost', namespace: 'place' },
    spec: {
      placementRefs: [{ name: 'missing', rolloutStrategy: { type: 'All' } }],
      manifestWorkTemplate: { workload: { manifests: [] } },
    },
  });
  const set = await waitFor('the set status', async () => {
    const s = await hub.get<Obj>(MWRS, 'lost', 'place');
    return s.status?.conditions ? s : undefined;
  });
  assert.deepEqual(conditions(set), ['PlacementVerified=False PlacementDecisionNotFound: ']);
});

test('a cluster a named decision group takes is not in the rest of the groups', async () => {
  const west = await hub.get<Obj>(MANAGED_CLUSTER, 'prod-west');
  await hub.replace(MANAGED_CLUSTER, {
    ...west,
    metadata: { ...west.metadata, labels: { ...west.metadata.labels, wave: 'first' } },
  });
  await hub.create(PLACEMENT, {
    metadata: { name: 'grouped', namespace: 'place' },
    spec: {
      decisionStrategy: {
        groupStrategy: {
          decisionGroups: [
            {
              groupName: 'first',
              groupClusterSelector: {
                labelSelector: { matchLabels: { wave: 'first' } },
              },
            },
          ],
          clustersPerDecisionGroup: 2,
        },
      },
    },
  });
  const decided = await waitFor('grouped decided', async () => {
    const list = await hub.list<Obj>(DECISION, { namespace: 'place', labelSelector: `${C}/placement=grouped` });
    return list.items.length ? list.items : undefined;
  });
  assert.deepEqual(
    decided
      .map((d) => [
        d.metadata.labels?.[`${C}/decision-group-name`],
        ((d.status?.decisions as { clusterName: string }[] | undefined) ?? []).map((x) => x.clusterName),
      ])
      .sort(),
    [
      ['', ['local-cluster']],
      ['first', ['prod-west']],
    ],
  );
});

test('a work that orphans leaves its objects; a later work applies over them; CEL rules set conditions', async () => {
  const rules = [
    {
      resourceIdentifier: { resource: 'configmaps', name: 'kept', namespace: 'default' },
      conditionRules: [
        {
          condition: 'Available',
          type: 'CEL',
          celExpressions: ["has(object.data) && object.data.exists(k, k == 'greeting')"],
          message: 'it greets',
        },
        { condition: 'Farewell', type: 'CEL', celExpressions: ["object.data.greeting == 'bye'"] },
      ],
    },
  ];
  const cm = (greeting: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kept', namespace: 'default' },
    data: { greeting },
  });
  const manifestConditions = (w: Obj) =>
    conditions({
      metadata: w.metadata,
      status: (w.status?.resourceStatus as { manifests: Obj['status'][] }).manifests[0],
    });
  await hub.create(WORK, {
    metadata: { name: 'orphan-1', namespace: 'prod-west' },
    spec: {
      workload: { manifests: [cm('hello')] },
      deleteOption: { propagationPolicy: 'Orphan' },
      manifestConfigs: rules,
    },
  });
  const first = await waitFor('the first work judged', async () => {
    const w = await hub.get<Obj>(WORK, 'orphan-1', 'prod-west');
    return conditions(w).some((c) => c.startsWith('Available=')) ? w : undefined;
  });
  assert.deepEqual(manifestConditions(first), [
    'Applied=True AppliedManifestComplete: Apply manifest complete',
    'Available=True ConditionRuleEvaluated: it greets',
    'Farewell=False ConditionRuleEvaluated: Manifest is not Farewell',
    'StatusFeedbackSynced=True NoStatusFeedbackSynced: ',
  ]);
  await hub.delete(WORK, 'orphan-1', { namespace: 'prod-west' });
  await waitFor('the work gone', async () => ((await absent(hub, WORK, 'orphan-1', 'prod-west')) ? true : undefined));
  assert.deepEqual((await member.get<{ data: unknown }>(CONFIG_MAP, 'kept', 'default')).data, { greeting: 'hello' });

  await hub.create(WORK, {
    metadata: { name: 'orphan-2', namespace: 'prod-west' },
    spec: {
      workload: { manifests: [cm('bye')] },
      deleteOption: { propagationPolicy: 'Orphan' },
      manifestConfigs: rules,
    },
  });
  const second = await waitFor('the second work judged', async () => {
    const w = await hub.get<Obj>(WORK, 'orphan-2', 'prod-west');
    return w.status?.resourceStatus ? w : undefined;
  });
  assert.ok(manifestConditions(second).includes('Farewell=True ConditionRuleEvaluated: Manifest is Farewell'));
  assert.deepEqual((await member.get<{ data: unknown }>(CONFIG_MAP, 'kept', 'default')).data, { greeting: 'bye' });
  await hub.delete(WORK, 'orphan-2', { namespace: 'prod-west' });
  await waitFor('the work gone', async () => ((await absent(hub, WORK, 'orphan-2', 'prod-west')) ? true : undefined));
  assert.equal(await absent(member, CONFIG_MAP, 'kept', 'default'), false);
});
