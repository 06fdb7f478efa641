// `npm start`: build the console when the build is missing or older than the sources, then serve
// it. A stale build is the trap this guards against: after a `git pull`, `next start` would
// happily serve yesterday's pages.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const sourceDirs = ['app', 'components', 'lib', 'public'];
const sourceFiles = ['next.config.js', 'package.json', 'postcss.config.mjs', 'tsconfig.json'];

const usage = `usage: npm start -- [--port N] [--host ADDR] [--rebuild]

  --port N      port of the console (default 3000)
  --host ADDR   address to listen on (default 127.0.0.1; the console acts with cluster credentials)
  --rebuild     build even when the build looks current`;

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

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        rebuild: { type: 'boolean', default: false },
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

  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', values.host], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

main();
