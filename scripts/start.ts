// `npm start`: build the console when the build is missing or older than the sources, then serve
// it. A stale build is the trap this guards against: after a `git pull`, `next start` would
// happily serve yesterday's pages. With no cluster configured it first starts the sandbox
// cluster (its own process) and points the console at it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const sourceDirs = ['app', 'components', 'lib', 'public'];
const sourceFiles = ['instrumentation.ts', 'next.config.js', 'package.json', 'postcss.config.mjs', 'tsconfig.json'];

const usage = `usage: npm start -- [--port N] [--host ADDR] [--rebuild]
                         [--kubeconfig PATH] [--context NAME] [--in-cluster] [--per-user-tokens]
                         [--sandbox] [--catalog DIR ...]

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
  --catalog DIR      with the sandbox: an FBC catalog folder to serve (repeatable)`;

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
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`--port must be a number between 1 and 65535, got "${values.port}"`);
    process.exit(2);
  }

  if (values.rebuild || !buildIsCurrent()) {
    console.log('Building the console (next build)…');
    const res = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }

  const env: NodeJS.ProcessEnv = { ...process.env };
  let sandbox: ChildProcess | undefined;
  const kubeconfig = values.kubeconfig ?? (values.sandbox ? undefined : process.env.KUBECONFIG);
  if (values['in-cluster']) {
    env.OLM_CONSOLE_IN_CLUSTER = 'true';
    console.log('Cluster: in-cluster; each person logs in with their own token');
  } else if (kubeconfig && !values.sandbox) {
    env.OLM_CONSOLE_KUBECONFIG = kubeconfig;
    if (values.context) env.OLM_CONSOLE_CONTEXT = values.context;
    if (values['per-user-tokens']) env.OLM_CONSOLE_AUTH = 'token';
    console.log(`Cluster: ${kubeconfig}${values.context ? ` (context ${values.context})` : ''}`);
  } else {
    const sb = await startSandbox(values.catalog);
    sandbox = sb.child;
    env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfig;
    console.log(`Cluster: the sandbox at ${sb.url} (kubectl --kubeconfig ${sb.kubeconfig} get ns)`);
  }

  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', values.host], { cwd: root, stdio: 'inherit', env });
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
