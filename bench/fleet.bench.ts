// Issue 43's fleet budget, in part: 50 sandbox clusters (one process, lib/sandbox/fleet.ts, seeded
// as `npm start -- --clusters 50` seeds them) read by the fleet routes as one person in
// per-user-token mode. Measured: each route's answer with nothing cached (every cluster asked, 8
// at a time) and again within the cache's 10 s; then with 2 clusters answering 10 s late, which the
// 8 s deadline bounds. The route handlers run in this process, beside the 50 clusters, so their
// work shares one event loop (a console of its own would be faster, not slower). Not measured
// here: the browser's first paint of the pages (docs/performance.md says what is and is not).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxFleet } from '../lib/sandbox/fleet';
import { consoleRequest } from '../lib/server/testing/console-request';
import { fmt } from './support/measure';

const CLUSTERS = Number(process.env.FLEET_CLUSTERS ?? 50);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-bench-fleet-'));
  const t0 = performance.now();
  const fleet = await startSandboxFleet({
    count: CLUSTERS,
    kubeconfigPath: join(dir, 'kubeconfig'),
    deploymentDelayMs: 0,
  });
  console.log(`${CLUSTERS} clusters started and seeded in ${fmt(performance.now() - t0)} ms`);
  try {
    process.env.OLM_CONSOLE_KUBECONFIG = fleet.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    const routes = {
      clusters: (await import('../app/api/fleet/clusters/route')).GET,
      operators: (await import('../app/api/fleet/operators/route')).GET,
      approvals: (await import('../app/api/fleet/approvals/route')).GET,
    };
    const time = async (user: string, name: keyof typeof routes) => {
      const start = performance.now();
      const res = await routes[name](consoleRequest(`/api/fleet/${name}`, { token: fleet.tokens[user]! }));
      const text = await res.text();
      const ms = performance.now() - start;
      const body = JSON.parse(text) as { clusters: { ok: boolean }[] };
      const down = body.clusters.filter((c) => !c.ok).length;
      return { ms, kb: text.length / 1024, down };
    };
    for (const [user, label] of [
      ['admin', 'cold (nothing cached)'],
      ['admin', 'warm (within 10 s)'],
      ['bob', 'cold, another person'],
    ] as const) {
      for (const name of ['clusters', 'operators', 'approvals'] as const) {
        const r = await time(user, name);
        console.log(
          `GET /api/fleet/${name.padEnd(9)} ${label.padEnd(22)} ${fmt(r.ms).padStart(6)} ms  ${r.kb.toFixed(0)} KB` +
            (r.down ? `  (${r.down} not answering)` : ''),
        );
      }
    }
    // Two clusters answer 10 s late; alice has nothing cached.
    for (const c of fleet.clusters.slice(-2)) c.sandbox.faults.apply({ latencyMs: 10_000 });
    const r = await time('alice', 'clusters');
    console.log(
      `GET /api/fleet/clusters  2 clusters 10 s late     ${fmt(r.ms).padStart(6)} ms  (${r.down} not answering)`,
    );
    console.log(`resident memory: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (clusters and console together)`);
  } finally {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
