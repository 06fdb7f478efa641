// What a client of the sandbox's OCM hub sees of a rollout's progressDeadline and of a manifest's
// condition rules beyond plain CEL (messageExpression, WellKnownConditions), as OCM v1.0.0 has
// them (sdk-go cluster/v1alpha1/rollout.go; ocm pkg/work/spoke/conditions). conformance/checks/ocm.ts
// compares the same with a real hub.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import type { ResourceType } from '../../olm/resources/common';
import { clientAs, ensureNamespace, waitFor } from '../../server/testing/cluster';
import { startSandboxFleet, type SandboxFleet } from '../fleet';

const C = 'cluster.open-cluster-management.io';
const W = 'work.open-cluster-management.io';
const t = (group: string, version: string, plural: string, kind: string): ResourceType => ({
  group,
  version,
  plural,
  kind,
  namespaced: true,
});
const BINDING = t(C, 'v1beta2', 'managedclustersetbindings', 'ManagedClusterSetBinding');
const PLACEMENT = t(C, 'v1beta1', 'placements', 'Placement');
const WORK = t(W, 'v1', 'manifestworks', 'ManifestWork');
const MWRS = t(W, 'v1alpha1', 'manifestworkreplicasets', 'ManifestWorkReplicaSet');

type Condition = { type: string; status: string; reason: string; message: string };
type Obj = {
  metadata: { name: string; namespace?: string; creationTimestamp?: string };
  status?: { conditions?: Condition[]; resourceStatus?: { manifests?: { conditions: Condition[] }[] } };
};
const shown = (cs: Condition[] | undefined) =>
  (cs ?? []).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`).sort();

let dir: string;
let fleet: SandboxFleet;
let hub: KubeClient;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'olm-ocm-rules-'));
  fleet = await startSandboxFleet({ count: 2, kubeconfigPath: join(dir, 'kubeconfig'), seed: false });
  hub = clientAs(fleet.clusters[0]!.sandbox, 'admin');
  await ensureNamespace(hub, 'place');
  await hub.create(BINDING, { metadata: { name: 'default', namespace: 'place' }, spec: { clusterSet: 'default' } });
  await hub.create(PLACEMENT, { metadata: { name: 'each', namespace: 'place' }, spec: {} });
});
after(async () => {
  await fleet.stop();
  rmSync(dir, { recursive: true, force: true });
});

const worksOf = async (name: string) =>
  (await hub.list<Obj>(WORK, { labelSelector: `${W}/manifestworkreplicaset=place.${name}` })).items
    .map((w) => w.metadata.namespace)
    .sort();

/** A set whose work fails on every cluster (its namespace does not exist), one cluster at a time. */
async function failingSet(name: string, progressive: Record<string, unknown>): Promise<void> {
  await hub.create(MWRS, {
    metadata: { name, namespace: 'place' },
    spec: {
      placementRefs: [{ name: 'each', rolloutStrategy: { type: 'Progressive', progressive } }],
      manifestWorkTemplate: {
        workload: {
          manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'no-such-ns' }, data: {} }],
        },
      },
    },
  });
}

test('a cluster failed past the progressDeadline times out: within maxFailures the rollout moves on', async () => {
  await failingSet('deadline', { maxConcurrency: 1, maxFailures: 1, progressDeadline: '2s' });
  await failingSet('no-deadline', { maxConcurrency: 1, maxFailures: 1 });
  await waitFor('the first cluster tried', async () => ((await worksOf('deadline')).length ? true : undefined));
  assert.deepEqual(await worksOf('deadline'), ['local-cluster']);
  await waitFor('the next cluster tried', async () => ((await worksOf('deadline')).length === 2 ? true : undefined));
  // Timestamps count whole seconds: two seconds apart only if the second came after the deadline.
  const created = async (cluster: string) =>
    Date.parse((await hub.get<Obj>(WORK, 'deadline', cluster)).metadata.creationTimestamp!);
  assert.ok((await created('prod-west')) - (await created('local-cluster')) >= 2000, 'not before the deadline');
  // Without a deadline the failed cluster holds its place in flight for good.
  assert.deepEqual(await worksOf('no-deadline'), ['local-cluster']);
  const set = await hub.get<Obj>(MWRS, 'deadline', 'place');
  assert.deepEqual(shown(set.status?.conditions), [
    'ManifestworkApplied=False NotAsExpected: ',
    'PlacementRolledOut=True Complete: ',
    'PlacementVerified=True AsExpected: ',
  ]);
});

test("a condition rule's messageExpression builds its message; WellKnownConditions judge a Job", async () => {
  const rule = (condition: string, expressions: string[], more: Record<string, unknown>) => ({
    condition,
    type: 'CEL',
    celExpressions: expressions,
    ...more,
  });
  await hub.create(WORK, {
    metadata: { name: 'rules', namespace: 'prod-west' },
    spec: {
      workload: {
        manifests: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rules', namespace: 'default' }, data: { a: 'x' } },
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: { name: 'rules', namespace: 'default' },
            spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
          },
        ],
      },
      manifestConfigs: [
        {
          resourceIdentifier: { resource: 'configmaps', name: 'rules', namespace: 'default' },
          conditionRules: [
            rule('Says', ["object.data.a == 'x'"], {
              message: 'not this',
              messageExpression: "'a is ' + object.data.a + (result ? ', as hoped' : '')",
            }),
            rule('Blank', ['false'], { message: 'the message', messageExpression: "''" }),
            rule('Counts', ['true'], { messageExpression: '1 + 1' }),
            { condition: 'Complete', type: 'WellKnownConditions' },
          ],
        },
        {
          resourceIdentifier: { group: 'batch', resource: 'jobs', name: 'rules', namespace: 'default' },
          conditionRules: [
            { condition: 'Complete', type: 'WellKnownConditions' },
            { condition: 'Done', type: 'WellKnownConditions' },
          ],
        },
      ],
    },
  });
  const w = await waitFor('the job judged finished', async () => {
    const x = await hub.get<Obj>(WORK, 'rules', 'prod-west');
    return JSON.stringify(x.status ?? {}).includes('Job is finished') ? x : undefined;
  });
  const [cm, job] = w.status!.resourceStatus!.manifests!;
  assert.deepEqual(shown(cm!.conditions), [
    'Applied=True AppliedManifestComplete: Apply manifest complete',
    'Available=True ResourceAvailable: Resource is available',
    'Blank=False ConditionRuleEvaluated: the message',
    'Counts=True ConditionRuleEvaluated: expected message expression to have a string result, got int64',
    'Says=True ConditionRuleEvaluated: a is x, as hoped',
    'StatusFeedbackSynced=True NoStatusFeedbackSynced: ',
  ]);
  assert.deepEqual(shown(job!.conditions), [
    'Applied=True AppliedManifestComplete: Apply manifest complete',
    'Available=True ResourceAvailable: Resource is available',
    'Complete=True ConditionRuleEvaluated: Job is finished',
    'StatusFeedbackSynced=True NoStatusFeedbackSynced: ',
  ]);
});
