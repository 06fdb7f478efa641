// Starting a cluster (the sandbox's or the real one's script) as a child process of a benchmark,
// and weighing it. Shared by the real-vs benchmarks, which each run one or two clusters.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface StartedCluster {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr), for the lines a benchmark reads. */
  output: () => string;
}

/**
 * Starts `node --import tsx ARGS…` in the repository and resolves once `ready` matches its output.
 * The time limit is the caller's: a cluster with a 1,180-package catalog takes minutes where a
 * small one takes seconds.
 */
export function startClusterProcess(args: string[], ready: RegExp, timeoutMs = 300_000): Promise<StartedCluster> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs / 1000} s:\n${out}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!ready.test(out)) return;
      clearTimeout(timer);
      resolve({ child, output: () => out });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited (${code}):\n${out}`))));
  });
}

/** Stops a started cluster (SIGTERM: the script stops everything it started) and waits for it. */
export async function stopClusterProcess(c: StartedCluster): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill('SIGTERM');
  await exited;
}

/** Resident memory of a process and all its descendants, in MB. */
export function treeRssMb(pid: number): number {
  return [...rssByProgram(pid).values()].reduce((a, b) => a + b, 0);
}

/** The same, by program name (the kernel's, 15 characters at most), largest first. */
export function rssByProgram(pid: number): Map<string, number> {
  const kb = new Map<string, number>();
  const walk = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const name = /^Name:\s+(.+)$/m.exec(status)?.[1] ?? String(p);
      kb.set(name, (kb.get(name) ?? 0) + Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      for (const t of readdirSync(`/proc/${p}/task`))
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
          walk(Number(c));
    } catch {
      // the process ended while we read it
    }
  };
  walk(pid);
  return new Map([...kb].sort((a, b) => b[1] - a[1]).map(([n, k]) => [n, k / 1024]));
}
