// Issue 15's figures, on the same machine in the same run: Subscription created → CSV Succeeded
// on the sandbox and on real OLM (scripts/cluster.ts), and the memory each cluster takes (the
// resident memory of its whole process tree). Both serve the same small catalog; each install goes
// into a namespace of its own with an OwnNamespace OperatorGroup, driven by kubectl. Skipped, with
// the reason, when cluster/build.sh has not built the real cluster's programs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, median } from './support/measure';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { clusterProgramsMissing } from '../scripts/cluster-programs';

const root = join(import.meta.dirname, '..');
const INSTALLS = 4;

/** Starts a cluster process and resolves with its kubeconfig once `ready` matches its output. */
function start(
  args: string[],
  ready: RegExp,
  kubeconfig: (out: string) => string,
): Promise<{ child: ChildProcess; kubeconfig: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 5 min:\n${out}`)), 300_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!ready.test(out)) return;
      clearTimeout(timer);
      resolve({ child, kubeconfig: kubeconfig(out) });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited (${code}):\n${out}`))));
  });
}

/** Resident memory of a process and all its descendants, in MB. */
function treeRssMb(pid: number): number {
  let kb = 0;
  const walk = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      for (const t of readdirSync(`/proc/${p}/task`))
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
          walk(Number(c));
    } catch {
      // the process ended while we read it
    }
  };
  walk(pid);
  return kb / 1024;
}

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
          ? await start(
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
              () => join(work, 'sandbox', 'kubeconfig'),
            )
          : await start(
              [join(root, 'scripts', 'cluster.ts'), '--data-dir', join(work, 'real'), '--catalog', catalog],
              /^cluster ready$/m,
              (out) => /^kubeconfig: (.+)$/m.exec(out)![1]!,
            );
      const ready = performance.now() - started;
      const idle = treeRssMb(c.child.pid!);
      try {
        // The sandbox names the CatalogSource after the folder; so does scripts/cluster.ts.
        const times = await installTimes(c.kubeconfig, 'benchcat', 'olm');
        console.log(
          `${which}: ready in ${fmt(ready / 1000)} s; Subscription created → CSV Succeeded, ${INSTALLS} installs: median ${fmt(median(times) / 1000)} s, slowest ${fmt(Math.max(...times) / 1000)} s; memory (process tree RSS) ${fmt(idle)} MB ready, ${fmt(treeRssMb(c.child.pid!))} MB after the installs`,
        );
      } finally {
        const exited = new Promise((r) => c.child.once('exit', r));
        c.child.kill('SIGTERM');
        await exited;
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
