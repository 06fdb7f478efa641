// The person's client on each cluster of the fleet carries that cluster's cache key, so what the
// console keeps of one cluster's answers is never kept as another's. Here in kubeconfig mode (the
// console reads every context of the fleet's kubeconfig as that context's user) over three sandbox
// clusters: OLM v1 content staging's catalogd serves is read for the rollout page, and a snapshot
// folder, which holds the home cluster's content only (olm-v1/content-cache.ts), gets none of it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FleetRolloutResponse } from '@/lib/api/fleet-rollout';
import { fleetSandbox } from '../testing/fleet-sandbox';
import { waitFor } from '../testing/cluster';
import { loadContentSnapshots } from '../olm-v1/content-snapshot';
import { CLUSTER_CATALOG_TYPE, type ClusterCatalog } from '../olm-v1/resources';

describe("kubeconfig mode: another cluster's client is that cluster's, for every cache", () => {
  const sb = fleetSandbox(3);
  const snapshots = mkdtempSync(join(tmpdir(), 'olm-fleet-person-'));
  let rollout: (req: Request, ctx: { params: Promise<{ package: string }> }) => Promise<Response>;
  before(async () => {
    // The kubeconfig's contexts as their users: no sign-in, each cluster reached as its context says.
    delete process.env.OLM_CONSOLE_AUTH;
    process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR = snapshots;
    rollout = (await import('@/app/api/fleet/operators/[package]/route')).GET;
  });
  after(() => {
    delete process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR;
    rmSync(snapshots, { recursive: true, force: true });
  });

  const baseOf = async (cluster: string) =>
    (await sb.admin(cluster).get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, 'olm-console-demo')).status?.urls?.base ?? '';

  test("staging's OLM v1 content is read for its row and never saved as the home cluster's", async () => {
    const res = await rollout(sb.request('/api/fleet/operators/pgpilot'), {
      params: Promise.resolve({ package: 'pgpilot' }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as FleetRolloutResponse;
    const staging = body.clusters.find((c) => c.name === 'staging');
    assert.ok(staging?.ok, JSON.stringify(staging));
    const ext = staging.value.installs.find((i) => i.olm === 'v1');
    // Read from staging's catalogd: pinned at 1.3.0, the head inside the constraint is the one installed.
    assert.deepEqual(ext?.head, { name: 'pgpilot.v1.3.0', version: '1.3.0' });

    const home = await baseOf('prod-east');
    const staged = await baseOf('staging');
    assert.ok(staged, 'staging serves its catalog');
    assert.notEqual(staged, home);
    // A save follows the read by a moment: give one the time it takes, then look.
    await waitFor(
      'a snapshot of staging content',
      async () => ((await loadContentSnapshots(snapshots)).some((s) => s.base === staged) ? true : undefined),
      3000,
    ).catch(() => undefined);
    const saved = (await loadContentSnapshots(snapshots)).map((s) => s.base);
    assert.ok(!saved.includes(staged), `staging's content was saved as the home cluster's: ${saved.join(', ')}`);
  });
});
