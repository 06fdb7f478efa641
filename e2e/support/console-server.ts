import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port';

export { freePort };

const root = join(import.meta.dirname, '..', '..');

/** Builds the console once (`npm run build`: Next.js and the runtime folder) if there is no build yet. */
export function ensureBuilt(): void {
  if (existsSync(join(root, '.next', 'BUILD_ID')) && existsSync(join(root, '.next', 'standalone', 'server.mjs')))
    return;
  const res = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('npm run build failed');
}

/**
 * Waits, as a Service would before sending anyone, until a console has made its own first requests
 * (lib/server/http/warm-up.ts): until /readyz says anything but "warming up", whatever it then says
 * of the cluster. A console that exits or does not warm up in time is killed and the wait fails.
 */
export async function warmedUp(url: string, child: ChildProcess, deadline: number, output: () => string) {
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.text(),
      () => '',
    );
    if (ready !== 'not ready: warming up\n') return;
    if (child.exitCode !== null) throw new Error(`console exited early:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`console did not warm up:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface RunningConsole {
  url: string;
  /** When the server process was started (performance.now()). */
  startedAt: number;
  /** Everything the server has printed so far. */
  output(): string;
  stop(): Promise<void>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Starts the production console server on a free loopback port and waits until it answers. */
export async function startConsole(env: Record<string, string> = {}): Promise<RunningConsole> {
  ensureBuilt();
  const port = await freePort();
  const startedAt = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'lib', 'server', 'http', 'main.ts'), '--port', String(port), '--host', '127.0.0.1'],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`console exited early:\n${output}`);
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`console did not answer within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await warmedUp(url, child, deadline + 180_000, () => output);
  return {
    url,
    startedAt,
    exited,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
