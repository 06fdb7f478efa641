// `npm start`: build the console when the build is missing or older than the sources, then serve
// it. A stale build is the trap this guards against: after a `git pull`, `next start` would
// happily serve yesterday's pages. With no cluster configured it first starts the sandbox
// cluster (its own process) and points the console at it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { planStart } from './start-options';

const root = join(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const serverMain = join(root, 'lib', 'server', 'http', 'main.ts');
const sourceDirs = ['app', 'components', 'lib', 'public'];
const sourceFiles = ['instrumentation.ts', 'next.config.js', 'package.json', 'postcss.config.mjs', 'tsconfig.json'];

const usage = `usage: npm start -- [--port N] [--host ADDR] [--rebuild]
                         [--kubeconfig PATH] [--context NAME] [--in-cluster] [--per-user-tokens]
                         [--sandbox] [--catalog DIR ...] [--public-url URL] [--trust-proxy]

  --port N           port of the console (default 3000)
  --host ADDR        address to listen on (default 127.0.0.1; the console acts with cluster credentials)
  --rebuild          build even when the build looks current
  --kubeconfig PATH  the cluster to use (default: $KUBECONFIG); its user is the identity
  --context NAME     a context of that kubeconfig
  --in-cluster       running in a pod: the cluster from the service account mount, and each
                     person logs in with their own token
  --per-user-tokens  with a kubeconfig: use only its cluster address and CA; each person logs in
                     with their own token
  --sandbox          start the embedded sandbox cluster (the default when no cluster is given)
  --catalog DIR      with the sandbox: an FBC catalog folder to serve (repeatable)
  --public-url URL   the origin people open the console at (https://console.example.com); the
                     console answers only to it and to loopback names at --port
  --trust-proxy      believe X-Forwarded-Host/-Proto/-For: only behind a proxy you run
  Combinations that name two clusters (--sandbox with --kubeconfig, --in-cluster with either)
  are refused; --per-user-tokens works with the sandbox too (log in with .sandbox/tokens.json).`;

/** Starts the sandbox in its own process and resolves once it listens. */
function startSandbox(catalogs: string[]): Promise<{ child: ChildProcess; url: string; kubeconfig: string }> {
  const kubeconfig = join(root, '.sandbox', 'kubeconfig');
  const args = ['--import', 'tsx', join(root, 'lib', 'sandbox', 'main.ts'), '--port', '0', '--kubeconfig', kubeconfig, '--data', join(root, '.sandbox', 'data.jsonl')];
  for (const c of catalogs) args.push('--catalog', c);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const text = d.toString();
      out += text;
      process.stdout.write(text.replace(/^(?=.)/gm, '[sandbox] '));
      const m = /listening on (https:\/\/[^\s]+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, kubeconfig });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened`)));
  });
}

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

function buildIsCurrent(): boolean {
  const buildId = join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  return statSync(buildId).mtimeMs >= newestSourceMtime();
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
        'public-url': { type: 'string' },
        'trust-proxy': { type: 'boolean', default: false },
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
      publicUrl: values['public-url'],
      trustProxy: values['trust-proxy'],
    },
    process.env.KUBECONFIG,
  );
  if (!plan.ok) {
    console.error(`${plan.message}\n\n${usage}`);
    process.exit(2);
  }

  if (values.rebuild || !buildIsCurrent()) {
    console.log('Building the console (next build)…');
    const res = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }

  const env: NodeJS.ProcessEnv = { ...process.env, ...plan.env };
  let sandbox: ChildProcess | undefined;
  if (plan.sandbox) {
    const sb = await startSandbox(plan.catalogs);
    sandbox = sb.child;
    env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfig;
    console.log(`${plan.describe} at ${sb.url} (kubectl --kubeconfig ${sb.kubeconfig} get ns)`);
  } else {
    console.log(plan.describe);
  }

  const child = spawn(process.execPath, ['--import', 'tsx', serverMain, '--port', plan.env.OLM_CONSOLE_PORT!, '--host', values.host], { cwd: root, stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } });
  const stopAll = (sig: NodeJS.Signals) => {
    child.kill(sig);
    sandbox?.kill(sig);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => stopAll(sig));
  child.on('exit', (code) => {
    sandbox?.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  sandbox?.on('exit', (code) => {
    if (child.exitCode === null) {
      console.error(`the sandbox stopped (${code}); stopping the console`);
      child.kill('SIGTERM');
    }
  });
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
