// A sandbox fleet started again on its data files comes back as it was: the same clusters on the
// same ports (a console that read the kubeconfig keeps working), its objects kept, the seed adding
// nothing twice; and every cluster accepts the same seed users' tokens.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { clientAs } from '../server/testing/cluster';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { startSandboxFleet } from './fleet';

const servers = (kubeconfig: string) => readFileSync(kubeconfig, 'utf8').match(/server: \S+/g);

test('a fleet started again on its data comes back on the same ports with the same objects', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-fleet-restart-'));
  const opts = {
    count: 2,
    kubeconfigPath: join(dir, 'kubeconfig'),
    dataFile: join(dir, 'data.jsonl'),
    deploymentDelayMs: 0,
  };
  try {
    const first = await startSandboxFleet(opts);
    const before = servers(first.kubeconfigPath);
    const plans = async (f: typeof first, i: number) =>
      (
        await clientAs(f.clusters[i]!.sandbox, 'admin').list<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'operators' })
      ).items
        .map((p) => [p.metadata?.name, p.spec.approved])
        .sort();
    const plansBefore = [await plans(first, 0), await plans(first, 1)];
    // bob's token is the same on both clusters: one sign-in serves the fleet.
    for (const c of first.clusters) assert.equal(c.sandbox.tokens.bob, first.tokens.bob);
    await first.stop();

    const again = await startSandboxFleet({ ...opts, port: Number(new URL(first.clusters[0]!.sandbox.url).port) });
    try {
      assert.deepEqual(servers(again.kubeconfigPath), before);
      assert.deepEqual([await plans(again, 0), await plans(again, 1)], plansBefore);
    } finally {
      await again.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
