// `npm start`: build the console when the build is missing or older than the sources, then serve
// it. A stale build is the trap this guards against: after a `git pull`, `next start` would
// happily serve yesterday's pages. With no cluster configured it also starts the sandbox cluster
// (its own process), beside the build since neither needs the other, and points the console at
// it; a sandbox that dies is started again on the same port, data file and kubeconfig
// (sandbox-supervisor.ts), so the console runs on.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { logFormat, logger } from '../lib/observability/logger';
import { sandboxSessionKey } from './sandbox-session-key';
import { SandboxSupervisor } from './sandbox-supervisor';
import { planBuild, planStart, sandboxCaBundle, sandboxRegistryEnv, START_BUILD_ENV } from './start-options';

const osSignals = constants.signals;
const root = join(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const serverMain = join(root, 'lib', 'server', 'http', 'main.ts');
const sourceDirs = ['app', 'components', 'lib', 'public'];
const sourceFiles = ['instrumentation.ts', 'next.config.js', 'package.json', 'postcss.config.mjs', 'tsconfig.json'];

const usage = `usage: npm start -- [--port N] [--host ADDR] [--rebuild]
                         [--kubeconfig PATH] [--context NAME] [--in-cluster] [--per-user-tokens]
                         [--sandbox] [--catalog DIR ...] [--clusters N] [--bundle-images on|off]
                         [--cluster NAME=KUBECONFIG[:CONTEXT] ...] [--public-url URL] [--trust-proxy]
                         [--upgrade-approver] [--oidc-issuer URL --oidc-client-id ID
                         [--oidc-client-secret-file PATH] [--oidc-ca-file PATH]]

  --port N           port of the console (default 3000)
  --host ADDR        address to listen on (default 127.0.0.1; the console acts with cluster credentials)
  --rebuild          build even when the build looks current
  --kubeconfig PATH  the cluster to use (default: $KUBECONFIG); its user is the identity. Every
                     context of it is a cluster of the fleet pages; the current one is the home
                     cluster every other page shows
  --context NAME     a context of that kubeconfig: the home cluster
  --in-cluster       running in a pod: the cluster from the service account mount, and each
                     person logs in with their own token
  --per-user-tokens  with a kubeconfig: use only its cluster address and CA; each person logs in
                     with their own token
  --sandbox          start the embedded sandbox cluster (the default when no cluster is given)
  --catalog DIR      with the sandbox: an FBC catalog folder to serve (repeatable)
  --clusters N       the sandbox with N clusters (2 to 100) in one process, seeded with different
                     operator versions and waiting approvals, for the fleet pages
  --cluster NAME=KUBECONFIG[:CONTEXT]
                     a cluster of the fleet, named, with its kubeconfig and context (default the
                     kubeconfig's current one); repeatable; the first is the home cluster
  --bundle-images on|off
                     with the sandbox: on (default), its catalogs give bundles by image in its own
                     registry, as published catalogs do (the demo's objects only in images); off,
                     the demo bundles carry their objects
  --public-url URL   the origin people open the console at (https://console.example.com); the
                     console answers only to it and to loopback names at --port
  --trust-proxy      believe X-Forwarded-Host/-Proto/-For: only behind a proxy you run
  --upgrade-approver approve the InstallPlans on the way to upgrade targets people set, as the
                     console's own identity (with the sandbox its admin; else the kubeconfig's
                     user or the pod's service account), and only for targets the console sealed
                     for someone allowed to approve them; off by default (same as
                     OLM_CONSOLE_UPGRADE_APPROVER=console)
  --oidc-issuer URL  sign people in with this OpenID Connect provider (which the cluster's API
                     server trusts): implies per-user sessions; with --oidc-client-id ID, the
                     client secret from --oidc-client-secret-file PATH or
                     OLM_CONSOLE_OIDC_CLIENT_SECRET, the issuer's CA from --oidc-ca-file PATH
                     (npm run cluster -- --oidc prints these flags)
  Combinations that name two clusters (--sandbox with --kubeconfig, --in-cluster with either)
  are refused; --per-user-tokens works with the sandbox too (log in with .sandbox/tokens.json).`;

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (path: string): void => {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name));
    } else if (!/\.test\.tsx?$/.test(path)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const d of sourceDirs) visit(join(root, d));
  for (const f of sourceFiles) visit(join(root, f));
  return newest;
}

/**
 * Runs `next build` in the run's one log format: as it is on a terminal, each line a log entry
 * otherwise (a log collector reads JSON lines from the first line of the run to the last).
 */
function build(log: ReturnType<typeof logger>): { child: ChildProcess; done: Promise<number> } {
  const json = logFormat() === 'json';
  const child = spawn(process.execPath, [nextBin, 'build'], {
    cwd: root,
    env: { ...process.env, ...START_BUILD_ENV },
    stdio: json ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (json) {
    for (const [stream, level] of [
      [child.stdout!, 'info'],
      [child.stderr!, 'warn'],
    ] as const) {
      createInterface({ input: stream }).on('line', (line) => {
        if (line.trim()) log[level]({ source: 'next build' }, line.trim());
      });
    }
  }
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1))) };
}

/** When the current build was made (its BUILD_ID is written last), or undefined without one. */
function builtAt(): number | undefined {
  return statSync(join(root, '.next', 'BUILD_ID'), { throwIfNoEntry: false })?.mtimeMs;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        rebuild: { type: 'boolean', default: false },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'in-cluster': { type: 'boolean', default: false },
        'per-user-tokens': { type: 'boolean', default: false },
        sandbox: { type: 'boolean', default: false },
        catalog: { type: 'string', multiple: true, default: [] },
        clusters: { type: 'string' },
        cluster: { type: 'string', multiple: true, default: [] },
        'bundle-images': { type: 'string' },
        'public-url': { type: 'string' },
        'trust-proxy': { type: 'boolean', default: false },
        'upgrade-approver': { type: 'boolean', default: false },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-client-secret-file': { type: 'string' },
        'oidc-ca-file': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const plan = planStart(
    {
      port: values.port,
      host: values.host,
      kubeconfig: values.kubeconfig,
      context: values.context,
      inCluster: values['in-cluster'],
      perUserTokens: values['per-user-tokens'],
      sandbox: values.sandbox,
      catalog: values.catalog,
      clusters: values.clusters,
      cluster: values.cluster,
      ...(values['bundle-images'] !== undefined ? { bundleImages: values['bundle-images'] } : {}),
      publicUrl: values['public-url'],
      trustProxy: values['trust-proxy'],
      upgradeApprover: values['upgrade-approver'],
      oidcIssuer: values['oidc-issuer'],
      oidcClientId: values['oidc-client-id'],
      oidcClientSecretFile: values['oidc-client-secret-file'],
      oidcCaFile: values['oidc-ca-file'],
    },
    process.env.KUBECONFIG,
    process.env.OLM_CONSOLE_UPGRADE_APPROVER,
  );
  if (!plan.ok) {
    console.error(`${plan.message}\n\n${usage}`);
    process.exit(2);
  }

  const log = logger();
  const env: NodeJS.ProcessEnv = { ...process.env, ...plan.env };
  // Catalog snapshots beside the build's cache, so a second start serves OperatorHub at once.
  env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR ??= join(root, '.next', 'cache', 'catalog-index');
  let sandbox: SandboxSupervisor | undefined;
  let building: ChildProcess | undefined;
  // Until the server runs, a stop ends what has started so far (the sandbox, the build).
  const stopEarly = (sig: NodeJS.Signals) => {
    building?.kill(sig);
    void (sandbox ? sandbox.stop(sig) : Promise.resolve()).then(() => process.exit(128 + osSignals[sig]));
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, stopEarly);

  // The sandbox (its catalogs, its certificates) starts while Next.js builds: on a first start
  // it is ready long before the build is.
  let sandboxUp: Promise<void> = Promise.resolve();
  if (plan.sandbox) {
    // A fleet keeps its own folder: a later single-cluster start finds its sandbox as it left it.
    const folder = plan.sandboxClusters > 1 ? join(root, '.sandbox', 'fleet') : join(root, '.sandbox');
    const sb = new SandboxSupervisor({
      root,
      kubeconfig: join(folder, 'kubeconfig'),
      dataFile: join(folder, 'data.jsonl'),
      catalogs: plan.catalogs,
      ...(plan.sandboxClusters > 1 ? { clusters: plan.sandboxClusters } : {}),
      sandboxArgs: plan.sandboxArgs,
      output: (text) => {
        for (const line of text.split('\n')) if (line.trim()) log.info({ source: 'sandbox' }, line.trim());
      },
    });
    sandbox = sb;
    sandboxUp = sb.start().then(
      (up) => {
        env.OLM_CONSOLE_KUBECONFIG = up.kubeconfig;
        // Its catalogs give bundles by image in its own registry: pull them, as OLM does.
        const kubeconfigText = readFileSync(up.kubeconfig, 'utf8');
        // A fleet's clusters each have a certificate of their own: the console trusts them all.
        let caFile = join(root, '.sandbox', 'serving.crt');
        if (plan.sandboxClusters > 1) {
          caFile = join(folder, 'registry-cas.pem');
          writeFileSync(caFile, sandboxCaBundle(kubeconfigText), { mode: 0o600 });
        }
        const images = sandboxRegistryEnv(kubeconfigText, caFile, env);
        Object.assign(env, images.env);
        if (images.registry)
          log.info(
            `bundle images: ${env.OLM_CONSOLE_PULL_BUNDLE_IMAGES === 'true' ? 'pulled' : 'not pulled'} from the sandbox registr${images.registry.includes(',') ? 'ies' : 'y'} ${images.registry}`,
          );
        if (images.note) log.warn(images.note);
        env.OLM_CONSOLE_SESSION_KEY ??= sandboxSessionKey(join(root, '.sandbox', 'session-key'));
        log.info(`${plan.describe} at ${up.url} (kubectl --kubeconfig ${up.kubeconfig} get ns)`);
        sb.on('restarting', ({ how, delayMs }) =>
          log.warn(
            `the sandbox ${how}; starting it again in ${delayMs} ms on port ${up.port} with the same data and kubeconfig`,
          ),
        );
        sb.on('listening', ({ url, restarts }) => {
          if (restarts) log.info(`the sandbox is back at ${url} (restart ${restarts})`);
        });
      },
      (err: unknown) => {
        // Waiting for the build would only delay the news: the console cannot run without it.
        building?.kill('SIGTERM');
        throw err;
      },
    );
  } else {
    log.info(plan.describe);
  }

  const decision = planBuild(values.rebuild, builtAt(), newestSourceMtime());
  if (decision.build) {
    log.info(
      `building the console (next build; ${decision.reason}): a minute or more the first time, then only after the sources change`,
    );
    const run = build(log);
    building = run.child;
    // A sandbox that fails to start ends the wait at once (it stopped the build); a failed build
    // stops the sandbox.
    const status = await Promise.race([run.done, sandboxUp.then(() => run.done)]);
    building = undefined;
    if (status !== 0) {
      await sandbox?.stop('SIGTERM');
      process.exit(status);
    }
  }
  await sandboxUp;

  // The approver acts with the console's own identity, so say so whenever it runs.
  if (env.OLM_CONSOLE_UPGRADE_APPROVER) {
    log.info(`upgrade approver: ${env.OLM_CONSOLE_UPGRADE_APPROVER} (only for targets the console sealed)`);
  }

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', serverMain, '--port', plan.env.OLM_CONSOLE_PORT!, '--host', values.host],
    { cwd: root, stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } },
  );
  // Ctrl-C and SIGTERM stop both; the supervisor restarts nothing once asked to stop.
  const stopAll = (sig: NodeJS.Signals) => {
    child.kill(sig);
    void sandbox?.stop(sig);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.off(sig, stopEarly);
    process.on(sig, () => stopAll(sig));
  }
  child.on('exit', (code) => {
    // stop() sends the signal at once; the sandbox finishes stopping by itself.
    void sandbox?.stop('SIGTERM');
    process.exit(code ?? 0);
  });
  // Given up on (crashing again and again) or stopped on purpose: the console stops too.
  sandbox?.on('stopped', ({ reason }) => {
    if (child.exitCode === null && child.signalCode === null) {
      log.error(`${reason}; stopping the console`);
      child.kill('SIGTERM');
    }
  });
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
