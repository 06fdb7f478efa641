// `npm run conformance -- --fleet [--only ID]`: the opt-in Open Cluster Management group. It
// starts a sandbox fleet of two clusters (the first the hub) and a real one, `npm run cluster --
// --fleet 2` (two real clusters, each with its own kube-apiserver, OLM v0 and v1, joined by OCM
// v1.0.0: about 3 GB and two to three minutes on two cores), and compares what the OCM checks
// (checks/ocm.ts) read of both hubs. Its own start because neither fleet is what the main group
// compares. With CONFORMANCE_REAL_FLEET=DIR it uses a real fleet already running with that
// `--data-dir` instead of starting one (and leaves it running).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';
import { startSandboxFleet } from '../lib/sandbox/fleet';
import { ocmChecks, registerOcmFleet } from './checks/ocm';
import { readKnownDifferences, report, runChecks } from './run-checks';
import type { Target } from './target';

const root = join(import.meta.dirname, '..');

/** A cluster as its kubeconfig (written by the sandbox or scripts/cluster.ts) and tokens.json beside it name it. */
function targetOf(name: Target['name'], kubeconfig: string): Target {
  const doc = yaml.load(readFileSync(kubeconfig, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  };
  const cluster = doc.clusters[0]!.cluster;
  return {
    name,
    url: cluster.server,
    ca: Buffer.from(cluster['certificate-authority-data'], 'base64').toString(),
    tokens: JSON.parse(readFileSync(join(dirname(kubeconfig), 'tokens.json'), 'utf8')) as Record<string, string>,
    kubeconfig,
    registries: {},
  };
}

/** The real fleet's hub and its other managed cluster, from `npm run cluster -- --fleet 2`'s lines. */
function realFleet(out: string): { hub: Target; member: string; memberTarget: Target } {
  const hub = /^hub kubeconfig: (.+)$/m.exec(out)![1]!;
  const [, member, kubeconfig] = [...out.matchAll(/^managedcluster (\S+): (.+)$/gm)].find(
    (m) => m[1] !== 'local-cluster',
  )!;
  return { hub: targetOf('real', hub), member: member!, memberTarget: targetOf('real', kubeconfig!) };
}

async function startRealFleet(dataDir: string): Promise<{ out: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'cluster.ts'), '--fleet', '2', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d.toString().replace(/^(?=.)/gm, '[real] '));
      if (/^fleet ready$/m.test(out)) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`npm run cluster -- --fleet 2 exited (${code}) before it was ready`)),
    );
  });
  return { out, child };
}

/** The lines for a fleet already running: what it printed is rebuilt from its folder. */
function runningFleet(dataDir: string): string {
  const hub = join(dataDir, 'local-cluster', 'kubeconfig');
  return [
    `hub kubeconfig: ${hub}`,
    `managedcluster local-cluster: ${hub}`,
    `managedcluster cluster2: ${join(dataDir, 'cluster2', 'kubeconfig')}`,
  ].join('\n');
}

export async function fleetConformance(only: string | undefined): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'olm-conformance-fleet-'));
  const reuse = process.env.CONFORMANCE_REAL_FLEET;
  const t0 = Date.now();
  const [sb, real] = await Promise.all([
    startSandboxFleet({
      count: 2,
      kubeconfigPath: join(work, 'sandbox', 'kubeconfig'),
      seed: false,
      deploymentDelayMs: 0,
    }),
    reuse ? Promise.resolve({ out: runningFleet(reuse), child: undefined }) : startRealFleet(join(work, 'real')),
  ]);
  console.log(`both fleets ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const sandboxHub = targetOf('sandbox', sb.clusters[0]!.sandbox.kubeconfigPath);
  registerOcmFleet(sandboxHub, {
    member: sb.clusters[1]!.name,
    memberTarget: targetOf('sandbox', sb.clusters[1]!.sandbox.kubeconfigPath),
  });
  const r = realFleet(real.out);
  registerOcmFleet(r.hub, { member: r.member, memberTarget: r.memberTarget });

  const checks = ocmChecks.filter((c) => !only || c.id.includes(only));
  const verdicts = await runChecks(checks, sandboxHub, r.hub, readKnownDifferences(root));
  const result = report(verdicts);
  if (real.child) {
    const exited = new Promise((res) => real.child!.once('exit', res));
    real.child.kill('SIGTERM');
    await exited;
  }
  await sb.stop();
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  console.log(`${result.checks} checks, ${result.divergences} divergences (${result.explained} explained)`);
  return result.divergences > result.explained ? 1 : 0;
}
