// Test support for the rollout tests on a real fleet: starts `npm run cluster -- --fleet 2` with
// the given flags on a temporary folder, resolves once it prints `fleet ready`, and stops every
// process of it afterwards (each names the folder on its command line).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

export interface RealFleet {
  dir: string;
  output(): string;
  hubKubeconfig: string;
  managed: Map<string, string>;
  stop(): Promise<void>;
}

function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(dir)) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export async function startRealFleet(flags: string[]): Promise<RealFleet> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-console-rollout-'));
  let output = '';
  const fleet: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'cluster.ts'), '--fleet', '2', '--data-dir', dir, ...flags],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  fleet.stdout!.on('data', (d: Buffer) => (output += d));
  fleet.stderr!.on('data', (d: Buffer) => (output += d));
  const stop = async () => {
    if (fleet.exitCode === null && fleet.signalCode === null) fleet.kill('SIGTERM');
    const deadline = Date.now() + 60_000;
    while (processesIn(dir).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    for (const pid of processesIn(dir)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no "fleet ready" in 600 s:\n${output}`)), 600_000);
      fleet.stdout!.on('data', () => /^fleet ready$/m.test(output) && (clearTimeout(timer), res()));
      fleet.once('exit', (code) => (clearTimeout(timer), rej(new Error(`the fleet exited (${code}):\n${output}`))));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    dir,
    output: () => output,
    hubKubeconfig: /^hub kubeconfig: (.+)$/m.exec(output)![1]!,
    managed: new Map([...output.matchAll(/^managedcluster (\S+): (.+)$/gm)].map((m) => [m[1]!, m[2]!])),
    stop,
  };
}
