// `npm run cluster -- --fleet N [--data-dir DIR] [other flags of npm run cluster]`: a fleet of N real
// clusters (each what `npm run cluster` makes: its own etcd, kube-apiserver, OLM v0 and v1, kwok;
// the other flags go to each) joined by Open Cluster Management v1.0.0 as plain processes. The first
// cluster is also the hub, as Red Hat ACM's hub manages itself: OCM's hub CRDs, a
// kube-controller-manager that only signs certificate requests with that cluster's CA (the agents'
// client certificates), OCM's registration controller (auto-approving the bootstrap identity's
// clusters), work manager (the ManifestWorkReplicaSet controller) and placement controller. Every
// cluster, the hub's own as `local-cluster` and the others as `cluster2`… `clusterN`, runs the
// klusterlet agent (registration and work in one process) that joins the hub, and OCM's
// config-policy-controller v0.16.0 with OperatorPolicy on, watching the namespace rollouts put
// OperatorPolicies in. It prints `hub kubeconfig: PATH`, one `managedcluster NAME: KUBECONFIG` per
// cluster once it is Joined and Available, then `fleet ready`. With `--oidc` the first cluster runs
// the identity provider and the others trust it (`--oidc-trust`): one sign-in. Ctrl-C or SIGTERM
// stops everything; a watchdog stops the OCM processes if this process dies any other way (each cluster has its own).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import { join, resolve } from 'node:path';
import { startWatchdog } from './child-watchdog';
import {
  AGENT_NAMESPACE,
  agentObjects,
  BOOTSTRAP_NAMESPACE,
  BOOTSTRAP_SERVICE_ACCOUNT,
  BOOTSTRAP_USER,
  CLUSTER_SET_LABEL,
  HUB_NAMESPACE,
  hubObjects,
  POLICY_NAMESPACE,
  policyObjects,
  tokenKubeconfig,
} from './cluster-ocm-objects';
import { freePort } from './free-port';

const root = join(import.meta.dirname, '..');
export const usage = `usage: npm run cluster -- --fleet N [--data-dir DIR] [other flags of npm run cluster]

  --fleet N       N real clusters (1 to 8), each with the other flags, joined by Open Cluster
                  Management: the first is also the hub and is managed as local-cluster, the others
                  as cluster2 … clusterN
  --data-dir DIR  the fleet's folder (default .cluster-fleet): one folder per cluster, and ocm/
                  for the hub's and agents' kubeconfigs and logs`;

/** Managed cluster names, the hub's own first. */
export function clusterNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? 'local-cluster' : `cluster${i + 1}`));
}

function buildPaths(command: string): Record<string, string> {
  const r = spawnSync('bash', [join(root, 'cluster', 'build.sh'), command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cluster/build.sh ${command} failed: ${r.stderr}`);
  return Object.fromEntries(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('=') as [string, string]),
  );
}

/**
 * A module's folder at the version `cluster/<folder>/go.mod` pins: the CRDs OCM's operators (OCM's
 * module) or config-policy-controller's addon (its own module) would install come from there.
 */
function moduleDir(folder: string, module: string): string {
  const version = readFileSync(join(root, 'cluster', folder, 'go.mod'), 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([m]) => m === module)?.[1];
  if (!version) throw new Error(`cluster/${folder}/go.mod pins no ${module}`);
  const r = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
    cwd: join(root, 'cluster', folder),
    env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' },
  });
  if (r.status !== 0) throw new Error(`go mod download ${module}@${version} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.toString()) as { Dir: string }).Dir;
}

const crds = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.crd.yaml'))
    .sort()
    .map((n) => join(dir, n));

function kubectlIn(kubeconfig: string, args: string[], input?: string): string {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr || r.error?.message}`);
  return r.stdout;
}
const applyIn = (kubeconfig: string, objects: object[]) =>
  kubectlIn(kubeconfig, ['apply', '-f', '-'], objects.map((o) => JSON.stringify(o)).join('\n'));

const children: ChildProcess[] = [];
let stopping = false;
// As in scripts/cluster.ts: told every child's pid, it stops them when this process's end closes
// its stdin. Made by fleet(), so that importing this module from scripts/cluster.ts starts nothing.
let watchdog: ChildProcess | undefined;

/** Each cluster's `npm run cluster` process, among the children. */
const clusterChildren = new WeakSet<ChildProcess>();

/** Ends a child: SIGTERM, SIGKILL after a minute. */
async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise<void>((res) => c.once('exit', () => res()));
  c.kill('SIGTERM');
  const timer = setTimeout(() => c.kill('SIGKILL'), 60_000);
  await gone;
  clearTimeout(timer);
}

/**
 * Agents and controllers first, last started first; then the clusters, together (each stops its
 * own processes, and none needs another any more).
 */
async function stopAll(): Promise<void> {
  stopping = true;
  for (const c of [...children].reverse()) if (!clusterChildren.has(c)) await stopChild(c);
  await Promise.all(children.filter((c) => clusterChildren.has(c)).map(stopChild));
  if (watchdog?.exitCode === null) watchdog.kill('SIGKILL');
}

function spawnChild(
  name: string,
  logFile: string,
  bin: string,
  args: string[],
  env?: Record<string, string>,
): ChildProcess {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, env: { ...process.env, ...env } });
  child.stdout!.on('data', (d: Buffer) => writeFileSync(logFile, d, { flag: 'a' }));
  child.stderr!.on('data', (d: Buffer) => writeFileSync(logFile, d, { flag: 'a' }));
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); its log: ${logFile}`);
    void stopAll().then(() => process.exit(1));
  });
  if (child.pid) watchdog?.stdin!.write(`${child.pid}\n`);
  children.push(child);
  return child;
}

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Starts one real cluster (scripts/cluster.ts) and resolves with its admin kubeconfig once it is ready. */
function startCluster(name: string, dataDir: string, forwarded: string[], logDir: string): Promise<string> {
  const child = spawnChild(`cluster ${name}`, join(logDir, `cluster-${name}.log`), process.execPath, [
    '--import',
    'tsx',
    join(root, 'scripts', 'cluster.ts'),
    '--data-dir',
    dataDir,
    ...forwarded,
  ]);
  clusterChildren.add(child);
  let output = '';
  return new Promise((res, rej) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d;
      for (const line of d.toString().trim().split('\n')) console.log(`[${name}] ${line}`);
      const kubeconfig = /^kubeconfig: (.+)$/m.exec(output)?.[1];
      if (kubeconfig && /^cluster ready$/m.test(output)) res(kubeconfig);
    });
    child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
    child.once('exit', (code) => rej(new Error(`cluster ${name} exited (${code}) before it was ready`)));
  });
}

/** The server and CA a kubeconfig (as scripts/cluster.ts writes it) names. */
function serverOf(kubeconfig: string): { server: string; caPem: string } {
  const text = readFileSync(kubeconfig, 'utf8');
  const server = /^\s*server: (\S+)$/m.exec(text)?.[1];
  const ca = /^\s*certificate-authority-data: (\S+)$/m.exec(text)?.[1];
  if (!server || !ca) throw new Error(`${kubeconfig}: no server or CA`);
  return { server, caPem: Buffer.from(ca, 'base64').toString() };
}

function available(hub: string, name: string): boolean {
  const r = spawnSync(
    'kubectl',
    ['--kubeconfig', hub, 'get', 'managedcluster', name, '-o', 'jsonpath={.status.conditions}'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) return false;
  const conditions = JSON.parse(r.stdout || '[]') as { type: string; status: string }[];
  const is = (t: string) => conditions.some((c) => c.type === t && c.status === 'True');
  return is('ManagedClusterJoined') && is('ManagedClusterConditionAvailable');
}

/** Resident memory of a process, in MB (/proc/PID/status VmRSS), or undefined when it is gone. */
function residentMb(pid: number | undefined): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * config-policy-controller v0.16.0 on one managed cluster, as its own deploy/ manifests run it in a
 * pod but with every in-pod default given: its CRDs (ConfigurationPolicy too: its
 * ConfigurationPolicy controller always runs and watches them), the namespace it watches
 * (WATCH_NAMESPACE, which it requires), the work agent's rights to OperatorPolicies there
 * (policyObjects), then the process with OperatorPolicy on (`--enable-operator-policy`), the
 * cluster's kubeconfig (controller-runtime's `--kubeconfig`), no leader election (one replica), and
 * its metrics and probes on loopback ports (defaults `localhost:8383` and `:8081`, every interface).
 * Out of a pod it finds no service-account namespace and says it runs locally: no lease to the hub
 * (`--enable-lease` is off by default) and no check of its own Deployment. Resolves once `/readyz`
 * answers, printing how long that took and its memory then.
 */
async function startPolicyController(
  name: string,
  kubeconfig: string,
  crdDir: string,
  bin: string,
  logDir: string,
): Promise<void> {
  const t0 = Date.now();
  kubectlIn(kubeconfig, [
    'apply',
    '--server-side',
    '--force-conflicts',
    ...['configurationpolicies', 'operatorpolicies'].flatMap((r) => [
      '-f',
      join(crdDir, `policy.open-cluster-management.io_${r}.yaml`),
    ]),
  ]);
  kubectlIn(kubeconfig, [
    'wait',
    '--for=condition=Established',
    '--timeout=120s',
    'crd/configurationpolicies.policy.open-cluster-management.io',
    'crd/operatorpolicies.policy.open-cluster-management.io',
  ]);
  applyIn(kubeconfig, policyObjects());
  const probe = await freePort();
  const child = spawnChild(
    `${name}-config-policy-controller`,
    join(logDir, `${name}-config-policy-controller.log`),
    bin,
    [
      'controller',
      `--kubeconfig=${kubeconfig}`,
      '--enable-operator-policy',
      '--leader-elect=false',
      `--metrics-bind-address=127.0.0.1:${await freePort()}`,
      `--health-probe-bind-address=127.0.0.1:${probe}`,
      `--cluster-name=${name}`,
    ],
    { WATCH_NAMESPACE: POLICY_NAMESPACE },
  );
  const deadline = Date.now() + 120_000;
  while (!(await answers(`http://127.0.0.1:${probe}/readyz`))) {
    if (Date.now() > deadline) throw new Error(`config-policy-controller on ${name} was not ready within 120 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`config-policy-controller ${name}: ready in ${seconds} s, ${residentMb(child.pid) ?? '?'} MB resident`);
}

export async function fleet(n: number, dataDirArg: string | undefined, forwarded: string[]): Promise<void> {
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`--fleet must be a number from 1 to 8\n\n${usage}`);
  const dataDir = resolve(dataDirArg ?? join(root, '.cluster-fleet'));
  const ocmDir = join(dataDir, 'ocm');
  const logDir = join(ocmDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  watchdog = startWatchdog();
  process.env.KUBECACHEDIR ??= join(dataDir, 'kubectl-cache');
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(sig, () => {
      if (!stopping) void stopAll().then(() => process.exit(0));
    });
  process.once('exit', () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  });

  // Every program built first: N clusters building at once would queue on build.sh's lock anyway.
  for (const what of ['all', 'ocm']) {
    const b = spawnSync('bash', [join(root, 'cluster', 'build.sh'), what], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (b.status !== 0) throw new Error(`cluster/build.sh ${what} failed`);
  }
  const kube = buildPaths('paths');
  const ocm = buildPaths('ocm-paths');
  const manifests = moduleDir('ocm', 'open-cluster-management.io/ocm');
  const policyCrds = join(moduleDir('policy', 'open-cluster-management.io/config-policy-controller'), 'deploy', 'crds');

  const names = clusterNames(n);
  // A previous run's address of the first cluster's provider is not this run's.
  rmSync(join(dataDir, names[0]!, 'oidc-issuer'), { force: true });
  const started = Date.now();
  // With --oidc, one identity provider for the fleet, as a fleet's clusters trust one issuer: the
  // first cluster runs it and the others trust it (--oidc-trust), started once it has its address.
  const oidc = forwarded.includes('--oidc');
  const firstDir = join(dataDir, names[0]!);
  const first = startCluster(names[0]!, firstDir, forwarded, logDir);
  if (oidc) {
    const firstExited = new Promise<never>((_, rej) => first.catch(rej));
    await Promise.race([
      until("the first cluster's identity provider", () => existsSync(join(firstDir, 'oidc-issuer')), 120_000),
      firstExited,
    ]);
  }
  const others = oidc ? forwarded.filter((a) => a !== '--oidc').concat(['--oidc-trust', firstDir]) : forwarded;
  const kubeconfigs = await Promise.all([
    first,
    ...names.slice(1).map((name) => startCluster(name, join(dataDir, name), others, logDir)),
  ]);
  console.log(`clusters ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const ocmStarted = Date.now();

  // The hub, on the first cluster.
  const hub = kubeconfigs[0]!;
  const hubDir = join(dataDir, names[0]!);
  kubectlIn(hub, [
    'apply',
    '--server-side',
    '--force-conflicts',
    ...crds(join(manifests, 'manifests', 'cluster-manager', 'hub')).flatMap((f) => ['-f', f]),
  ]);
  kubectlIn(hub, ['wait', '--for=condition=Established', '--timeout=120s', 'crd', '--all']);
  applyIn(hub, hubObjects());
  const run = async (name: string, bin: string, args: string[]) =>
    spawnChild(name, join(logDir, `${name}.log`), bin, [...args, `--listen=127.0.0.1:${await freePort()}`]);
  // Only the signer: the cluster's own kube-controller-manager runs everything else.
  spawnChild('hub-csr-signer', join(logDir, 'hub-csr-signer.log'), kube['kube-controller-manager']!, [
    `--kubeconfig=${hub}`,
    `--authentication-kubeconfig=${hub}`,
    `--authorization-kubeconfig=${hub}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    '--controllers=csrsigning',
    `--cluster-signing-cert-file=${join(hubDir, 'ca.crt')}`,
    `--cluster-signing-key-file=${join(hubDir, 'ca.key')}`,
  ]);
  const common = [`--kubeconfig=${hub}`, `--namespace=${HUB_NAMESPACE}`, '--disable-leader-election'];
  await run('hub-registration', ocm.registration!, [
    'controller',
    ...common,
    '--feature-gates=ManagedClusterAutoApproval=true',
    `--auto-approved-csr-users=${BOOTSTRAP_USER}`,
  ]);
  // OCM v1.0.0's `work manager` is the hub's ManifestWorkReplicaSet controller (the cluster-manager
  // operator deploys it only with the ManifestWorkReplicaSet feature gate on, and the work webhook
  // admits ManifestWorkReplicaSets only with it). The gate is named here as that operator's
  // workConfiguration would turn it on, so the hub answers as a hub with the feature enabled does.
  await run('hub-work', ocm.work!, ['manager', ...common, '--feature-gates=ManifestWorkReplicaSet=true']);
  await run('hub-placement', ocm.placement!, ['controller', ...common]);

  const token = kubectlIn(hub, [
    'create',
    'token',
    BOOTSTRAP_SERVICE_ACCOUNT,
    '-n',
    BOOTSTRAP_NAMESPACE,
    '--duration=8760h',
  ]).trim();
  const bootstrap = join(ocmDir, 'bootstrap-kubeconfig');
  const { server: hubServer, caPem: hubCa } = serverOf(hub);
  writeFileSync(bootstrap, tokenKubeconfig(hubServer, hubCa, BOOTSTRAP_SERVICE_ACCOUNT, token), { mode: 0o600 });

  // The klusterlet agent and config-policy-controller on each cluster, the hub's own included.
  const policyControllers: Promise<void>[] = [];
  for (const [i, name] of names.entries()) {
    const kubeconfig = kubeconfigs[i]!;
    kubectlIn(kubeconfig, [
      'apply',
      '--server-side',
      '--force-conflicts',
      ...crds(join(manifests, 'manifests', 'klusterlet', 'managed')).flatMap((f) => ['-f', f]),
    ]);
    applyIn(kubeconfig, agentObjects());
    const policyController = startPolicyController(
      name,
      kubeconfig,
      policyCrds,
      ocm['config-policy-controller']!,
      logDir,
    );
    // Awaited once every cluster has joined; a failure meanwhile is not an unhandled rejection.
    policyController.catch(() => undefined);
    policyControllers.push(policyController);
    const hubKubeconfigDir = join(ocmDir, name, 'hub-kubeconfig');
    mkdirSync(hubKubeconfigDir, { recursive: true });
    // Out of a pod, both kubeconfigs are named: the agent's defaults are in-cluster paths.
    await run(`${name}-klusterlet-agent`, ocm['registration-operator']!, [
      'agent',
      `--kubeconfig=${kubeconfig}`,
      `--namespace=${AGENT_NAMESPACE}`,
      '--disable-leader-election',
      `--cluster-name=${name}`,
      `--agent-id=${name}-agent`,
      `--bootstrap-kubeconfig=${bootstrap}`,
      `--hub-kubeconfig-dir=${hubKubeconfigDir}`,
      `--workload-source-config=${join(hubKubeconfigDir, 'kubeconfig')}`,
      `--spoke-external-server-urls=${serverOf(kubeconfig).server}`,
    ]);
  }
  console.log(`hub kubeconfig: ${hub}`);
  for (const [i, name] of names.entries()) {
    await until(`ManagedCluster ${name} to be Joined and Available`, () => available(hub, name), 300_000);
    // What OCM's registration webhook (not run here) does for a cluster that names no set.
    kubectlIn(hub, ['label', '--overwrite', 'managedcluster', name, `${CLUSTER_SET_LABEL}=default`]);
    console.log(`managedcluster ${name}: ${kubeconfigs[i]}`);
  }
  console.log(`joined in ${((Date.now() - ocmStarted) / 1000).toFixed(0)} s`);
  await Promise.all(policyControllers);
  console.log('fleet ready');
}

/** `--fleet N` and `--data-dir DIR` (as `--flag value` or `--flag=value`), apart from the flags each cluster gets. */
export function fleetArgs(argv: string[]): { n: number; dataDir?: string; forwarded: string[] } {
  const taken: Record<string, string> = {};
  const forwarded: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(fleet|data-dir)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) forwarded.push(argv[i]!);
    else taken[m[1]!] = m[2] ?? argv[++i] ?? '';
  }
  return { n: Number(taken.fleet), dataDir: taken['data-dir'], forwarded };
}
