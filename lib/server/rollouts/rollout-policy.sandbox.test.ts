// A rollout with an OperatorPolicy on the sandbox fleet, whose hub serves OCM's kinds but whose
// clusters run no config-policy-controller and serve no OperatorPolicy (docs/sandbox.md): each
// cluster's work agent refuses the policy, as OCM's refuses a kind its cluster does not serve, and
// the rollout's view says the policy's compliance is not known there, rather than inventing one.
// The same rollout on a real fleet, where the controller runs, is rollout-policy.cluster.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RolloutChoices } from '../../olm/rollout/choices';
import { waitFor } from '../testing/cluster';
import { startSandboxOcmFleet, type SandboxOcmFleet } from '../testing/ocm-fleet';
import { readRollout } from './read';
import { writeRollout } from './write';

const choices: RolloutChoices = {
  name: 'demo-policy',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: 'demo-operator',
  installNamespace: 'demo-system',
  catalog: { name: 'demo', namespace: 'olm' },
  placement: { clusterSets: ['default'] },
  waveSize: 5,
  operatorPolicy: { namespace: 'open-cluster-management-policies', allowedVersions: [], upgradeApproval: 'None' },
};

let fleet: SandboxOcmFleet;

before(async () => {
  fleet = await startSandboxOcmFleet({ count: 2, seed: false, canary: false });
});
after(async () => {
  await fleet?.stop();
});

test("where no cluster serves OperatorPolicy, each cluster's work fails and compliance is not known", async () => {
  await writeRollout(fleet.hub, choices);
  const rows = await waitFor(
    'every cluster of the rollout failed',
    async () => {
      const c = (await readRollout(fleet.hub, 'rollouts', choices.name)).view.waves.flatMap((w) => w.clusters);
      return c.length === 2 && c.every((r) => r.state === 'failed') ? c : undefined;
    },
    30_000,
  );
  for (const r of rows) {
    assert.equal(r.compliance?.state, 'unknown', r.cluster);
    assert.match(r.compliance!.message, /not on the cluster, so nothing there evaluates it/);
    assert.ok(!('compliant' in r.feedback), `${r.cluster}: no compliance is reported`);
  }
  const view = (await readRollout(fleet.hub, 'rollouts', choices.name)).view;
  assert.equal(view.operatorPolicy?.upgradeApproval, 'None');
});
