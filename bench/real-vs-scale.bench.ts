// Issue 34's last row, on the real cluster: a published catalog copied to OpenShift's size
// (certified-operators-v4.18 ×20, 1,180 packages) served by real `opm serve` behind a
// CatalogSource, with real OLM's package-server listing its PackageManifests beside the console's
// index, in one run. Both are asked as the cluster's admin with a token and accept gzip; each side
// is timed cold (package-server: from the CatalogSource's READY until its list holds every package,
// as it fills its cache in the background; the console: the first list of a fresh process with
// per-user tokens, which reads the registry then) and warm (median). `REAL_VS_SCALE_TIMES=5`
// measures a smaller copy. Skipped, with the reason, when cluster/build.sh has not built the real
// cluster's programs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { consoleList, getWithGzip, type ListAnswer } from './support/api-list';
import { sharedCatalogs } from './support/catalog-files';
import { rssByProgram, startClusterProcess, stopClusterProcess } from './support/cluster-process';
import { fmt, median } from './support/measure';
import { generateScaledCatalog } from './support/scaled-catalog';
import { catalogSource, olmNamespaces } from '../scripts/cluster-olm';
import { clusterProgramsMissing } from '../scripts/cluster-programs';

const root = join(import.meta.dirname, '..');
const TIMES = Number(process.env.REAL_VS_SCALE_TIMES ?? 20);
const WARM_RUNS = 7;
const SOURCE = 'certified-scaled';
// opm builds its cache at start: minutes for a catalog of this size on a busy 2-core machine.
const CLUSTER_READY_MS = 30 * 60_000;
// package-server fills its PackageManifest cache after the source is READY (one GetPackage and a
// GetBundleForChannel per channel); it gives a refresh 5 minutes (cacheTimeout in its registry.go).
const FULL_LIST_MS = 15 * 60_000;

interface ConsoleFigures {
  route: string;
  firstMs: number;
  warmMs: number;
  packages: number;
  bytes: number;
  gzipBytes: number;
  rssMb: number;
}

const load = () =>
  loadavg()
    .map((l) => fmt(l, 1))
    .join(' ');
const kb = (n: number) => `${fmt(n / 1024, 1)} KB`;
const faster = (a: number, b: number, an: string, bn: string) =>
  a <= b ? `${an} ${fmt(b / a, 1)}× faster` : `${bn} ${fmt(a / b, 1)}× faster`;

/** A console start in this process (run as `console`): the first list reads the registry, then warm lists. */
async function consoleStart(kubeconfig: string, token: string, address: string, ns: string): Promise<void> {
  process.env.OLM_CONSOLE_KUBECONFIG = kubeconfig;
  process.env.OLM_CONSOLE_AUTH = 'token';
  // No snapshot: the first list is the console's own registry read, as on a first start.
  delete process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR;
  process.env.LOG_LEVEL = 'error';
  const { reachable, trustedCatalogNamespaces } = await import('../lib/catalog/registry-route');
  // The console dials a CatalogSource's address itself when its namespace is trusted and the
  // address answers from here; otherwise it opens a port-forward as the person.
  const route =
    trustedCatalogNamespaces().has(ns) && (await reachable(address))
      ? `direct to ${address} (no port-forward)`
      : 'port-forward';
  const call = () => consoleList(token);
  const first = await call();
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push((await call()).ms);
  const figures: ConsoleFigures = {
    route,
    firstMs: first.ms,
    warmMs: median(warm),
    packages: (JSON.parse(first.body.toString()) as { total: number }).total,
    bytes: first.body.length,
    // What the console server's compression (zlib's default level, 6) sends to a client accepting gzip.
    gzipBytes: gzipSync(first.body, { level: 6 }).length,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  };
  console.log(JSON.stringify(figures));
}

/** The console start in a process of its own, so nothing of this one (its heap, its clients) helps it. */
function runConsole(kubeconfig: string, token: string, address: string, ns: string): Promise<ConsoleFigures> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, 'console', kubeconfig, token, address, ns],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ConsoleFigures)
        : reject(new Error(`the console start failed (${code}): ${out}`)),
    ),
  );
}

function kubectl(kubeconfig: string, args: string[], input?: string): string {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const itemsOf = (a: ListAnswer) => (JSON.parse(a.body.toString()) as { items?: unknown[] }).items?.length ?? 0;

async function main(): Promise<void> {
  if (process.argv[2] === 'console')
    return consoleStart(process.argv[3]!, process.argv[4]!, process.argv[5]!, process.argv[6]!);
  const why = clusterProgramsMissing();
  if (why) {
    console.log(`skipped: ${why}`);
    return;
  }
  const scaled = generateScaledCatalog(join(sharedCatalogs, 'certified-operators-v4.18'), TIMES);
  const work = mkdtempSync(join(tmpdir(), 'olm-bench-real-scale-'));
  const ns = olmNamespaces('upstream').catalog;
  let cluster: Awaited<ReturnType<typeof startClusterProcess>> | undefined;
  try {
    console.log(
      `generated catalog: ${scaled.packages} packages (certified-operators-v4.18 ×${TIMES}), ${fmt(scaled.bytes / 2 ** 20, 0)} MB`,
    );
    // The catalog as published (`--registry`: opm serves the folder as it is, bundles naming their
    // images), not the inline copy `--catalog` makes for installs; OLM v1 left out (not compared here).
    const t0 = performance.now();
    cluster = await startClusterProcess(
      [join(root, 'scripts', 'cluster.ts'), '--data-dir', join(work, 'real'), '--no-olm-v1', '--registry', scaled.dir],
      /^cluster ready$/m,
      CLUSTER_READY_MS,
    );
    const out = cluster.output();
    const kubeconfig = /^kubeconfig: (.+)$/m.exec(out)![1]!;
    const address = /^registry [^:]+: (\S+)$/m.exec(out)![1]!;
    const server = /server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
    const caPem = readFileSync(join(work, 'real', 'ca.crt'), 'utf8');
    const token = (JSON.parse(readFileSync(join(work, 'real', 'tokens.json'), 'utf8')) as { admin: string }).admin;
    console.log(`real cluster ready, opm serving the catalog: ${fmt((performance.now() - t0) / 1000)} s`);

    kubectl(kubeconfig, ['apply', '-f', '-'], JSON.stringify(catalogSource('upstream', SOURCE, SOURCE, address)));
    const t1 = performance.now();
    for (;;) {
      const state = kubectl(kubeconfig, [
        'get',
        'catalogsource',
        '-n',
        ns,
        SOURCE,
        '-o',
        'jsonpath={.status.connectionState.lastObservedState}',
      ]);
      if (state === 'READY') break;
      if (performance.now() - t1 > 300_000) throw new Error(`CatalogSource ${SOURCE} not READY in 300 s: ${state}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const readyS = (performance.now() - t1) / 1000;

    // package-server: the namespace's list, as OperatorHub would otherwise ask for it.
    const path = `/apis/packages.operators.coreos.com/v1/namespaces/${ns}/packagemanifests`;
    const list = async () => {
      const a = await getWithGzip(server, path, token, caPem);
      if (a.status !== 200) throw new Error(`package-server list: ${a.status} ${a.body.toString().slice(0, 300)}`);
      return a;
    };
    // Its cache fills in the background after READY: a list answers at once with what it has so
    // far. Its cold time to all the tiles is from READY until a list holds every package (polled
    // each second, so up to a second late), and that first full list's own time.
    const early = await list();
    let full = early;
    while (itemsOf(full) < scaled.packages) {
      if (performance.now() - t1 > FULL_LIST_MS)
        throw new Error(`package-server listed ${itemsOf(full)} of ${scaled.packages} packages after 15 min`);
      await new Promise((r) => setTimeout(r, 1000));
      full = await list();
    }
    const coldMs = performance.now() - t1 - readyS * 1000;
    const warm: ListAnswer[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await list());
    const psWarmMs = median(warm.map((a) => a.ms));
    const ps = warm.at(-1)!;
    const memory = rssByProgram(cluster.child.pid!);

    const con = await runConsole(kubeconfig, token, address, ns);

    console.log(`load average during the run (1, 5, 15 min, 2 cores): ${load()}`);
    console.log(
      `CatalogSource ${SOURCE} READY ${fmt(readyS)} s after it was created; resident memory: ${[...memory]
        .filter(([, mb]) => mb >= 100)
        .map(([name, mb]) => `${name} ${fmt(mb, 0)} MB`)
        .join(', ')}`,
    );
    console.log(
      `package-server GET ${path}, Accept-Encoding: gzip: answered Content-Encoding: ${ps.encoding || '(none)'}; ${itemsOf(ps)} items, ${kb(ps.wireBytes)} on the wire, ${kb(ps.body.length)} decoded`,
    );
    console.log(
      `package-server time to first tile: cold (READY → a list holding all ${scaled.packages} packages) ${fmt(coldMs, 0)} ms, that list itself ${fmt(full.ms, 0)} ms (the first list just after READY: ${itemsOf(early)} items in ${fmt(early.ms, 0)} ms); warm median ${fmt(psWarmMs, 0)} ms over ${WARM_RUNS}`,
    );
    console.log(
      `console GET /api/catalog/packages, per-user token, own process, registry reached ${con.route}: ${con.packages} packages, ${kb(con.bytes)} raw, ${kb(con.gzipBytes)} gzipped (level 6, as its server sends it); the process ${fmt(con.rssMb, 0)} MB resident`,
    );
    console.log(
      `console time to first tile (the list's answer): cold (first list after start, its own registry read) ${fmt(con.firstMs, 0)} ms; warm median ${fmt(con.warmMs, 0)} ms over ${WARM_RUNS}`,
    );
    const bytesRatio = ps.wireBytes / con.gzipBytes;
    console.log(
      `bytes on the wire, gzip accepted: package-server ${kb(ps.wireBytes)} / console ${kb(con.gzipBytes)} = ${fmt(bytesRatio, 1)}× (budget ≥ 20×${bytesRatio < 20 ? ', OVER BUDGET' : ''})`,
    );
    console.log(
      `time to first tile, warm: package-server ${fmt(psWarmMs, 0)} ms vs console ${fmt(con.warmMs, 0)} ms: ${faster(con.warmMs, psWarmMs, 'console', 'package-server')}${con.warmMs > psWarmMs ? ' (budget: console faster, OVER BUDGET)' : ''}`,
    );
    console.log(
      `time to first tile, cold: package-server ${fmt(coldMs, 0)} ms (READY → all packages listed) vs console ${fmt(con.firstMs, 0)} ms (start → first list): ${faster(con.firstMs, coldMs, 'console', 'package-server')}${con.firstMs > coldMs ? ' (budget: console faster, OVER BUDGET)' : ''}`,
    );
  } finally {
    if (cluster) await stopClusterProcess(cluster);
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
    rmSync(scaled.dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
