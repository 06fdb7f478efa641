// Sizing console replicas (issues 16 and 34): the runtime folder (`node server.mjs`, as the image
// runs it) against a sandbox serving every shared catalog, measured from /proc: resident memory
// and CPU idle, then while people browse OperatorHub at once (each: the hub page, a search, a
// package's details, its icon, then 1–3 s of reading before the next). Two runs: 50 people on one
// replica, 200 on two (each person stays on the replica they logged in to, as a session-affine
// proxy would keep them). With SIZING_PROFILE=1 the first replica writes a CPU profile and the
// run says where its CPU went. Prints the figures docs/performance.md quotes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedCatalogs } from './support/catalog-files';
import { cpuByKind, topFunctions } from './support/cpu-profile';
import { fmt, median } from './support/measure';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { freePort } from '../e2e/support/console-server';

const root = join(import.meta.dirname, '..');
const PEOPLE = Number(process.env.SIZING_PEOPLE ?? 50);
const REPLICAS = Number(process.env.SIZING_REPLICAS ?? 1);
const HEAP_CAP_MB = 384;
const LOAD_SECONDS = Number(process.env.SIZING_SECONDS ?? 60);
const QUERIES = ['database', 'postgres', 'kafka', 'monitoring', 'storage', 'security', 'ai', 'backup', 'cert', ''];
const TICKS = 100; // USER_HZ on Linux

function procStats(pid: number): { rssMb: number; peakMb: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return {
    rssMb: kb('VmRSS') / 1024,
    peakMb: kb('VmHWM') / 1024,
    cpuSeconds: (Number(stat[11]) + Number(stat[12])) / TICKS,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A GET as it crosses the wire: the status and the body's bytes before any decoding. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * CPU per request of each route alone, on a replica nobody else is using: a few requests at a
 * time, the replica's CPU from /proc before and after, and the bytes each answer took on the wire
 * (as a browser asks: gzip and brotli accepted). The crowded run's CPU is the sum of these.
 */
async function cpuByRoute(pid: number, url: string, cookie: string, routes: [string, string[]][]): Promise<void> {
  const ROUNDS = 60;
  const AT_ONCE = 4;
  console.log(`  CPU per request by route, alone (${ROUNDS} requests each, ${AT_ONCE} at a time):`);
  for (const [route, paths] of routes) {
    const headers = { cookie, 'accept-encoding': 'gzip, deflate, br' };
    await rawGet(`${url}${paths[0]}`, headers); // warm: the first of each is not what repeats
    const before = procStats(pid).cpuSeconds;
    const sizes: number[] = [];
    for (let i = 0; i < ROUNDS; i += AT_ONCE) {
      const batch = paths.slice(0, AT_ONCE).map((_, j) => paths[(i + j) % paths.length]!);
      for (const r of await Promise.all(batch.map((p) => rawGet(`${url}${p}`, headers)))) {
        if (r.status !== 200) throw new Error(`${route}: ${r.status}`);
        sizes.push(r.bytes);
      }
    }
    const ms = ((procStats(pid).cpuSeconds - before) * 1000) / sizes.length;
    console.log(`    ${route}: ${fmt(ms, 1)} ms CPU, ${fmt(median(sizes) / 1024, 1)} KB on the wire (median)`);
  }
}

/** Starts one replica; resolves when it answers /healthz. */
async function startReplica(
  server: string,
  kubeconfig: string,
  profileDir?: string,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      server,
      '--kubeconfig',
      kubeconfig,
      '--per-user-tokens',
      '--trust-proxy',
      '--port',
      String(port),
    ],
    {
      cwd: join(root, '.next', 'standalone'),
      // The heap limit deploy/base gives the container (its memory limit is 512 Mi).
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}`,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`a replica exited with ${child.exitCode} before it listened`);
    await sleep(200);
  }
  return { child, url };
}

async function scenario(): Promise<void> {
  const server = join(root, '.next', 'standalone', 'server.mjs');
  if (!existsSync(server)) throw new Error('no runtime folder: run `npm run build` first');
  const catalogs = readdirSync(sharedCatalogs, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(sharedCatalogs, e.name));
  const sb = await withSandbox({ catalogs });
  const profileDir = process.env.SIZING_PROFILE ? mkdtempSync(join(tmpdir(), 'olm-sizing-prof-')) : undefined;
  const replicas: { child: ChildProcess; url: string }[] = [];
  try {
    for (let r = 0; r < REPLICAS; r++)
      replicas.push(await startReplica(server, sb.kubeconfigPath, r === 0 ? profileDir : undefined));
    console.log(`${PEOPLE} people on ${REPLICAS} replica${REPLICAS > 1 ? 's' : ''}, ${HEAP_CAP_MB} MB heap cap each`);
    // admin and bob (view everywhere) see every catalog; alice (one namespace) sees none of them.
    const tokens = [sb.tokens.admin!, sb.tokens.bob!];
    // Each person from their own address, as a proxy in front of the console reports it (logins
    // are limited per address).
    let people = 0;
    const login = async (url: string, token: string) => {
      const from = `10.0.${Math.floor(people / 250)}.${(people++ % 250) + 1}`;
      const res = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { origin: url, 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ token }),
      });
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
      return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    };
    // One read of every catalog first on each replica, as the first person of the day does.
    let all: { packages: { name: string; catalog: { namespace: string; name: string }; hasIcon?: boolean }[] } = {
      packages: [],
    };
    for (const { url } of replicas) {
      const first = await login(url, tokens[0]!);
      all = (await (await fetch(`${url}/api/catalog/packages`, { headers: { cookie: first } })).json()) as typeof all;
    }
    console.log(`catalog: ${all.packages.length} packages from ${catalogs.length} catalogs`);

    const pids = replicas.map((r) => r.child.pid!);
    await sleep(10_000);
    const idle0 = pids.map(procStats);
    await sleep(10_000);
    const idle1 = pids.map(procStats);
    console.log(
      `idle, per replica: ${idle1.map((s) => fmt(s.rssMb, 0)).join(' / ')} MB resident, ${idle1.map((s, i) => fmt(((s.cpuSeconds - idle0[i]!.cpuSeconds) / 10) * 1000, 0)).join(' / ')} millicores`,
    );

    const seats = Array.from({ length: PEOPLE }, (_, i) => replicas[i % REPLICAS]!.url);
    const cookies = await Promise.all(seats.map((url, i) => login(url, tokens[i % tokens.length]!)));
    const latencies: number[] = [];
    const byRoute = new Map<string, number[]>();
    let failures = 0;
    const failed = new Map<string, number>();
    const peakRss = pids.map(() => 0);
    const deadline = Date.now() + LOAD_SECONDS * 1000;
    const get = async (url: string, cookie: string, path: string, route: string) => {
      const t0 = performance.now();
      // A connection refused or reset (a replica gone, or over its limits) is a failure to count.
      const status = await fetch(`${url}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } }).then(
        async (res) => (await res.arrayBuffer(), res.ok ? 200 : res.status),
        (err: Error) => `network error (${(err.cause as { code?: string } | undefined)?.code ?? err.message})`,
      );
      const ms = performance.now() - t0;
      latencies.push(ms);
      byRoute.set(route, [...(byRoute.get(route) ?? []), ms]);
      if (status !== 200) {
        failures++;
        const key = `${status} ${route}`;
        failed.set(key, (failed.get(key) ?? 0) + 1);
      }
    };
    const person = async (cookie: string, i: number) => {
      const url = seats[i]!;
      let n = i;
      while (Date.now() < deadline) {
        const pkg = all.packages[(n * 7919) % all.packages.length]!;
        const base = `/api/catalog/packages/${pkg.catalog.namespace}/${pkg.catalog.name}/${pkg.name}`;
        await get(url, cookie, '/operatorhub', 'page /operatorhub');
        const q = encodeURIComponent(QUERIES[n % QUERIES.length]!);
        await get(url, cookie, `/api/catalog/packages?q=${q}`, 'list search');
        await get(url, cookie, base, 'package details');
        if (pkg.hasIcon) await get(url, cookie, `${base}/icon`, 'icon');
        n += PEOPLE;
        await sleep(1000 + Math.random() * 2000);
      }
    };
    const sampler = setInterval(
      () => pids.forEach((pid, r) => (peakRss[r] = Math.max(peakRss[r]!, procStats(pid).rssMb))),
      500,
    );
    const load0 = pids.map(procStats);
    const t0 = Date.now();
    await Promise.all(cookies.map((c, i) => person(c, i)));
    const load1 = pids.map(procStats);
    clearInterval(sampler);
    const seconds = (Date.now() - t0) / 1000;
    const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
    const alive = replicas.filter((r) => r.child.exitCode === null).length;
    for (const [i, r] of replicas.entries())
      if (r.child.exitCode !== null || r.child.signalCode)
        console.log(`  replica ${i + 1} exited during the run: ${r.child.exitCode ?? r.child.signalCode}`);
    console.log(
      `${PEOPLE} people for ${fmt(seconds, 0)} s: ${latencies.length} requests (${fmt(latencies.length / seconds, 0)}/s), ${failures} failed${failed.size ? ` (${[...failed].map(([k, n]) => `${n}× ${k}`).join(', ')})` : ''}; ${alive} of ${REPLICAS} replicas still up; machine load average ${loadavg()
        .map((l) => fmt(l, 1))
        .join(' ')} (2 cores)`,
    );
    console.log(`  latency median ${fmt(median(latencies), 0)} ms, p95 ${fmt(p95(latencies), 0)} ms`);
    for (const [route, xs] of byRoute)
      console.log(`    ${route}: ${xs.length} requests, median ${fmt(median(xs), 0)} ms, p95 ${fmt(p95(xs), 0)} ms`);
    const cpu = load1.map((s, i) => ((s.cpuSeconds - load0[i]!.cpuSeconds) / seconds) * 1000);
    console.log(
      `  CPU per replica ${cpu.map((c) => fmt(c, 0)).join(' / ')} millicores on average (${fmt((cpu.reduce((a, b) => a + b, 0) * seconds) / latencies.length, 1)} ms per request); resident memory peak ${peakRss.map((m) => fmt(m, 0)).join(' / ')} MB (high-water marks ${load1.map((s) => fmt(s.peakMb, 0)).join(' / ')} MB)`,
    );
    if (alive === REPLICAS) {
      const some = all.packages.filter((p) => p.hasIcon).slice(0, 20);
      const base = (p: (typeof some)[number]) =>
        `/api/catalog/packages/${p.catalog.namespace}/${p.catalog.name}/${p.name}`;
      await cpuByRoute(pids[0]!, replicas[0]!.url, cookies[0]!, [
        ['page /operatorhub', ['/operatorhub']],
        ['list search', QUERIES.map((q) => `/api/catalog/packages?q=${encodeURIComponent(q)}`)],
        ['package details', some.map(base)],
        ['icon', some.map((p) => `${base(p)}/icon`)],
      ]);
    }
  } finally {
    for (const r of replicas) r.child.kill('SIGTERM');
    await sb.close();
  }
  if (profileDir) {
    // The profile is written when the replica exits.
    await Promise.all(
      replicas.map((r) => (r.child.exitCode === null ? new Promise((res) => r.child.once('exit', res)) : undefined)),
    );
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const kinds = cpuByKind(join(profileDir, file));
      const total = kinds.reduce((a, k) => a + k.ms, 0);
      console.log(`  where the first replica's CPU went (whole run, ${fmt(total / 1000, 1)} s busy):`);
      for (const k of kinds) console.log(`    ${k.kind}: ${fmt((k.ms / total) * 100, 0)}%`);
      console.log('  busiest functions (self time):');
      for (const f of topFunctions(join(profileDir, file))) console.log(`    ${fmt(f.ms, 0)} ms ${f.fn}`);
    }
    rmSync(profileDir, { recursive: true, force: true });
  }
}

// Each scenario in a process of its own, so that one run's sandbox and sockets do not weigh on the next.
async function main(): Promise<void> {
  if (process.env.SIZING_SCENARIO) return scenario();
  for (const [people, replicas] of [
    [50, 1],
    [200, 2],
  ]) {
    const env = {
      ...process.env,
      SIZING_SCENARIO: '1',
      SIZING_PEOPLE: String(people),
      SIZING_REPLICAS: String(replicas),
    };
    const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename], { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`${people} people on ${replicas} replicas: the run failed`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
