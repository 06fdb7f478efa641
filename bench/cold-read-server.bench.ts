// Issue 45's second-replica row through the console's own HTTP server, as a browser meets it: the
// whole OperatorHub page (server-rendered, with its first screen of tiles) and the list, on a
// replica with nothing on its disk started after the first has read (the snapshots replicas share
// through ConfigMaps), per-user tokens, a published catalog copied to OpenShift's size. Each such
// replica is timed with the warm-up before readiness (lib/server/http/warm-up.ts) and without it
// (OLM_CONSOLE_WARM_UP=false), in turns, several times; the figures are medians. cold-read.bench.ts
// measures the page's data in-process; this one adds what a fresh process pays for its first
// request (Next's route bundles, compiling them, React's renderer). Needs `npm run build`.
// COLD_SERVER_ROUNDS sets the turns (default 3); with COLD_SERVER_PROFILE=1 the first replica of
// each kind writes a CPU profile, and the run says where the CPU of the first page went.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { sharedCatalogs } from './support/catalog-files';
import { cpuByKind, topFunctions, type Window } from './support/cpu-profile';
import { fmt, median } from './support/measure';
import { freePort } from './support/npm-start';
import { generateScaledCatalog } from './support/scaled-catalog';
import { KubeClient } from '../lib/k8s/client';
import { CONFIG_MAP_TYPE, NAMESPACE_TYPE } from '../lib/k8s/core-kinds';
import { SNAPSHOTS_CONFIGMAP } from '../lib/catalog/shared-snapshots';
import { startSandbox } from '../lib/sandbox/server/sandbox';

const root = join(import.meta.dirname, '..');
const ROUNDS = Number(process.env.COLD_SERVER_ROUNDS ?? 3);
const WARM_RUNS = 15;
const CONSOLE_NAMESPACE = 'olm-console';

const load = () =>
  loadavg()
    .map((l) => fmt(l, 1))
    .join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The monotonic clock a CPU profile's timestamps use, in µs (the same in every process). */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const ms = (v: number) => `${fmt(v, 0)} ms`;

interface Replica {
  child: ChildProcess;
  url: string;
  /** ms from the process's start until /readyz answered 200. */
  readyMs: number;
  output: () => string;
}

/** One replica (lib/server/http/main.ts on this checkout's build); resolves once /readyz says ready. */
async function startReplica(env: Record<string, string>, profileDir?: string): Promise<Replica> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      '--import',
      'tsx',
      join(root, 'lib', 'server', 'http', 'main.ts'),
      '--port',
      String(port),
    ],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a replica exited (${child.exitCode}):\n${out}`);
    const status = await fetch(`${url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(50);
  }
  return { child, url, readyMs: performance.now() - t0, output: () => out };
}

/** Stops a replica as Kubernetes does (SIGTERM: the stop waits for snapshots being written). */
async function stopReplica(r: Replica): Promise<void> {
  if (r.child.exitCode !== null) return;
  const exited = new Promise((res) => r.child.once('exit', res));
  r.child.kill('SIGTERM');
  await exited;
}

async function login(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** A GET as a browser makes it (gzip accepted), timed to the body's last byte. */
async function timedGet(url: string, cookie: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip' } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return performance.now() - t;
}

interface Visit {
  readyMs: number;
  firstPageMs: number;
  firstListMs: number;
  warmPageMs: number;
  warmListMs: number;
  /** The warm-up's own log line (what each step took in the fresh process), when there was one. */
  warmUp?: string;
  /** When the first page was asked and answered, on the clock of the replica's CPU profile. */
  firstPage: Window;
}

/** What a replica logged about its snapshots and its warm-up (warnings, what was restored or written). */
function snapshotLines(out: string): string[] {
  return out
    .split('\n')
    .filter((l) => /snapshot|warm-up|warmed up/.test(l))
    .map((l) => {
      try {
        const e = JSON.parse(l) as Record<string, unknown>;
        const { msg, level, time, service, pid, hostname, ...rest } = e;
        void [level, time, service, pid, hostname];
        return `${String(msg)} ${JSON.stringify(rest)}`;
      } catch {
        return l;
      }
    });
}

/**
 * A person's first OperatorHub visit on a fresh replica (the page, then the list), then warm ones;
 * `beforeStop` runs before the replica is stopped.
 */
async function visit(
  env: Record<string, string>,
  token: string,
  profileDir?: string,
  beforeStop?: () => Promise<void>,
): Promise<Visit> {
  const r = await startReplica(env, profileDir);
  try {
    const cookie = await login(r.url, token);
    const fromUs = monotonicUs();
    const firstPageMs = await timedGet(`${r.url}/operatorhub`, cookie);
    const firstPage = { fromUs, toUs: monotonicUs() };
    const firstListMs = await timedGet(`${r.url}/api/catalog/packages`, cookie);
    const page: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      page.push(await timedGet(`${r.url}/operatorhub`, cookie));
      list.push(await timedGet(`${r.url}/api/catalog/packages`, cookie));
    }
    const line = r
      .output()
      .split('\n')
      .find((l) => l.includes('"warmed up"'));
    const warmUp = line ? (JSON.parse(line) as { totalMs: number; snapshotsMs?: number; steps: string[] }) : undefined;
    await beforeStop?.();
    return {
      readyMs: r.readyMs,
      firstPageMs,
      firstListMs,
      warmPageMs: median(page),
      warmListMs: median(list),
      warmUp:
        warmUp && `${warmUp.totalMs} ms: snapshots loaded ${warmUp.snapshotsMs ?? '?'} ms, ${warmUp.steps.join(', ')}`,
      firstPage,
    };
  } finally {
    await stopReplica(r);
    for (const l of snapshotLines(r.output())) console.log(`    replica log: ${l}`);
  }
}

function summary(what: string, vs: Visit[]): void {
  const m = (k: 'readyMs' | 'firstPageMs' | 'firstListMs' | 'warmPageMs' | 'warmListMs') => median(vs.map((v) => v[k]));
  const page = m('firstPageMs');
  const list = m('firstListMs');
  const over = page > 2000 || list > 2000 || page > 3 * m('warmPageMs') || list > 3 * m('warmListMs');
  console.log(
    `${what} (median of ${vs.length}): ready after ${ms(m('readyMs'))}; first page ${ms(page)}, ` +
      `${fmt(page / m('warmPageMs'), 1)}× the warm ${ms(m('warmPageMs'))}; first list ${ms(list)}, ` +
      `${fmt(list / m('warmListMs'), 1)}× the warm ${ms(m('warmListMs'))} (budget ≤ 2 s and ≤ 3×` +
      `${over ? ', OVER BUDGET' : ''})`,
  );
  const each = vs.map(
    (v) => `page ${ms(v.firstPageMs)} / ${ms(v.warmPageMs)}, list ${ms(v.firstListMs)} / ${ms(v.warmListMs)}`,
  );
  console.log(`  each (first / warm): ${each.join('; ')}`);
  for (const v of vs) if (v.warmUp) console.log(`  warm-up ${v.warmUp}`);
}

/** Where the first person's page went: the replica's CPU samples taken while it was answered. */
function profiled(dir: string | undefined, v: Visit | undefined, what: string): void {
  const file = dir && readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!dir || !file || !v) return;
  const p = join(dir, file);
  const kinds = cpuByKind(p, v.firstPage);
  const total = kinds.reduce((a, k) => a + k.ms, 0);
  console.log(`CPU while the first page was answered (${ms(v.firstPageMs)}), ${what}: ${ms(total)}`);
  for (const k of kinds.slice(0, 8)) console.log(`  ${k.kind}: ${ms(k.ms)}`);
  for (const f of topFunctions(p, 10, v.firstPage)) console.log(`    ${f.fn}: ${ms(f.ms)}`);
}

async function main(): Promise<void> {
  if (!existsSync(join(root, '.next', 'BUILD_ID'))) throw new Error('no build: run `npm run build` first');
  const scaled = generateScaledCatalog(join(sharedCatalogs, 'certified-operators-v4.18'), 20);
  const tmp = mkdtempSync(join(tmpdir(), 'olm-bench-cold-server-'));
  const sb = await startSandbox({
    port: 0,
    kubeconfigPath: join(tmp, 'kubeconfig'),
    catalogs: [scaled.dir],
    demo: false,
  });
  const profiles = process.env.COLD_SERVER_PROFILE
    ? { without: mkdtempSync(join(tmpdir(), 'olm-cold-prof-')), with: mkdtempSync(join(tmpdir(), 'olm-cold-prof-')) }
    : undefined;
  try {
    const cs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
    for (let i = 0; i < 12_000; i++) {
      const st = sb.api.storeList(cs)[0]?.status as { connectionState?: { lastObservedState?: string } } | undefined;
      if (st?.connectionState?.lastObservedState === 'READY') break;
      await sleep(50);
    }
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    await new KubeClient(kc).create(NAMESPACE_TYPE, { metadata: { name: CONSOLE_NAMESPACE } });
    const token = sb.tokens.admin!;
    const sessionKey = randomBytes(32).toString('hex');
    let n = 0;
    // Every replica as deploy/base runs them: per-user tokens, sharing snapshots, one session key.
    const replicaEnv = (warmUp: boolean): Record<string, string> => ({
      OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath,
      OLM_CONSOLE_AUTH: 'token',
      OLM_CONSOLE_NAMESPACE: CONSOLE_NAMESPACE,
      OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS: 'true',
      OLM_CONSOLE_SESSION_KEY: sessionKey,
      // Nothing on its own disk: a folder no replica used before.
      OLM_CONSOLE_CATALOG_SNAPSHOT_DIR: join(tmp, `replica-${++n}`),
      OLM_CONSOLE_WARM_UP: warmUp ? 'true' : 'false',
    });
    // The first replica reads the registry and shares its reads: the catalog's index and the
    // ClusterCatalog's content, read in the background (the page waits 1.5 s for it at most). It
    // keeps serving until both are shared, as a running replica would; a stop would wait 10 s at most.
    const client = new KubeClient(kc);
    const shared = async () => {
      const t = performance.now();
      for (;;) {
        const cm = await client
          .get<{ data?: Record<string, string> }>(CONFIG_MAP_TYPE, SNAPSHOTS_CONFIGMAP, CONSOLE_NAMESPACE)
          .catch(() => undefined);
        const keys = Object.keys(cm?.data ?? {});
        if (keys.some((k) => k.startsWith('c.')) && keys.some((k) => k.startsWith('v.'))) break;
        if (performance.now() - t > 300_000) {
          console.log(`first replica: not both reads shared after 5 min (manifest: ${keys.join(', ') || 'none'})`);
          return;
        }
        await sleep(500);
      }
      console.log(`first replica: its reads shared ${ms(performance.now() - t)} after its warm requests`);
    };
    const first = await visit(replicaEnv(true), token, undefined, shared);
    console.log(
      `first replica, ${scaled.packages} packages read from the registry: first page ${ms(first.firstPageMs)}`,
    );
    const withWarmUp: Visit[] = [];
    const without: Visit[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      without.push(await visit(replicaEnv(false), token, i === 0 ? profiles?.without : undefined));
      withWarmUp.push(await visit(replicaEnv(true), token, i === 0 ? profiles?.with : undefined));
    }
    console.log(`load average during the run (1, 5, 15 min, 2 cores): ${load()}`);
    summary('a second replica, nothing on its disk, without the warm-up', without);
    summary('a second replica, nothing on its disk, warmed up before ready', withWarmUp);
    profiled(profiles?.without, without[0], 'without the warm-up');
    profiled(profiles?.with, withWarmUp[0], 'warmed up');
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(scaled.dir, { recursive: true, force: true });
    for (const dir of Object.values(profiles ?? {})) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
