// `npm run cluster -- --catalog DIR… [--registry DIR…] [--flavor F] [--data-dir DIR] [--port N] [--fleet N]`:
// the real cluster, as plain processes on loopback: etcd, kube-apiserver (serving certificates, a
// service-account key, RBAC, the aggregator's front-proxy client), kube-controller-manager,
// kube-scheduler, kwok (one fake node whose pods run), OLM's olm and catalog operators and
// package-server, `opm serve` for each catalog, and OLM v1 beside OLM v0 as OpenShift runs both
// (catalogd, operator-controller, an image registry; `--no-olm-v1` leaves it out), all built from their Go modules by
// cluster/build.sh (cluster/README.md). It writes an admin kubeconfig and the sandbox's seed users
// (alice: admin of team1; bob: view), installs OLM as its release does (CRDs, aggregated roles,
// namespaces, OperatorGroups, OLMConfig, the packages API), adds each catalog as a CatalogSource,
// and prints `kubeconfig: PATH`, one `catalog NAME: ADDRESS` per catalog, one
// `registry NAME: ADDRESS` per `--registry`, one `clustercatalog NAME: Serving` per catalog, then
// `cluster ready` once every CatalogSource is READY, its packages are listed and every
// ClusterCatalog serves. With `--oidc`, also an OIDC provider kube-apiserver trusts
// (scripts/oidc-provider.ts): it prints `oidc issuer: URL` and `oidc console flags: …` before that;
// with `--oidc-trust DIR`, kube-apiserver trusts the provider a cluster started with `--oidc` in DIR
// runs, so two clusters share one sign-in.
// Ctrl-C or SIGTERM stops every process it started; if this process dies any other way (even
// kill -9), a watchdog stops them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { startWatchdog } from './child-watchdog';
import { renderInlineCatalog } from './cluster-catalogs';
import { makeCa, signedCertificate, signingKeyPair } from './certificates';
import { fleet, fleetArgs } from './cluster-ocm';
import { renderImageOnlyCatalog } from './cluster-image-catalogs';
import { writeKwokConfig } from './cluster-kwok-stages';
import { startOlmV1 } from './cluster-olm-v1';
import { startRegistry, type Registry } from './cluster-registry';
import { startUnpackRunner } from './cluster-unpack';
import { authenticationConfiguration, OIDC_CLIENT_ID, oidcCertificates, oidcRbacYaml, oidcSeed } from './oidc-seed';
import {
  catalogSource,
  KWOK_NODE,
  kwokNode,
  olmInstallObjects,
  olmNamespaces,
  packageServerObjects,
  PACKAGESERVER_SERVICE,
  type Flavor,
} from './cluster-olm';
import { freePort } from './free-port';

const root = join(import.meta.dirname, '..');
const usage = `usage: npm run cluster -- [--catalog DIR ...] [--registry DIR ...] [--flavor upstream|openshift] [--data-dir DIR] [--port N] [--no-olm-v1]
                           [--v0-bundles inline|image] [--image-catalog DIR ...]
                           [--oidc [--oidc-id-token-ttl SECONDS] | --oidc-trust DIR]

  --catalog DIR   an FBC catalog folder OLM installs from: a copy whose bundles carry their
                  manifests inline (scripts/cluster-catalogs.ts), served by \`opm serve\` on a
                  loopback port and added as a CatalogSource (repeatable)
  --v0-bundles M  how OLM v0's catalogs give their bundles: inline (the default; manifests in the
                  catalog, no unpack) or image (as published catalogs: olm.csv.metadata and a bundle
                  image in the cluster's registry, which OLM unpacks in a Job whose pod
                  scripts/cluster-unpack.ts runs; scripts/cluster-image-catalogs.ts)
  --image-catalog DIR
                  a --catalog whose bundles are given by image whatever --v0-bundles says (OLM
                  unpacks them; conformance compares that on one small catalog) (repeatable)
  --registry DIR  an FBC catalog folder served by \`opm serve\` as it is, with no CatalogSource:
                  the registry API to compare with the sandbox's (repeatable)
  --flavor F      upstream (namespaces olm, operators; the default) or openshift
                  (openshift-operator-lifecycle-manager, openshift-operators, openshift-marketplace)
  --data-dir DIR  where certificates, etcd's data, kubeconfigs and logs go (default .cluster)
  --port N        kube-apiserver's port on 127.0.0.1 (default 0: a free one)
  --no-olm-v1     without OLM v1, which otherwise runs beside OLM v0 (operator-controller, catalogd,
                  an image registry): each --catalog pushed as a catalog image with its bundles as
                  bundle images, and added as a ClusterCatalog (scripts/cluster-olm-v1.ts).
                  \`--olm-v1\` is accepted and changes nothing
  --oidc          also an OIDC provider on loopback HTTPS (its own CA; users alice and bob with
                  passwords in DATA-DIR/oidc-users.json) that kube-apiserver trusts; prints
                  \`oidc issuer: URL\` and \`oidc console flags: …\` for \`npm start\`
  --oidc-id-token-ttl S  the provider's ID token lifetime in seconds (default 300)
  --oidc-trust DIR  no provider of its own: kube-apiserver trusts the one a cluster started with
                  --oidc and --data-dir DIR runs (its issuer, CA, users and client), so one
                  sign-in serves both clusters; that cluster must be running
  --fleet N       N such clusters joined by Open Cluster Management, the first also the hub
                  (scripts/cluster-ocm.ts; --data-dir then holds one folder per cluster)`;

// The sandbox's seed users (lib/sandbox/auth/bootstrap-rbac.ts), as static tokens.
const SEED = [
  { name: 'admin', groups: ['system:masters'] },
  { name: 'alice', groups: [] as string[] },
  { name: 'bob', groups: [] as string[] },
];

function accepts(port: number): Promise<boolean> {
  return new Promise((res) => {
    const c = connect({ host: '127.0.0.1', port });
    c.once('connect', () => (c.destroy(), res(true)));
    c.once('error', () => res(false));
  });
}

/** The registry's gRPC health service answers SERVING. */
let Health: grpc.ServiceClientConstructor | undefined;
function serving(address: string): Promise<boolean> {
  if (!Health) {
    const def = protoLoader.loadSync(join(root, 'proto', 'health.proto'), {
      keepCase: true,
      defaults: true,
      enums: String,
    });
    Health = (
      ((grpc.loadPackageDefinition(def).grpc as grpc.GrpcObject).health as grpc.GrpcObject).v1 as grpc.GrpcObject
    ).Health as grpc.ServiceClientConstructor;
  }
  const client = new Health(address, grpc.credentials.createInsecure());
  return new Promise((res) => {
    (
      client as unknown as {
        Check: (req: object, opts: grpc.CallOptions, cb: (err: unknown, r?: { status: string }) => void) => void;
      }
    ).Check({ service: '' }, { deadline: Date.now() + 5000 }, (err, r) => {
      client.close();
      res(!err && r?.status === 'SERVING');
    });
  });
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, alive: () => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    alive();
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Made once per data folder: a cluster CA and kube-apiserver's serving certificate (127.0.0.1,
 * localhost and the in-cluster names), the front-proxy CA and the client certificate the
 * aggregator presents to API services, and the service-account signing key pair.
 */
function certificates(dir: string): void {
  const p = (n: string) => join(dir, n);
  if (
    ['ca.crt', 'apiserver.crt', 'front-proxy-ca.crt', 'front-proxy-client.crt', 'sa.pub'].every((n) => existsSync(p(n)))
  )
    return;
  makeCa(dir, 'ca', 'olm-console-real-cluster-ca');
  signedCertificate(
    dir,
    'apiserver',
    'ca',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:10.96.0.1\nextendedKeyUsage=serverAuth\n',
  );
  makeCa(dir, 'front-proxy-ca', 'olm-console-front-proxy-ca');
  signedCertificate(
    dir,
    'front-proxy-client',
    'front-proxy-ca',
    '/CN=front-proxy-client',
    'extendedKeyUsage=clientAuth\n',
  );
  signingKeyPair(dir, 'sa');
}

/** package-server's serving certificate, for the name the aggregator checks (`<service>.<namespace>.svc`). */
function packageServerCertificate(dir: string, namespace: string): void {
  const names = `DNS:${PACKAGESERVER_SERVICE}.${namespace}.svc,DNS:localhost,IP:127.0.0.1`;
  signedCertificate(
    dir,
    'packageserver',
    'ca',
    '/CN=packageserver',
    `subjectAltName=${names}\nextendedKeyUsage=serverAuth\n`,
  );
}

/**
 * The same shape as the sandbox's (lib/sandbox/server/sandbox.ts), cluster named `real`; with OLM v1,
 * its cluster names catalogd's content address, the only place the console reads ClusterCatalog
 * content from (lib/server/olm-v1/catalogd-address.ts).
 */
function kubeconfigYaml(server: string, caPem: string, user: string, token: string, catalogd?: string): string {
  const ctx = user === 'admin' ? 'real' : `real-${user}`;
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: real',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    ...(catalogd
      ? ['    extensions:', '    - name: olm-console.dev/catalogd', '      extension:', `        url: ${catalogd}`]
      : []),
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    `- name: ${ctx}`,
    '  context:',
    '    cluster: real',
    `    user: ${user}`,
    '    namespace: default',
    `current-context: ${ctx}`,
    '',
  ].join('\n');
}

/**
 * OLM's release manifests, from the operator-lifecycle-manager module at the version
 * cluster/olm.version pins: its CRDs (OLM's copies of operator-framework/api's published CRD
 * manifests) and the aggregated ClusterRoles that give the admin, edit and view roles their OLM
 * rights (part 2 runs OLM itself from the same module).
 */
function olmManifests(): { crds: string[]; aggregatedRoles: string } {
  const version = readFileSync(join(root, 'cluster', 'olm.version'), 'utf8').trim();
  const r = spawnSync(
    'go',
    ['mod', 'download', '-json', `github.com/operator-framework/operator-lifecycle-manager@${version}`],
    { cwd: join(root, 'cluster'), env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' } },
  );
  if (r.status !== 0)
    throw new Error(
      `go mod download github.com/operator-framework/operator-lifecycle-manager@${version} failed: ${r.stderr.toString()}${r.stdout.toString()}`,
    );
  const dir = join((JSON.parse(r.stdout.toString()) as { Dir: string }).Dir, 'deploy', 'chart');
  return {
    crds: readdirSync(join(dir, 'crds'))
      .filter((n) => n.endsWith('.crd.yaml'))
      .sort()
      .map((n) => join(dir, 'crds', n)),
    aggregatedRoles: join(dir, 'templates', '0000_50_olm_09-aggregated.clusterrole.yaml'),
  };
}

/**
 * The identity provider a cluster started with `--oidc --data-dir dir` runs, for `--oidc-trust dir`:
 * its issuer (written once it listens) and CA. Refused with the reason when that cluster has none.
 */
function trustedProvider(dir: string): { dir: string; issuer: string; caPem: string } {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      throw new Error(`--oidc-trust ${dir}: no ${name} there; start a cluster with --oidc --data-dir ${dir} first`);
    }
  };
  return { dir, issuer: read('oidc-issuer').trim(), caPem: read('oidc-ca.crt') };
}

/** How long `opm serve` may take to build its cache and answer (see where it is awaited). */
const OPM_SERVING_MS = 20 * 60_000;

const children: ChildProcess[] = [];
/** Each child's program, as run() names it. */
const childNames = new WeakMap<ChildProcess, string>();
let stopping = false;

// The children are stopped by scripts/child-watchdog.ts if this process dies any other way.
const watchdog = startWatchdog();

/**
 * Stops the children, last started first (opm, controller manager, API server, etcd): etcd within
 * 15 s, every other program within 3 s. Only etcd keeps state; kube-apiserver, once its clients
 * are gone, never ended by itself within the 15 s it was given (measured: every stop took 15 s),
 * which every test starting a cluster paid.
 */
async function stopAll(): Promise<void> {
  stopping = true;
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const gone = new Promise<void>((res) => c.once('exit', () => res()));
    c.kill('SIGTERM');
    const grace = childNames.get(c) === 'etcd' ? 15_000 : 3_000;
    const timer = setTimeout(() => c.kill('SIGKILL'), grace);
    await gone;
    clearTimeout(timer);
  }
  // Everything stopped cleanly: the watchdog has nothing left to do.
  if (watchdog.exitCode === null) watchdog.kill('SIGKILL');
}

function onSignal(): void {
  if (stopping) return;
  void stopAll().then(() => process.exit(0));
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);
// An exit not by a signal (an error below): no time to wait, so every child gets its SIGTERM
// now and the watchdog, whose stdin this exit closes, its SIGKILL if it outstays 10 s.
process.once('exit', () => {
  stopping = true;
  const left = children.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of left) c.kill('SIGTERM');
  if (!left.length && watchdog.exitCode === null) watchdog.kill('SIGKILL');
});

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        catalog: { type: 'string', multiple: true, default: [] },
        registry: { type: 'string', multiple: true, default: [] },
        flavor: { type: 'string', default: 'upstream' },
        'v0-bundles': { type: 'string', default: 'inline' },
        'image-catalog': { type: 'string', multiple: true, default: [] },
        'data-dir': { type: 'string', default: join(root, '.cluster') },
        port: { type: 'string', default: '0' },
        // On by default, as OpenShift runs OLM v1 beside v0; `--no-olm-v1` (allowNegative) leaves it out.
        'olm-v1': { type: 'boolean', default: true },
        oidc: { type: 'boolean', default: false },
        'oidc-id-token-ttl': { type: 'string', default: '300' },
        'oidc-trust': { type: 'string' },
        fleet: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowNegative: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (values.fleet !== undefined) {
    // The fleet runs clusters of this program as its children and stops them itself.
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeListener(sig, onSignal);
    watchdog.kill('SIGKILL');
    const { n, dataDir, forwarded } = fleetArgs(process.argv.slice(2));
    return fleet(n, dataDir, forwarded);
  }
  const requestedPort = Number(values.port);
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535)
    throw new Error(`--port must be a number between 0 and 65535, got "${values.port}"`);
  if (values.flavor !== 'upstream' && values.flavor !== 'openshift')
    throw new Error(`--flavor must be upstream or openshift, got "${values.flavor}"`);
  const flavor: Flavor = values.flavor;
  if (values['v0-bundles'] !== 'inline' && values['v0-bundles'] !== 'image')
    throw new Error(`--v0-bundles must be inline or image, got "${values['v0-bundles']}"`);
  const v0ByImage = values['v0-bundles'] === 'image';
  const dataDir = resolve(values['data-dir']);
  if (values.oidc && values['oidc-trust'])
    throw new Error("--oidc starts a provider and --oidc-trust trusts another cluster's: choose one");
  const trusted = values['oidc-trust'] === undefined ? undefined : trustedProvider(resolve(values['oidc-trust']));
  // Its own kubectl discovery cache: ~/.kube/cache is keyed by host:port, and a sandbox may have
  // had this port before, with other resources.
  process.env.KUBECACHEDIR ??= join(dataDir, 'kubectl-cache');
  for (const c of [...values.catalog, ...values.registry, ...values['image-catalog']])
    if (!statSync(c, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--catalog ${c}: no such folder`);
  mkdirSync(join(dataDir, 'logs'), { recursive: true });

  const build = spawnSync('bash', [join(root, 'cluster', 'build.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new Error('cluster/build.sh failed');
  const paths = Object.fromEntries(
    spawnSync('bash', [join(root, 'cluster', 'build.sh'), 'paths'])
      .stdout.toString()
      .trim()
      .split('\n')
      .map((l) => l.split('=') as [string, string]),
  );

  // `restart`: the program stands for a pod a kubelet would restart (OLM's operators): a crash is
  // reported, with its panic, and the program started again after a back-off, as CrashLoopBackOff
  // does (10 s doubling to 5 min there; 1 s doubling to 30 s here). Anything else ends the cluster.
  const restarts = new Map<string, number>();
  const run = (
    name: string,
    bin: string,
    args: string[],
    env: Record<string, string> = {},
    restart = false,
  ): ChildProcess => {
    const log = join(dataDir, 'logs', `${name}.log`);
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    // OLM wraps its clients in a "validating round tripper" whenever CI is set in its environment
    // (pkg/controller/operators/validatingroundtripper, meant for OLM's own CI): it panics on any
    // create without the olm.managed label, a TokenRequest for a scoped install's service account
    // included, which exits the catalog operator with status 2. A cluster's pods never have our CI.
    delete childEnv.CI;
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
    let tail = '';
    // A Go program's crash starts with "panic:" or "fatal error:" and the failing goroutine; the
    // other goroutines' stacks follow and fill any tail, so that start is kept on its own.
    let crash = '';
    const keep = (d: Buffer) => {
      const text = d.toString();
      tail = (tail + text).slice(-4000);
      if (!crash) {
        const at = tail.search(/^(panic: |fatal error: )/m);
        if (at >= 0) crash = tail.slice(at);
      } else if (crash.length < 6000) crash = (crash + text).slice(0, 6000);
      writeFileSync(log, d, { flag: 'a' });
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => {
      if (!stopping) {
        // The data folder goes with the cluster: keep the whole log where it can still be read.
        const kept = join(tmpdir(), `olm-cluster-${name}-${Date.now()}.log`);
        try {
          copyFileSync(log, kept);
        } catch {
          // the log was never written
        }
        console.error(`${name} exited (${signal ?? code}); its log: ${kept}\n${crash ? `${crash}\n…\n` : ''}${tail}`);
        if (!restart) {
          void stopAll().then(() => process.exit(1));
          return;
        }
        const n = (restarts.get(name) ?? 0) + 1;
        restarts.set(name, n);
        const wait = Math.min(30_000, 1000 * 2 ** (n - 1));
        console.error(`${name}: restart ${n} in ${wait / 1000} s, as a kubelet restarts a crashed pod`);
        setTimeout(() => {
          if (!stopping) run(name, bin, args, env, restart);
        }, wait).unref();
      }
    });
    if (child.pid) watchdog.stdin!.write(`${child.pid}\n`);
    children.push(child);
    childNames.set(child, name);
    return child;
  };
  const alive = (c: ChildProcess, name: string) => () => {
    if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${name} exited (${c.signalCode ?? c.exitCode})`);
  };

  certificates(dataDir);
  const tokensFile = join(dataDir, 'tokens.json');
  const tokens: Record<string, string> = existsSync(tokensFile) ? JSON.parse(readFileSync(tokensFile, 'utf8')) : {};
  for (const u of SEED) tokens[u.name] ??= `real-${u.name}-${randomBytes(16).toString('hex')}`;
  writeFileSync(tokensFile, JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  writeFileSync(
    join(dataDir, 'tokens.csv'),
    SEED.map((u) => `${tokens[u.name]},${u.name},${u.name}${u.groups.length ? `,"${u.groups.join(',')}"` : ''}`).join(
      '\n',
    ) + '\n',
    { mode: 0o600 },
  );

  const [etcdClient, etcdPeer] = [await freePort(), await freePort()];
  const etcd = run('etcd', paths.etcd!, [
    '--name',
    'real',
    '--data-dir',
    join(dataDir, 'etcd'),
    '--listen-client-urls',
    `http://127.0.0.1:${etcdClient}`,
    '--advertise-client-urls',
    `http://127.0.0.1:${etcdClient}`,
    '--listen-peer-urls',
    `http://127.0.0.1:${etcdPeer}`,
    '--initial-advertise-peer-urls',
    `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster',
    `real=http://127.0.0.1:${etcdPeer}`,
    '--log-level',
    'warn',
  ]);
  await until('etcd', () => accepts(etcdClient), 30_000, alive(etcd, 'etcd'));

  const port = requestedPort || (await freePort());
  const d = (n: string) => join(dataDir, n);
  // The identity provider first: kube-apiserver reads its discovery document and keys.
  let oidcIssuer: string | undefined;
  if (values.oidc) {
    // A previous run's address is not this run's: a cluster waiting to trust this one waits for the new.
    rmSync(d('oidc-issuer'), { force: true });
    oidcCertificates(dataDir);
    oidcSeed(dataDir);
    const log = d(join('logs', 'oidc-provider.log'));
    writeFileSync(log, '');
    const provider = run('oidc-provider', process.execPath, [
      '--import',
      'tsx',
      join(root, 'scripts', 'oidc-provider.ts'),
      '--dir',
      dataDir,
      '--id-token-ttl',
      values['oidc-id-token-ttl'],
    ]);
    await until(
      'the OIDC provider',
      async () => /^oidc issuer: /m.test(readFileSync(log, 'utf8')),
      60_000,
      alive(provider, 'oidc-provider'),
    );
    oidcIssuer = /^oidc issuer: (\S+)$/m.exec(readFileSync(log, 'utf8'))![1]!;
    // For a cluster started with --oidc-trust this folder: the provider's address changes per run.
    writeFileSync(d('oidc-issuer'), `${oidcIssuer}\n`);
    writeFileSync(
      d('authentication-config.yaml'),
      authenticationConfiguration(oidcIssuer, readFileSync(d('oidc-ca.crt'), 'utf8')),
    );
  }
  // Another cluster's provider: the same AuthenticationConfiguration, so the same ID token is a
  // user of this cluster too (and the same RBAC for its groups, below).
  const oidcDir = trusted?.dir ?? dataDir;
  if (trusted) {
    oidcIssuer = trusted.issuer;
    writeFileSync(d('authentication-config.yaml'), authenticationConfiguration(trusted.issuer, trusted.caPem));
  }
  const apiserver = run('kube-apiserver', paths['kube-apiserver']!, [
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--tls-cert-file=${d('apiserver.crt')}`,
    `--tls-private-key-file=${d('apiserver.key')}`,
    `--client-ca-file=${d('ca.crt')}`,
    `--token-auth-file=${d('tokens.csv')}`,
    '--authorization-mode=RBAC',
    // Structured authentication (apiserver.config.k8s.io/v1) beside the static tokens.
    ...(oidcIssuer ? [`--authentication-config=${d('authentication-config.yaml')}`] : []),
    `--service-account-key-file=${d('sa.pub')}`,
    `--service-account-signing-key-file=${d('sa.key')}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    '--service-cluster-ip-range=10.96.0.0/16',
    `--requestheader-client-ca-file=${d('front-proxy-ca.crt')}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--proxy-client-cert-file=${d('front-proxy-client.crt')}`,
    `--proxy-client-key-file=${d('front-proxy-client.key')}`,
    // Off, so the aggregator dials a Service's own address: package-server's ExternalName
    // Service names the loopback (scripts/cluster-olm.ts).
    '--enable-aggregator-routing=false',
  ]);
  // The catalogs meanwhile: opm needs nothing of the cluster. Its cache is built at start (not
  // required to exist); pprof on a free loopback port, so several opm processes do not fight
  // over its default :6060. (opm listens on every interface: `opm serve` has no address flag.)
  const served: {
    dir: string;
    name: string;
    displayName: string;
    port: number;
    opm: ChildProcess;
    kind: 'catalog' | 'registry';
  }[] = [];
  const serve = async (dir: string, name: string, displayName: string, kind: 'catalog' | 'registry') => {
    const p = await freePort();
    const opm = run(`opm-${kind}-${name}`, paths.opm!, [
      'serve',
      dir,
      '-p',
      String(p),
      '--cache-dir',
      d(join('opm-cache', kind, name)),
      '--cache-enforce-integrity=false',
      '--pprof-addr',
      `127.0.0.1:${await freePort()}`,
      '-t',
      d(join('logs', `opm-${kind}-${name}.termination-log`)),
    ]);
    served.push({ dir, name, displayName, port: p, opm, kind });
  };
  for (const dir of values.registry)
    await serve(resolve(dir), basename(resolve(dir)), basename(resolve(dir)), 'registry');
  // The image registry, before any CatalogSource when OLM v0 unpacks from it: its bundle images
  // must be there when OLM first resolves.
  let registry: Registry | undefined;
  const imageCatalogs = values['image-catalog'].map((c) => resolve(c));
  if (values['olm-v1'] || v0ByImage || imageCatalogs.length)
    registry = await startRegistry({ dataDir, paths, run, until, alive, freePort, accepts });
  for (const dir of [...values.catalog, ...imageCatalogs]) {
    const name = catalogSourceName(dir);
    const copy = renderInlineCatalog(resolve(dir), d(join('catalogs', name)));
    console.log(
      `inline copy of ${name}: ${copy.bundles} bundles (${copy.derived} derived from olm.csv.metadata)${copy.reused ? ', copy reused' : ''}`,
    );
    if (v0ByImage || imageCatalogs.includes(dir)) {
      const byImage = await renderImageOnlyCatalog(
        resolve(dir),
        copy.dir,
        d(join('catalogs-by-image', name)),
        registry!,
        paths.opm!,
      );
      console.log(`image-only copy of ${name}: ${byImage.bundles} bundles given by image`);
      await serve(byImage.dir, name, basename(resolve(dir)), 'catalog');
    } else await serve(copy.dir, name, basename(resolve(dir)), 'catalog');
  }
  const server = `https://127.0.0.1:${port}`;
  const caPem = readFileSync(d('ca.crt'), 'utf8');
  const kubeconfig = d('kubeconfig');
  // Written again, whole and by rename, once catalogd's content address is known (startOlmV1).
  const writeKubeconfigs = (catalogd?: string) => {
    for (const u of SEED) {
      const file = u.name === 'admin' ? kubeconfig : d(`kubeconfig-${u.name}`);
      writeFileSync(`${file}.tmp`, kubeconfigYaml(server, caPem, u.name, tokens[u.name]!, catalogd), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    }
  };
  writeKubeconfigs();
  const kubectl = (args: string[], input?: string) => {
    const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { input });
    if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  const kubectlOk = (args: string[]) => spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args]);
  await until(
    'kube-apiserver /readyz',
    async () => kubectlOk(['get', '--raw', '/readyz']).status === 0,
    120_000,
    alive(apiserver, 'kube-apiserver'),
  );

  // kube-controller-manager: ClusterRole aggregation (the admin, edit and view roles get OLM's
  // rights through it), garbage collection, namespace deletion, service-account tokens.
  const kcm = run('kube-controller-manager', paths['kube-controller-manager']!, [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    `--service-account-private-key-file=${d('sa.key')}`,
    `--root-ca-file=${d('ca.crt')}`,
    '--cluster-name=olm-console-real',
    // kwok's node is fake and always there; when a heartbeat comes late under load the node
    // lifecycle controller marks its pods not Ready, and kwok never makes them Ready again.
    '--controllers=*,-node-lifecycle-controller',
  ]);
  const adminRoleHas = (resource: string) => async () =>
    new RegExp(`\\b${resource}\\b`).test(
      kubectlOk(['get', 'clusterrole', 'admin', '-o', 'jsonpath={.rules[*].resources}']).stdout.toString(),
    );
  await until(
    'kube-controller-manager to aggregate the admin role',
    adminRoleHas('serviceaccounts'),
    60_000,
    alive(kcm, 'kube-controller-manager'),
  );

  // The sandbox's seed users: alice administers team1 only, bob views everything.
  kubectl(
    ['apply', '-f', '-'],
    [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team1',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: seed:alice-admin\n  namespace: team1\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: admin\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: alice',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: seed:bob-view\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: bob',
    ].join('\n---\n'),
  );
  if (oidcIssuer) kubectl(['apply', '-f', '-'], oidcRbacYaml());
  // OLM's CRDs and aggregated roles as its release installs them (server-side: some CRDs
  // exceed the size of the annotation a client-side apply keeps).
  const olm = olmManifests();
  kubectl(['apply', '--server-side', '--force-conflicts', ...olm.crds.flatMap((f) => ['-f', f])]);
  kubectl(['apply', '--server-side', '--force-conflicts', '-f', olm.aggregatedRoles]);
  await until(
    "the admin role to carry OLM's rights",
    adminRoleHas('subscriptions'),
    60_000,
    alive(kcm, 'kube-controller-manager'),
  );
  kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all']);
  // Established is not yet listable: a new CRD's storage answers 429 "storage is (re)initializing" for a moment.
  await until(
    'the OLM kinds to be listable',
    async () =>
      spawnSync('kubectl', [
        '--kubeconfig',
        kubeconfig,
        'get',
        'clusterserviceversions,subscriptions,installplans,catalogsources,operatorgroups,operatorconditions,olmconfigs,operators',
        '-A',
      ]).status === 0,
    60_000,
    alive(apiserver, 'kube-apiserver'),
  );

  // kubectl refuses an empty apply; a cluster without catalogs has none to apply.
  const apply = (objects: object[]) =>
    objects.length && kubectl(['apply', '-f', '-'], objects.map((o) => JSON.stringify(o)).join('\n'));
  const ns = olmNamespaces(flavor);
  apply(olmInstallObjects(flavor));

  // Pods: kube-scheduler binds them, kwok runs them on its node (Running, Ready, an IP).
  run('kube-scheduler', paths['kube-scheduler']!, [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
  ]);
  // kwok's own pod stages, but OLM's unpack pods are left to the unpack runner below.
  const kwok = run('kwok', paths.kwok!, [
    `--config=${writeKwokConfig(root, d('kwok-stages.yaml'))}`,
    `--kubeconfig=${kubeconfig}`,
    `--manage-single-node=${KWOK_NODE}`,
    '--cidr=10.244.0.0/16',
    '--node-ip=10.0.0.2',
    `--server-address=127.0.0.1:${await freePort()}`,
  ]);
  apply([kwokNode()]);
  await until(
    'the kwok node to be Ready',
    async () =>
      kubectlOk([
        'get',
        'node',
        KWOK_NODE,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ]).stdout.toString() === 'True',
    60_000,
    alive(kwok, 'kwok'),
  );
  // A new node is tainted not-ready (admission, TaintNodesByCondition); the node lifecycle
  // controller, left out above, is what lifts the taint once the node is Ready.
  if (
    kubectlOk(['get', 'node', KWOK_NODE, '-o', 'jsonpath={.spec.taints[*].key}'])
      .stdout.toString()
      .includes('node.kubernetes.io/not-ready')
  ) {
    kubectl(['taint', 'node', KWOK_NODE, 'node.kubernetes.io/not-ready:NoSchedule-']);
  }
  // What a kubelet does for OLM's bundle unpack pods on kwok's node (scripts/cluster-unpack.ts).
  startUnpackRunner({
    kubeconfig,
    node: KWOK_NODE,
    nodeIP: '10.0.0.2',
    registry: paths.registry!,
    registryCa: d('ca.crt'),
    opm: paths.opm!,
    workDir: d('unpack'),
    log: (line) =>
      writeFileSync(d(join('logs', 'unpack-runner.log')), `${new Date().toISOString()} ${line}\n`, { flag: 'a' }),
  });

  // OLM's operators, as its Deployments run them (deploy/chart), as processes with the admin's
  // kubeconfig. Their health ports are fixed (:8080); a clash only costs the health endpoint.
  const olmEnv = { KUBECONFIG: kubeconfig, OPERATOR_NAMESPACE: ns.olm, OPERATOR_NAME: 'olm-operator' };
  run('olm-operator', paths.olm!, ['--namespace', ns.olm, '--writeStatusName', ''], olmEnv, true);
  run(
    'catalog-operator',
    paths.catalog!,
    ['--namespace', ns.catalog, '--kubeconfig', kubeconfig, '--writeStatusName', ''],
    { ...olmEnv, OPERATOR_NAME: 'catalog-operator' },
    true,
  );
  packageServerCertificate(dataDir, ns.olm);
  const psPort = await freePort();
  // package-server v0.38.0 gives --kubeconfig to its authentication options twice and never to
  // its authorization options (pkg/package-server/server/server.go), which therefore always read
  // the in-cluster config: the KUBERNETES_SERVICE_* variables and the service-account files at
  // their fixed path. So it runs in a mount namespace of its own where that path holds the CA
  // and a token of ours (`unshare`, root): the machine's own /var/run is left untouched.
  const inCluster = d('package-server-serviceaccount');
  mkdirSync(inCluster, { recursive: true });
  writeFileSync(join(inCluster, 'ca.crt'), caPem);
  writeFileSync(join(inCluster, 'token'), tokens.admin!, { mode: 0o600 });
  writeFileSync(join(inCluster, 'namespace'), ns.olm);
  const packageServer = run(
    'package-server',
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      'mount -t tmpfs tmpfs /var/run && mkdir -p /var/run/secrets/kubernetes.io/serviceaccount && mount --bind "$0" /var/run/secrets/kubernetes.io/serviceaccount && exec "$@"',
      inCluster,
      paths['package-server']!,
      `--secure-port=${psPort}`,
      '--bind-address=127.0.0.1',
      `--global-namespace=${ns.catalog}`,
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      `--tls-cert-file=${d('packageserver.crt')}`,
      `--tls-private-key-file=${d('packageserver.key')}`,
    ],
    { ...olmEnv, KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(port) },
  );
  apply(packageServerObjects(flavor, psPort, caPem));
  await until(
    'the packages API to be available',
    async () =>
      kubectlOk([
        'get',
        'apiservice',
        'v1.packages.operators.coreos.com',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Available")].status}',
      ]).stdout.toString() === 'True',
    120_000,
    alive(packageServer, 'package-server'),
  );

  console.log(`kubeconfig: ${kubeconfig}`);
  for (const c of served) {
    // opm builds its cache before it listens: seconds for a published catalog, but about five
    // minutes for one copied to OpenShift's 1,180 packages on a busy 2-core machine
    // (bench/real-vs-scale.bench.ts). A crashed opm still ends the wait at once (alive).
    await until(
      `opm serve ${c.dir}`,
      async () => (await accepts(c.port)) && (await serving(`127.0.0.1:${c.port}`)),
      OPM_SERVING_MS,
      alive(c.opm, `opm serve ${c.dir}`),
    );
    if (c.kind === 'registry') console.log(`registry ${c.name}: 127.0.0.1:${c.port}`);
  }
  const sources = served.filter((c) => c.kind === 'catalog');
  apply(sources.map((c) => catalogSource(flavor, c.name, c.displayName, `127.0.0.1:${c.port}`)));
  for (const c of sources) {
    await until(
      `CatalogSource ${c.name} to be READY`,
      async () =>
        kubectlOk([
          'get',
          'catalogsource',
          '-n',
          ns.catalog,
          c.name,
          '-o',
          'jsonpath={.status.connectionState.lastObservedState}',
        ]).stdout.toString() === 'READY',
      120_000,
      alive(c.opm, `opm serve ${c.dir}`),
    );
    await until(
      `the packages of ${c.name} to be listed`,
      async () =>
        kubectlOk(['get', 'packagemanifests', '-n', ns.catalog, '-l', `catalog=${c.name}`, '-o', 'name'])
          .stdout.toString()
          .trim() !== '',
      120_000,
      alive(packageServer, 'package-server'),
    );
    console.log(`catalog ${c.name}: 127.0.0.1:${c.port}`);
  }
  if (values['olm-v1'])
    await startOlmV1({
      root,
      dataDir,
      nameCatalogd: writeKubeconfigs,
      paths,
      catalogs: values.catalog,
      run,
      until,
      alive,
      freePort,
      accepts,
      kubectl,
      kubectlOk,
      registry: registry!,
    });
  if (oidcIssuer) {
    console.log(`oidc issuer: ${oidcIssuer}`);
    console.log(`oidc users: ${join(oidcDir, 'oidc-users.json')}`);
    console.log(
      `oidc console flags: --kubeconfig ${kubeconfig} --oidc-issuer ${oidcIssuer} --oidc-client-id ${OIDC_CLIENT_ID} --oidc-client-secret-file ${join(oidcDir, 'oidc-client-secret')} --oidc-ca-file ${join(oidcDir, 'oidc-ca.crt')}`,
    );
  }
  console.log('cluster ready');
}

main().catch((err: unknown) => {
  console.error(`npm run cluster: ${(err as Error).message}`);
  process.exit(1);
});
