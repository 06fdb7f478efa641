// The real cluster (`npm run cluster`: kube-apiserver, etcd, kwok and OLM v0.38.0 as processes)
// for browser tests, on a throwaway data folder. The fields are named as the sandbox fixture's,
// so the same cluster helpers (lib/server/testing/cluster.ts clientAs) take either.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { clusterProgramsMissing } from '../../scripts/cluster-programs';

const root = join(import.meta.dirname, '..', '..');

export interface RealCluster {
  /** The data folder: certificates, etcd, kubeconfigs, each program's log under logs/. */
  dir: string;
  /** The admin's kubeconfig; the seed users' are beside it (kubeconfig-alice, kubeconfig-bob). */
  kubeconfigPath: string;
  /** The seed users' bearer tokens: admin, alice (admin of team1), bob (view). */
  tokens: Record<string, string>;
  caPem: string;
  /** kube-apiserver's address. */
  url: string;
  /** Each --catalog's CatalogSource name (in namespace olm) and its registry address. */
  catalogs: Record<string, string>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts scripts/cluster.ts with `catalogs` as CatalogSources and resolves once it prints
 * `cluster ready` (every catalog READY, its packages listed); `extraArgs` go to the script as
 * they are (`--oidc`). Fails with everything it printed
 * when it exits or is not ready in `timeoutMs`.
 */
export async function startRealCluster(
  catalogs: string[],
  timeoutMs = 240_000,
  extraArgs: string[] = [],
): Promise<RealCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-console-real-e2e-'));
  const args = [
    '--import',
    'tsx',
    join(root, 'scripts', 'cluster.ts'),
    '--data-dir',
    dir,
    ...catalogs.flatMap((c) => ['--catalog', c]),
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // scripts/cluster.ts gives etcd 15 s and every other program 3 s; past that its watchdog kills what is left.
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      await exited;
      clearTimeout(timer);
    }
    // Its programs may write a last line while they stop.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  };
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(
        () => rej(new Error(`no "cluster ready" in ${timeoutMs / 1000} s:\n${output}`)),
        timeoutMs,
      );
      child.stdout!.on('data', () => {
        if (!/^cluster ready$/m.test(output)) return;
        clearTimeout(timer);
        res();
      });
      child.once(
        'exit',
        (code, signal) => (
          clearTimeout(timer),
          rej(new Error(`npm run cluster exited (${signal ?? code}) before it was ready:\n${output}`))
        ),
      );
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const kubeconfigPath = /^kubeconfig: (.+)$/m.exec(output)![1]!;
  return {
    dir,
    kubeconfigPath,
    tokens: JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, string>,
    caPem: readFileSync(join(dir, 'ca.crt'), 'utf8'),
    url: /server: (\S+)/.exec(readFileSync(kubeconfigPath, 'utf8'))![1]!,
    catalogs: Object.fromEntries([...output.matchAll(/^catalog (\S+): (\S+)$/gm)].map((m) => [m[1]!, m[2]!])),
    output: () => output,
    stop,
  };
}
