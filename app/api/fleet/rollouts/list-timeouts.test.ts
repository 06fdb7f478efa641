// The rollouts list on the sandbox fleet (prod-east is the OCM hub, managed as local-cluster;
// prod-west, labelled canary=true, is the canary) when OCM times a rollout's canary out: a channel
// the catalog lacks leaves the canary's work applied but never Available, and with a two-second
// progressDeadline OCM v1.0.0 counts it as failed from its work's creation plus the deadline
// (sdk-go cluster/v1alpha1 rollout.go determineRolloutStatus), which, in a mandatory group, stops
// the next wave. The set's own status still reads as a rollout in progress; the list's row says
// which cluster timed out, as the rollout's page does, and a rollout without a deadline has none.
// A person who may list the sets but not the ManifestWorks is told the list cannot say.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { RolloutList } from '@/lib/api/fleet-rollouts';
import { rbacType } from '@/lib/k8s/core-kinds';
import { MANIFEST_WORK_TYPE } from '@/lib/server/rollouts/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import { flagpoleChoices, labelCanary, stuckChoices } from '@/lib/server/testing/ocm-fleet';

const healthy = flagpoleChoices();
const stuck = stuckChoices();

describe('the rollouts list says which clusters OCM timed out', () => {
  const sb = fleetSandbox(2);
  let list: (req: Request) => Promise<Response>;
  before(async () => {
    const routes = await import('./route');
    list = routes.GET;
    await labelCanary(sb.admin('prod-east'), 'prod-west');
    for (const body of [healthy, stuck]) {
      const { status } = await sb.call(routes.POST, '/api/fleet/rollouts', { method: 'POST', body });
      assert.equal(status, 201);
    }
  });

  const read = async (user = 'admin') => {
    const { status, body } = await sb.call<RolloutList>(list, '/api/fleet/rollouts', { user });
    assert.equal(status, 200);
    return body;
  };

  test("past the deadline the stuck rollout's row names its canary, timed out, holding the next wave", async () => {
    const answer = await waitFor(
      'the canary timed out in the list',
      async () => {
        const a = await read();
        return a.rollouts.find((r) => r.name === 'stuck')?.timedOut?.length ? a : undefined;
      },
      30_000,
    );
    const created = (
      await sb
        .admin('prod-east')
        .get<{ metadata: { creationTimestamp: string } }>(MANIFEST_WORK_TYPE, 'stuck', 'prod-west')
    ).metadata.creationTimestamp;
    assert.deepEqual(
      answer.rollouts.map((r) => [r.name, r.timedOut]),
      [
        ['flagpole', []],
        [
          'stuck',
          [
            {
              cluster: 'prod-west',
              wave: { index: 0, name: 'canary' },
              deadline: '2s',
              at: new Date(Date.parse(created) + 2000).toISOString(),
              stops: { failures: 1, maxFailures: 0, over: 'group' },
            },
          ],
        ],
      ],
    );
    assert.deepEqual(answer.notes, []);
    // What the list showed alone before: OCM's own conditions, which never name the timeout.
    const conditions = answer.rollouts.find((r) => r.name === 'stuck')!.conditions;
    assert.doesNotMatch(JSON.stringify(conditions), /time/i);
  });

  test('a person who may list the sets and decisions but not the ManifestWorks is told the list cannot say', async () => {
    const hub = sb.admin('prod-east');
    await hub.create(rbacType('ClusterRole'), {
      metadata: { name: 'rollout-sets-reader' },
      rules: [
        {
          apiGroups: ['work.open-cluster-management.io'],
          resources: ['manifestworkreplicasets'],
          verbs: ['get', 'list'],
        },
        { apiGroups: ['cluster.open-cluster-management.io'], resources: ['placementdecisions'], verbs: ['list'] },
      ],
    });
    await hub.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-reads-rollout-sets' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rollout-sets-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    const answer = await read('bob');
    // Without a deadline nothing can time out; with one, bob's list says nothing rather than "none".
    assert.deepEqual(
      answer.rollouts.map((r) => [r.name, r.timedOut]),
      [
        ['flagpole', []],
        ['stuck', undefined],
      ],
    );
    assert.equal(answer.notes.length, 1);
    assert.match(
      answer.notes[0]!,
      /^you may not list ManifestWorks in every cluster's namespace, so the list cannot say which clusters OCM timed out: /,
    );
  });
});
