// One rollout's answer on the sandbox fleet (prod-east is the OCM hub, managed as local-cluster;
// prod-west, labelled canary=true, is the canary) when OCM times its canary out: a channel the
// catalog lacks leaves the canary's work applied but never Available, and with a two-second
// progressDeadline OCM v1.0.0 counts it as failed from its work's creation plus the deadline
// (sdk-go cluster/v1alpha1 rollout.go determineRolloutStatus). The set's status never says so;
// the answer does, on the canary's row, with the failure that stops the rollout before the next
// wave (maxFailures 0, and a mandatory group tolerates none).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { RolloutDetail } from '@/lib/api/fleet-rollouts';
import { MANIFEST_WORK_TYPE } from '@/lib/server/rollouts/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import { flagpoleChoices, labelCanary } from '@/lib/server/testing/ocm-fleet';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const choices = flagpoleChoices({ name: 'stuck', channel: 'no-such-channel', progressDeadline: '2s' });

describe("a rollout whose canary OCM timed out says so on the canary's row", () => {
  const sb = fleetSandbox(2);
  let get: Handler;
  let write: (req: Request) => Promise<Response>;
  before(async () => {
    get = (await import('./route')).GET as unknown as Handler;
    write = (await import('../../route')).POST;
    await labelCanary(sb.admin('prod-east'), 'prod-west');
  });

  const read = async () => {
    const res = await get(sb.request('/api/fleet/rollouts/rollouts/stuck'), {
      params: Promise.resolve({ namespace: 'rollouts', name: 'stuck' }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as RolloutDetail;
  };

  test('past the deadline the canary is timed out, and the next wave is not started', async () => {
    const { status } = await sb.call(write, '/api/fleet/rollouts', { method: 'POST', body: choices });
    assert.equal(status, 201);
    const d = await waitFor(
      'the canary timed out',
      async () => {
        const r = await read();
        return r.view.waves[0]?.clusters[0]?.timedOut ? r : undefined;
      },
      30_000,
    );
    const [canary, wave] = d.view.waves;
    const created = (
      await sb
        .admin('prod-east')
        .get<{ metadata: { creationTimestamp: string } }>(MANIFEST_WORK_TYPE, 'stuck', 'prod-west')
    ).metadata.creationTimestamp;
    assert.deepEqual(
      canary!.clusters.map((c) => [c.cluster, c.state, c.timedOut]),
      [
        [
          'prod-west',
          'unhealthy',
          {
            deadline: '2s',
            at: new Date(Date.parse(created) + 2000).toISOString(),
            stops: { failures: 1, maxFailures: 0, over: 'group' },
          },
        ],
      ],
    );
    // Well past the deadline, the next wave still has no work: the timeout holds the rollout.
    await new Promise((r) => setTimeout(r, 2_000));
    assert.deepEqual(
      (await read()).view.waves[1]!.clusters.map((c) => [c.cluster, c.state, c.timedOut]),
      [['local-cluster', 'waiting', undefined]],
    );
    assert.equal(wave!.clusters[0]!.timedOut, undefined);
  });
});
