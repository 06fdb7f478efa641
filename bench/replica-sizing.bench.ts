// Sizing one console replica (issue 16): the runtime folder (`node server.mjs`, as the image
// runs it) against a sandbox serving every shared catalog, measured from /proc: resident memory
// and CPU idle, then while 50 people browse OperatorHub at once (each: the hub page, a search,
// a package's details, its icon, then 1–3 s of reading before the next). Prints the figures the
// README's "Deploy" section quotes for requests and limits.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedCatalogs } from './support/catalog-files';
import { fmt, median } from './support/measure';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { freePort } from '../e2e/support/console-server';

const root = join(import.meta.dirname, '..');
const PEOPLE = 50;
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

async function main(): Promise<void> {
  const server = join(root, '.next', 'standalone', 'server.mjs');
  if (!existsSync(server)) throw new Error('no runtime folder: run `npm run build` first');
  const catalogs = readdirSync(sharedCatalogs, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(sharedCatalogs, e.name));
  const sb = await withSandbox({ catalogs });
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [server, '--kubeconfig', sb.kubeconfigPath, '--per-user-tokens', '--trust-proxy', '--port', String(port)],
    {
      cwd: join(root, '.next', 'standalone'),
      // The heap limit deploy/base gives the container (its memory limit is 512 Mi).
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', NODE_OPTIONS: '--max-old-space-size=384' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    while (
      !(await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await sleep(200);
    // admin and bob (view everywhere) see every catalog; alice (one namespace) sees none of them.
    const tokens = [sb.tokens.admin!, sb.tokens.bob!];
    // Each person from their own address, as a proxy in front of the console reports it (logins
    // are limited per address).
    let people = 0;
    const login = async (token: string) => {
      const from = `10.0.${Math.floor(people / 250)}.${(people++ % 250) + 1}`;
      const res = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { origin: url, 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ token }),
      });
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
      return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    };
    // One read of every catalog first, as the first person of the day does.
    const first = await login(tokens[0]!);
    const all = (await (await fetch(`${url}/api/catalog/packages`, { headers: { cookie: first } })).json()) as {
      packages: { name: string; catalog: { namespace: string; name: string }; hasIcon?: boolean }[];
    };
    console.log(`catalog: ${all.packages.length} packages from ${catalogs.length} catalogs`);

    await sleep(10_000);
    const idle0 = procStats(child.pid!);
    await sleep(10_000);
    const idle1 = procStats(child.pid!);
    console.log(
      `idle: ${fmt(idle1.rssMb, 0)} MB resident, ${fmt(((idle1.cpuSeconds - idle0.cpuSeconds) / 10) * 1000, 0)} millicores`,
    );

    const cookies = await Promise.all(Array.from({ length: PEOPLE }, (_, i) => login(tokens[i % tokens.length]!)));
    const latencies: number[] = [];
    let failures = 0;
    const failed = new Map<string, number>();
    let peakRss = 0;
    const deadline = Date.now() + LOAD_SECONDS * 1000;
    const get = async (cookie: string, path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { cookie } });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!res.ok) {
        failures++;
        const key = `${res.status} ${path.replace(/\/api\/catalog\/packages\/.*?(\/icon)?$/, '/api/catalog/packages/…$1').replace(/\?.*/, '')}`;
        failed.set(key, (failed.get(key) ?? 0) + 1);
      }
    };
    const person = async (cookie: string, i: number) => {
      let n = i;
      while (Date.now() < deadline) {
        const pkg = all.packages[(n * 7919) % all.packages.length]!;
        const base = `/api/catalog/packages/${pkg.catalog.namespace}/${pkg.catalog.name}/${pkg.name}`;
        await get(cookie, '/operatorhub');
        await get(cookie, `/api/catalog/packages?q=${encodeURIComponent(QUERIES[n % QUERIES.length]!)}`);
        await get(cookie, base);
        if (pkg.hasIcon) await get(cookie, `${base}/icon`);
        n += PEOPLE;
        await sleep(1000 + Math.random() * 2000);
      }
    };
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStats(child.pid!).rssMb)), 500);
    const load0 = procStats(child.pid!);
    const t0 = Date.now();
    await Promise.all(cookies.map((c, i) => person(c, i)));
    const load1 = procStats(child.pid!);
    clearInterval(sampler);
    const seconds = (Date.now() - t0) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `${PEOPLE} people for ${fmt(seconds, 0)} s: ${latencies.length} requests (${fmt(latencies.length / seconds, 0)}/s), ${failures} failed${failed.size ? ` (${[...failed].map(([k, n]) => `${n}× ${k}`).join(', ')})` : ''}`,
    );
    console.log(
      `  latency median ${fmt(median(latencies), 0)} ms, p95 ${fmt(sorted[Math.floor(sorted.length * 0.95)]!, 0)} ms`,
    );
    console.log(
      `  CPU ${fmt(((load1.cpuSeconds - load0.cpuSeconds) / seconds) * 1000, 0)} millicores on average; resident memory peak ${fmt(peakRss, 0)} MB (process high-water mark ${fmt(load1.peakMb, 0)} MB)`,
    );
  } finally {
    child.kill('SIGTERM');
    await sb.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
