// What a new process does before it says it is ready: the first request a fresh Node process
// serves pays for loading Next.js's route bundles, compiling them and React's server renderer, the
// same for everyone (measured in bench/cold-read-server.bench.ts: most of a new replica's first
// OperatorHub page). Here the server asks itself, over its own socket, for pages and routes
// that a visitor without a session gets: nothing is sent that names a person, so what is loaded
// and kept is code and the console's own state, never someone's data. /readyz answers 503 until
// this is over, so a Service sends nobody to a replica that has not warmed. A warm-up that fails
// or times out is logged and the replica becomes ready anyway: it serves, only cold.
//
// After asking, it waits (bounded) for the catalog snapshots being loaded (the disk's and those the
// replicas share, which instrumentation.ts starts loading: with Next.js's server that happens on
// the first request, the warm-up's own): checking and parsing a big catalog's snapshot took 2-4 s
// of CPU under load, and a replica that said it was ready before that was over made its first
// person's OperatorHub page wait for the rest. Loading is not claiming: a snapshot is still served
// only through a person's own CatalogSource read (lib/catalog/catalog-entries.ts).
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';
import { snapshotLoadsSettled } from '../../catalog/snapshot-loads';

/**
 * What a person's first OperatorHub visit loads: the page (with the layout and React's renderer;
 * without a session its data is not read) and the list the browser then asks for (refused
 * without a session, after its route bundle is loaded). The login page is the other page every
 * person sees first.
 */
export const WARM_UP_PATHS = ['/operatorhub', '/api/catalog/packages', '/login'];

/**
 * How long one warm-up request may take before the replica stops waiting for it: a fresh
 * process's first render took 3-7 s at load 15 here, and more than 15 s at load 20.
 */
export const WARM_UP_REQUEST_MS = 60_000;

/**
 * The header that marks the warm-up's own requests, with a value only this process knows: the
 * server leaves them out of its request log and metrics, which count what people and clients ask.
 */
export const WARM_UP_HEADER = 'x-olm-console-warm-up';

// The warm-up's requests reach the OperatorHub page and list through Next.js, whose route bundles
// each hold their own copy of the list's code: compiled in one copy, it is still cold in the
// others. So those requests, and only they, are answered with made-up packages, and each bundle
// runs its copy (lib/server/warm-first-page.ts). They are told by the mark only this process knows
// (a random value the console's server puts here while its warm-up runs, and takes away after): a
// client's copy of the header never matches, and without the console's server (`next dev`) there
// is no mark.
const MARK = Symbol.for('olm-console.warm-up-mark');
const marks = globalThis as { [MARK]?: string };

/** Sets (or, with undefined, takes away) the mark of the server's own warm-up requests. */
export function markOwnWarmUp(mark: string | undefined): void {
  if (mark) marks[MARK] = mark;
  else delete marks[MARK];
}

/** Whether a request is the console server's own warm-up, by the mark it carries. */
export function isOwnWarmUp(headers: Pick<Headers, 'get'>): boolean {
  const mark = marks[MARK];
  return !!mark && headers.get(WARM_UP_HEADER) === mark;
}

export interface WarmUpTarget {
  /** The address and port the server listens on (a loopback address when it listens on all). */
  address: string;
  port: number;
  /** A Host header the server answers to. */
  host: string;
  /** The value of WARM_UP_HEADER this server recognises as its own. */
  mark: string;
}

/** One request to the server itself; resolves with its status, or rejects on error or timeout. */
function ask(target: WarmUpTarget, path: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.address,
        port: target.port,
        path,
        headers: { host: target.host, [WARM_UP_HEADER]: target.mark },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once('error', reject);
    req.end();
  });
}

/** The longest the warm-up waits for the catalog snapshots to load before it asks for pages. */
export const SNAPSHOT_LOAD_WAIT_MS = 30_000;

export interface WarmUpStep {
  path: string;
  ms: number;
  /** The status the server answered, or why it did not. */
  status?: number;
  problem?: string;
}

/**
 * Asks the server for each path in turn and logs what each took. Never rejects: a failure is one
 * step's problem, logged, and the rest still run.
 */
export async function warmUp(
  target: WarmUpTarget,
  log: Logger,
  paths: readonly string[] = WARM_UP_PATHS,
  timeoutMs = WARM_UP_REQUEST_MS,
  loadWaitMs = SNAPSHOT_LOAD_WAIT_MS,
): Promise<WarmUpStep[]> {
  const steps: WarmUpStep[] = [];
  const started = performance.now();
  for (const path of paths) {
    const t = performance.now();
    try {
      const status = await ask(target, path, timeoutMs);
      steps.push({ path, ms: Math.round(performance.now() - t), status });
      // A 5xx is the route failing, which a person would meet too: worth a warning, not a stop.
      if (status >= 500) log.warn({ path, status }, 'warm-up: the console failed to answer');
    } catch (err) {
      const problem = (err as Error).message;
      steps.push({ path, ms: Math.round(performance.now() - t), problem });
      log.warn({ path, err: problem }, 'warm-up: no answer; serving without it');
    }
  }
  // Never created here: the index the routes use is the one instrumentation.ts makes and loads.
  const waited = performance.now();
  const loaded = await snapshotLoadsSettled(loadWaitMs);
  const snapshotsMs = Math.round(performance.now() - waited);
  if (!loaded) log.warn({ waitedMs: snapshotsMs }, 'warm-up: catalog snapshots still loading; ready without them');
  const gcMs = Math.round(collectStartGarbage());
  const totalMs = Math.round(performance.now() - started);
  log.info(
    { totalMs, snapshotsMs, gcMs, steps: steps.map((s) => `${s.path} ${s.status ?? s.problem} ${s.ms} ms`) },
    'warmed up',
  );
  return steps;
}

/** Whether the deployment asked for no warm-up (OLM_CONSOLE_WARM_UP=false): ready as soon as it listens. */
export function warmUpWanted(env: Record<string, string | undefined>): boolean {
  return env.OLM_CONSOLE_WARM_UP !== 'false';
}

/** The address to reach a server listening on `host` from the same machine. */
export function localAddress(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

/**
 * A full garbage collection, once the snapshots are loaded and the warm-up is done, before the
 * replica says it is ready. Loading a shared snapshot (chunks joined, unsealed, decompressed,
 * parsed and checked) leaves a large heap of garbage behind; profiled, a second replica's first
 * page then paid 18 ms of collection (and prom-client's observer of each collection, 11 ms more)
 * against a page of 7 ms warm. Collected here, nobody waits for it. Node gives no way to ask for a
 * collection without `--expose-gc`: the flag is set for a fresh context that exposes it, which
 * changes nothing for the console's own code. Returns how long the collection took, in ms.
 */
export function collectStartGarbage(): number {
  const t = performance.now();
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  return performance.now() - t;
}
