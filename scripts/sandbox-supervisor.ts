// `npm start`'s sandbox, kept running (issue 19, item 18). When the sandbox process dies (a crash,
// `kill -9`, the OOM killer) it is started again on the port it had and the same `--data` file
// and `--kubeconfig`: the serving certificate and the tokens live beside the kubeconfig and are
// reused, so the kubeconfig it writes is the same file with the same server, CA and tokens, the
// console's connection settings stay valid, and every object acknowledged before the crash is
// read back from the data file. The console's open pages then recover as they do when a separate
// sandbox comes back: their watches resume.
//
// A sandbox that exits by itself with status 0 was stopped on purpose (it exits so only on
// SIGINT/SIGTERM, which Ctrl-C sends to the whole process group): it is not restarted. Nor is it
// after `stop()`. One that keeps dying soon after it starts is given up on, with the reason.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';

export interface RestartPolicy {
  /** The pause before each restart of a run of crashes in a row (the last one repeats). */
  delaysMs: number[];
  /** A sandbox that dies sooner than this after it listened (or before it listened) crashed quickly. */
  quickMs: number;
  /** After this many quick crashes in a row it is not started again. */
  maxQuickCrashes: number;
}

/**
 * A quarter of a second first (a crash is usually a one-off: the restart is what the person
 * wants, at once), doubling to 2 s; five crashes in a row, each within 10 s of starting, mean
 * something is wrong with the sandbox or its files, and restarting again would only hide it.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  delaysMs: [250, 500, 1000, 2000],
  quickMs: 10_000,
  maxQuickCrashes: 5,
};

export interface SandboxExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** How long it had been listening when it ended (0 if it never listened). */
  ranMs: number;
  /** Whether stop() was called. */
  stopping: boolean;
}

export type ExitDecision =
  | { action: 'restart'; delayMs: number; crashes: number; how: string }
  | { action: 'stop'; crashes: number; reason: string };

function describeExit(e: Pick<SandboxExit, 'code' | 'signal'>): string {
  return e.signal ? `was killed (${e.signal})` : `exited with status ${e.code}`;
}

/**
 * What to do when the sandbox process ended. `crashes` is how many crashes in a row came before
 * this one (a crash after a run longer than `quickMs` starts the count again).
 */
export function decideOnExit(
  exit: SandboxExit,
  crashes: number,
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
): ExitDecision {
  if (exit.stopping) return { action: 'stop', crashes, reason: 'the sandbox was stopped' };
  if (exit.code === 0 && !exit.signal)
    return {
      action: 'stop',
      crashes,
      reason: 'the sandbox stopped (it exits with status 0 only when told to stop: SIGINT or SIGTERM)',
    };
  const how = describeExit(exit);
  const quick = exit.ranMs < policy.quickMs;
  const n = (quick ? crashes : 0) + 1;
  if (quick && n >= policy.maxQuickCrashes) {
    return {
      action: 'stop',
      crashes: n,
      reason: `the sandbox ${how}, its ${n}th crash in a row within ${policy.quickMs / 1000} s of starting; not restarting it (its output is above; \`npm run sandbox\` with the same --port and --data runs it alone)`,
    };
  }
  return {
    action: 'restart',
    crashes: n,
    delayMs: policy.delaysMs[Math.min(n - 1, policy.delaysMs.length - 1)] ?? 0,
    how,
  };
}

export interface SupervisorOptions {
  /** The project root (where lib/sandbox/main.ts is). */
  root: string;
  kubeconfig: string;
  dataFile: string;
  catalogs?: string[];
  /** Several clusters in the one sandbox process (`--clusters N`); the first is the one it reports. */
  clusters?: number;
  /** More flags for lib/sandbox/main.ts (`--bundle-images on`). */
  sandboxArgs?: string[];
  /** The first start's port; 0 (default) picks a free one, which later starts keep. */
  port?: number;
  policy?: RestartPolicy;
  /** The sandbox's standard output, as it comes (default: this process's, each line marked). */
  output?: (text: string) => void;
  now?: () => number;
}

export interface SandboxListening {
  url: string;
  port: number;
  kubeconfig: string;
  /** How many times it was restarted before this start. */
  restarts: number;
}

/**
 * Runs `lib/sandbox/main.ts` and restarts it when it crashes. Events: `listening`
 * (SandboxListening, every start), `restarting` ({ how, delayMs, crashes }), `stopped` (the
 * reason: stop() was called, the sandbox stopped on purpose, or it was given up on; `gaveUp`
 * says which).
 */
export class SandboxSupervisor extends EventEmitter<{
  listening: [SandboxListening];
  restarting: [{ how: string; delayMs: number; crashes: number }];
  stopped: [{ reason: string; gaveUp: boolean }];
}> {
  private child?: ChildProcess;
  private port: number;
  private stopping = false;
  private crashes = 0;
  private restarts = 0;
  private timer?: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly policy: RestartPolicy;

  constructor(private readonly opts: SupervisorOptions) {
    super();
    this.port = opts.port ?? 0;
    this.now = opts.now ?? Date.now;
    this.policy = opts.policy ?? DEFAULT_RESTART_POLICY;
  }

  /** The running sandbox's process id. */
  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /**
   * Starts the sandbox; resolves once it listens. A sandbox that cannot start the first time
   * (a bad flag, a folder that is not a catalog, a port in use) is not restarted: the promise
   * rejects.
   */
  start(): Promise<SandboxListening> {
    return new Promise((resolve, reject) => {
      this.once('listening', resolve);
      this.run((err) => {
        this.off('listening', resolve);
        reject(err);
      });
    });
  }

  /** Stops the sandbox for good (no restart); resolves once it has exited. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  private run(firstStartFailed?: (err: Error) => void): void {
    const args = [
      '--import',
      'tsx',
      join(this.opts.root, 'lib', 'sandbox', 'main.ts'),
      '--port',
      String(this.port),
      '--kubeconfig',
      this.opts.kubeconfig,
      '--data',
      this.opts.dataFile,
    ];
    for (const c of this.opts.catalogs ?? []) args.push('--catalog', c);
    if (this.opts.clusters) args.push('--clusters', String(this.opts.clusters));
    args.push(...(this.opts.sandboxArgs ?? []));
    const child = spawn(process.execPath, args, { cwd: this.opts.root, stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    let out = '';
    let listenedAt: number | undefined;
    const write = this.opts.output ?? ((text: string) => process.stdout.write(text.replace(/^(?=.)/gm, '[sandbox] ')));
    child.stdout!.on('data', (d: Buffer) => {
      const text = d.toString();
      write(text);
      if (listenedAt !== undefined) return;
      out += text;
      const m = /listening on (https:\/\/\S+)/.exec(out);
      if (!m) return;
      listenedAt = this.now();
      out = '';
      this.port = Number(new URL(m[1]!).port);
      this.emit('listening', {
        url: m[1]!,
        port: this.port,
        kubeconfig: this.opts.kubeconfig,
        restarts: this.restarts,
      });
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (listenedAt === undefined && firstStartFailed && !this.stopping) {
        this.stopping = true;
        firstStartFailed(new Error(`the sandbox ${describeExit({ code, signal })} before it listened`));
        return;
      }
      const d = decideOnExit(
        { code, signal, ranMs: listenedAt === undefined ? 0 : this.now() - listenedAt, stopping: this.stopping },
        this.crashes,
        this.policy,
      );
      this.crashes = d.crashes;
      if (d.action === 'stop') {
        this.emit('stopped', { reason: d.reason, gaveUp: !this.stopping && !(code === 0 && !signal) });
        return;
      }
      this.emit('restarting', { how: d.how, delayMs: d.delayMs, crashes: d.crashes });
      this.timer = setTimeout(() => {
        if (this.stopping) return;
        this.restarts++;
        this.run();
      }, d.delayMs);
    });
  }
}
