// Issue 15's figures, on the same machine in the same run: Subscription created → CSV Succeeded
// on the sandbox and on real OLM (scripts/cluster.ts), and the memory each cluster takes (the
// resident memory of its whole process tree). Both serve the same small catalog; each install goes
// into a namespace of its own with an OwnNamespace OperatorGroup, driven by kubectl. Skipped, with
// the reason, when cluster/build.sh has not built the real cluster's programs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClusterProcess, stopClusterProcess, treeRssMb } from './support/cluster-process';
import { fmt, median } from './support/measure';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { clusterProgramsMissing } from '../scripts/cluster-programs';

const root = join(import.meta.dirname, '..');
const INSTALLS = 4;

function kubectl(kubeconfig: string, args: string[], input?: string): string {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function installTimes(kubeconfig: string, catalog: string, catalogNs: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < INSTALLS; i++) {
    const ns = `bench-${i}`;
    kubectl(kubeconfig, ['create', 'namespace', ns]);
    kubectl(
      kubeconfig,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: 'og', namespace: ns },
        spec: { targetNamespaces: [ns] },
      }),
    );
    const t0 = performance.now();
    kubectl(
      kubeconfig,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'alpha', namespace: ns },
        spec: { name: 'alpha', source: catalog, sourceNamespace: catalogNs, channel: 'stable' },
      }),
    );
    for (;;) {
      const phase = spawnSync(
        'kubectl',
        ['--kubeconfig', kubeconfig, 'get', 'csv', '-n', ns, 'alpha.v1.1.0', '-o', 'jsonpath={.status.phase}'],
        { encoding: 'utf8' },
      ).stdout;
      if (phase === 'Succeeded') break;
      if (performance.now() - t0 > 180_000) throw new Error(`${ns}: alpha.v1.1.0 not Succeeded in 180 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const why = clusterProgramsMissing();
  if (why) {
    console.log(`skipped: ${why}`);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'olm-bench-real-'));
  const catalog = writeFixtureCatalog(join(work, 'benchcat'), [
    { name: 'alpha', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
  ]);
  try {
    for (const which of ['sandbox', 'real'] as const) {
      const started = performance.now();
      const c =
        which === 'sandbox'
          ? await startClusterProcess(
              [
                join(root, 'lib', 'sandbox', 'main.ts'),
                '--port',
                '0',
                '--kubeconfig',
                join(work, 'sandbox', 'kubeconfig'),
                '--catalog',
                catalog,
              ],
              /^kubeconfig: /m,
            )
          : await startClusterProcess(
              [join(root, 'scripts', 'cluster.ts'), '--data-dir', join(work, 'real'), '--catalog', catalog],
              /^cluster ready$/m,
            );
      const kubeconfig =
        which === 'sandbox' ? join(work, 'sandbox', 'kubeconfig') : /^kubeconfig: (.+)$/m.exec(c.output())![1]!;
      const ready = performance.now() - started;
      const idle = treeRssMb(c.child.pid!);
      try {
        // The sandbox names the CatalogSource after the folder; so does scripts/cluster.ts.
        const times = await installTimes(kubeconfig, 'benchcat', 'olm');
        console.log(
          `${which}: ready in ${fmt(ready / 1000)} s; Subscription created → CSV Succeeded, ${INSTALLS} installs: median ${fmt(median(times) / 1000)} s, slowest ${fmt(Math.max(...times) / 1000)} s; memory (process tree RSS) ${fmt(idle)} MB ready, ${fmt(treeRssMb(c.child.pid!))} MB after the installs`,
        );
      } finally {
        await stopClusterProcess(c);
      }
    }
    console.log(
      '(the sandbox reports operator Deployments available 1.5 s after they are created, its default; on the real cluster kwok runs the pods)',
    );
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
