// One `npm start` watched from outside, as a person at a terminal would: when each step it logs
// arrives, and when the page first answers. The process runs in a group of its own so that it can
// be stopped the way Ctrl-C stops it (a signal to the whole group) and nothing outlives the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from '../../scripts/free-port';

export { freePort };

/** One line of `npm start`'s output and when it arrived (ms since the start). */
export interface LogLine {
  atMs: number;
  /** The log entry's `msg` (JSON lines), or the line itself. */
  text: string;
  /** The log entry's `source`: "next build", "sandbox", or undefined for the start script and server. */
  source?: string;
}

export interface StartRun {
  lines: LogLine[];
  /** When the page first answered (a status below 500), ms since the start. */
  answeredMs: number;
  /** The first answer's status (the console's home page, 200 or a redirect). */
  status: number;
  child: ChildProcess;
}

function parse(line: string, atMs: number): LogLine {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; source?: unknown };
    if (typeof entry.msg === 'string')
      return { atMs, text: entry.msg, source: typeof entry.source === 'string' ? entry.source : undefined };
  } catch {
    // Not a log entry (a program that writes plain lines): kept as it is.
  }
  return { atMs, text: line };
}

/**
 * Runs `npm start -- --port PORT` in `dir` (the sandbox: no cluster flag, no $KUBECONFIG) and
 * resolves once `GET /` answers; rejects when it exits first or after `timeoutMs`.
 */
export async function npmStart(dir: string, port: number, timeoutMs: number): Promise<StartRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: 'json' };
  delete env.KUBECONFIG;
  delete env.OLM_CONSOLE_KUBECONFIG;
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--', '--port', String(port)], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (l) => {
      if (l.trim()) lines.push(parse(l.trim(), performance.now() - t0));
    });
  }
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  const deadline = t0 + timeoutMs;
  while (performance.now() < deadline) {
    if (exited) throw new Error(`npm start ${exited} before answering:\n${tail(lines)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status < 500) return { lines, answeredMs: performance.now() - t0, status: res.status, child };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stopGroup(child, 'SIGKILL');
  throw new Error(`npm start did not answer within ${timeoutMs / 1000} s:\n${tail(lines)}`);
}

function tail(lines: LogLine[]): string {
  return lines
    .slice(-15)
    .map((l) => `  ${l.text}`)
    .join('\n');
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

/** Stops the run as Ctrl-C would (SIGINT to its group); SIGKILL after `graceMs`. Resolves on exit. */
export async function stopStart(run: StartRun, graceMs = 30_000): Promise<{ graceful: boolean; ms: number }> {
  const t0 = performance.now();
  const { child } = run;
  if (child.exitCode !== null || child.signalCode !== null) return { graceful: true, ms: 0 };
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  stopGroup(child, 'SIGINT');
  const graceful = await Promise.race([
    done.then(() => true),
    new Promise<boolean>((r) => setTimeout(r, graceMs, false)),
  ]);
  // The group's other processes (the sandbox, the server) may still be finishing: end them too.
  stopGroup(child, graceful ? 'SIGTERM' : 'SIGKILL');
  if (!graceful) await done;
  return { graceful, ms: performance.now() - t0 };
}

/** When the first line matching `re` arrived, or undefined. */
export function firstAt(lines: LogLine[], re: RegExp, source?: string): number | undefined {
  return lines.find((l) => re.test(l.text) && (source === undefined || l.source === source))?.atMs;
}

/** When the last line from `source` arrived, or undefined. */
export function lastAt(lines: LogLine[], source: string): number | undefined {
  return lines.filter((l) => l.source === source).at(-1)?.atMs;
}
