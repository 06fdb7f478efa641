// Issues 34's and 45's cold rows, with per-user tokens (nothing is read before someone asks) and a
// published catalog copied to OpenShift's size (~1,180 packages): the first OperatorHub page and
// list after a start; after a restart with the catalog snapshot on disk; on a second replica with
// nothing on its disk, started after the first has read (the snapshot the replicas share through
// ConfigMaps); and after a restart of a console stopped one second after its first read (the stop
// waits for the snapshot being written; and, for comparison, a stop right after it that does not wait). Each
// against the warm figures of the same start, with the list's bytes on the wire with gzip. Each
// console start is a process of its own (this script, run again as `start`) against one sandbox,
// so a restart finds the same CatalogSource content and the snapshots the earlier starts left.
// The page's figure is its data as the page computes it (the person's list and its first screen),
// without React's render of 24 tiles. Each start does what the server does before it says it is
// ready: the snapshots loaded, then the warm-up for the first person (lib/server/
// warm-first-page.ts); a third replica without that warm-up shows what it takes off.
// COLD_READ_CLUSTER=real runs the same starts against the real cluster, real `opm serve` serving
// the catalog (needs CLUSTER_BIN); COLD_READ_PROFILE=1 says where the second replica's first page
// spent its CPU (its V8 profile, summed by kind).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { consoleList } from './support/api-list';
import { sharedCatalogs } from './support/catalog-files';
import { cpuByKind, topFunctions, type Window } from './support/cpu-profile';
import { fmt, median } from './support/measure';
import { startClusterProcess, stopClusterProcess, type StartedCluster } from './support/cluster-process';
import { generateScaledCatalog } from './support/scaled-catalog';
import { catalogSource, olmNamespaces } from '../scripts/cluster-olm';
import { clusterProgramsMissing } from '../scripts/cluster-programs';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../lib/olm/resources/catalog-source';
import { PACKAGE_MANIFEST_TYPE } from '../lib/olm/resources/package-manifest';
import { startSandbox } from '../lib/sandbox/server/sandbox';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { KubeClient } from '../lib/k8s/client';
import type { FirstPageWarmth } from '../lib/server/warm-first-page';
import { NAMESPACE_TYPE } from '../lib/k8s/core-kinds';

const WARM_RUNS = 15;
const root = join(import.meta.dirname, '..');
/** opm builds its cache at start: minutes for a catalog of this size on a busy 2-core machine. */
const CLUSTER_READY_MS = 30 * 60_000;
const REAL_SOURCE = 'certified-scaled';

/** What a start does: share snapshots with other replicas or not, and how it ends. */
type Sharing = 'shared' | 'alone';
type Ending = 'run' | 'stop-waits' | 'stop-at-once';
/** Whether the start runs the server's warm-up for the first person (lib/server/warm-first-page.ts). */
type Warm = 'warm-up' | 'no-warm-up';

/** The console's namespace in the sandbox, where the replicas share snapshots. */
const CONSOLE_NAMESPACE = 'olm-console';

interface StartFigures {
  restoreMs: number;
  firstPageMs: number;
  firstMs: number;
  warmPageMs: number;
  warmMs: number;
  /** How long the stop waited for the snapshot (stop-waits), in ms. */
  stopWaitMs?: number;
  /** The snapshot files in the folder when the start ended. */
  files?: string[];
  /** Where the first answer's catalogs came from. */
  sources?: string;
  /** What the warm-up for the first person did, when the start ran it. */
  warmth?: FirstPageWarmth;
  /** When the first page was asked and answered, on the clock of a CPU profile. */
  firstPage?: Window;
  packages: number;
  bytes: number;
  gzipBytes: number;
  snapshotBytes: number;
}

const flag = (over: boolean) => (over ? ', OVER BUDGET' : '');
const load = () =>
  loadavg()
    .map((l) => fmt(l, 1))
    .join(' ');

/**
 * The OperatorHub page's data as the page computes it: the person's list, then its first screen;
 * beside it, as Next.js renders the layout with the page, the layout's clusters (the person's hub
 * view, lib/server/context-page.ts).
 */
let firstSources = '';
/** The monotonic clock a CPU profile's timestamps use, in µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
let pageFromUs = 0;

async function pageData(token: string): Promise<number> {
  const [{ requestClient }, { hubList, HubQuery }, { firstScreen }, { readViewState }, { pageClusters }] =
    await Promise.all([
      import('../lib/server/context'),
      import('../lib/server/hub-list'),
      import('../components/hub/hub-results'),
      import('../components/hub/url-state'),
      import('../lib/server/context-page'),
    ]);
  const t = performance.now();
  pageFromUs ||= monotonicUs();
  const req = new Request('http://console.local/operatorhub', { headers: { authorization: `Bearer ${token}` } });
  const [{ list }, clusters] = await Promise.all([
    hubList(requestClient(req).client, HubQuery.parse({})),
    pageClusters(req.headers),
  ]);
  if (!clusters.names.length) throw new Error('the layout has no cluster');
  const first = firstScreen(list, readViewState(new URLSearchParams()));
  // Where the first answer's catalogs came from, to tell a registry read from a fallback.
  firstSources ||= list.catalogs
    .map((c) => `${c.name}: ${c.source ?? '-'}${c.problem ? ` (${c.problem})` : ''}`)
    .join('; ');
  if (!first.tiles.length) throw new Error('the page shows no tile');
  return performance.now() - t;
}

/**
 * One console start: load the snapshots as the server does at start (with the replicas' shared
 * ones when `sharing` says so) and warm up for the first person unless `warmUp` says not, then
 * the first page and list and the warm ones; or, for a stop,
 * the first page and list, one second, and the stop as the server makes it on SIGTERM.
 */
async function start(
  kubeconfig: string,
  token: string,
  snapshots: string,
  sharing: Sharing,
  ending: Ending,
  warmUp: Warm,
) {
  process.env.OLM_CONSOLE_KUBECONFIG = kubeconfig;
  process.env.OLM_CONSOLE_AUTH = 'token';
  process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR = snapshots;
  process.env.OLM_CONSOLE_NAMESPACE = CONSOLE_NAMESPACE;
  process.env.OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS = sharing === 'shared' ? 'true' : 'false';
  process.env.LOG_LEVEL = 'error';
  const { sharedCatalogIndex } = await import('../lib/catalog/catalog-index');
  const { restoreCatalogContent } = await import('../lib/server/olm-v1/content-cache');
  const { shareCatalogSnapshots } = await import('../lib/server/catalog-snapshot-sharing');
  const t0 = performance.now();
  // Both kinds of snapshot, as instrumentation.ts loads them when the server starts.
  shareCatalogSnapshots(sharedCatalogIndex());
  await Promise.all([sharedCatalogIndex().ready(), restoreCatalogContent()]);
  const restoreMs = performance.now() - t0;
  // And, as it does before it says it is ready, the warm-up for the first person (connections
  // opened without credentials, the list's code run on made-up packages); off for comparison.
  let warmth: FirstPageWarmth | undefined;
  if (warmUp === 'warm-up') {
    const [{ warmFirstPage }, { clusterAccess }] = await Promise.all([
      import('../lib/server/warm-first-page'),
      import('../lib/server/context'),
    ]);
    warmth = await warmFirstPage(clusterAccess());
    // The warm-up's last step (lib/server/http/warm-up.ts), once the loads above are over.
    const { collectStartGarbage } = await import('../lib/server/http/warm-up');
    warmth = { ...warmth, gcMs: collectStartGarbage() };
  }
  const call = () => consoleList(token);
  // A person opens OperatorHub: the page first, then the browser asks for the whole list.
  const firstPageMs = await pageData(token);
  const firstPage = { fromUs: pageFromUs, toUs: monotonicUs() };
  if (ending !== 'run') {
    // One second after the first read (or at once), the stop the server makes on SIGTERM after its
    // last request (console-server.ts): it waits for the snapshot being written; before issue 45 it
    // exited at once.
    if (ending === 'stop-waits') await new Promise((r) => setTimeout(r, 1_000));
    const { finishSnapshotWrites } = await import('../lib/server/http/unfinished-writes');
    const t = performance.now();
    if (ending === 'stop-waits') await finishSnapshotWrites(pino({ level: 'silent' }), 10_000);
    const stopWaitMs = performance.now() - t;
    const files = existsSync(snapshots) ? readdirSync(snapshots) : [];
    const none = { firstMs: 0, warmPageMs: 0, warmMs: 0, packages: 0, bytes: 0, gzipBytes: 0, snapshotBytes: 0 };
    const figures = { ...none, restoreMs, firstPageMs, stopWaitMs, files, sources: firstSources };
    console.log(JSON.stringify(figures satisfies StartFigures));
    process.exit(0);
  }
  const first = await call();
  const list = JSON.parse(first.body.toString()) as { total: number };
  const base = {
    restoreMs,
    firstPageMs,
    firstMs: first.ms,
    packages: list.total,
    bytes: first.body.length,
    // What the console server's compression (zlib's default level, 6) sends to a client accepting gzip.
    gzipBytes: gzipSync(first.body, { level: 6 }).length,
  };
  const warm: number[] = [];
  const warmPage: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    warmPage.push(await pageData(token));
    warm.push((await call()).ms);
  }
  // The snapshot is written after the read, in the background: wait for it before stopping.
  await sharedCatalogIndex().writesSettled(120_000);
  const f = existsSync(snapshots) ? readdirSync(snapshots).find((n) => n.endsWith('.catalog.gz')) : undefined;
  const snapshotBytes = f ? statSync(join(snapshots, f)).size : 0;
  const figures: StartFigures = {
    ...base,
    firstPage,
    warmPageMs: median(warmPage),
    warmMs: median(warm),
    snapshotBytes,
    sources: firstSources,
    warmth,
  };
  console.log(JSON.stringify(figures));
}

/** One console start in a process of its own (async: the sandbox in this process must keep answering). */
function runStart(
  kubeconfig: string,
  token: string,
  snapshots: string,
  sharing: Sharing,
  ending: Ending = 'run',
  profileDir?: string,
  warm: Warm = 'warm-up',
): Promise<StartFigures> {
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      '--import',
      'tsx',
      import.meta.filename,
      'start',
      kubeconfig,
      token,
      snapshots,
      sharing,
      ending,
      warm,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as StartFigures)
        : reject(new Error(`a console start failed (${code}): ${out}`)),
    ),
  );
}

/** Where the second replica's first page went: its CPU samples taken while the page was computed. */
function profiled(dir: string, f: StartFigures): void {
  const file = readdirSync(dir).find((n) => n.endsWith('.cpuprofile'));
  if (!file || !f.firstPage) return;
  const kinds = cpuByKind(join(dir, file), f.firstPage);
  const total = kinds.reduce((a, k) => a + k.ms, 0);
  console.log(`CPU while its first page was computed (${fmt(f.firstPageMs, 0)} ms): ${fmt(total, 0)} ms`);
  for (const k of kinds.slice(0, 8)) console.log(`  ${k.kind}: ${fmt(k.ms, 0)} ms`);
  for (const t of topFunctions(join(dir, file), 12, f.firstPage)) console.log(`    ${t.fn}: ${fmt(t.ms, 0)} ms`);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'start') {
    const [kubeconfig, token, snapshots, sharing, ending, warm] = process.argv.slice(3);
    return start(kubeconfig!, token!, snapshots!, sharing as Sharing, ending as Ending, warm as Warm);
  }
  if (process.env.COLD_READ_CLUSTER === 'real') return onRealCluster();
  const scaled = generateScaledCatalog(join(sharedCatalogs, 'certified-operators-v4.18'), 20);
  const tmp = mkdtempSync(join(tmpdir(), 'olm-bench-cold-'));
  const t0 = performance.now();
  const sb = await startSandbox({
    port: 0,
    kubeconfigPath: join(tmp, 'kubeconfig'),
    catalogs: [scaled.dir],
    demo: false,
  });
  try {
    const cs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
    for (let i = 0; i < 12_000; i++) {
      const st = sb.api.storeList(cs)[0]?.status as { connectionState?: { lastObservedState?: string } } | undefined;
      if (st?.connectionState?.lastObservedState === 'READY') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(
      `generated catalog: ${scaled.packages} packages (certified-operators-v4.18 ×20), served by the sandbox after ${fmt((performance.now() - t0) / 1000)} s`,
    );
    await measureStarts(sb.kubeconfigPath, sb.tokens.admin!, tmp);
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(scaled.dir, { recursive: true, force: true });
  }
}

/**
 * The same rows on the real cluster: real OLM, and real `opm serve` serving the catalog as
 * published behind a CatalogSource (as real-vs-scale.bench.ts starts it), the console's
 * ConfigMaps in a namespace of their own there. Skipped, with the reason, without the cluster's
 * programs (CLUSTER_BIN).
 */
async function onRealCluster(): Promise<void> {
  const why = clusterProgramsMissing();
  if (why) {
    console.log(`skipped: ${why}`);
    return;
  }
  const scaled = generateScaledCatalog(join(sharedCatalogs, 'certified-operators-v4.18'), 20);
  const tmp = mkdtempSync(join(tmpdir(), 'olm-bench-cold-real-'));
  let cluster: StartedCluster | undefined;
  try {
    const t0 = performance.now();
    cluster = await startClusterProcess(
      [join(root, 'scripts', 'cluster.ts'), '--data-dir', join(tmp, 'real'), '--no-olm-v1', '--registry', scaled.dir],
      /^cluster ready$/m,
      CLUSTER_READY_MS,
    );
    const out = cluster.output();
    const kubeconfig = /^kubeconfig: (.+)$/m.exec(out)![1]!;
    const address = /^registry [^:]+: (\S+)$/m.exec(out)![1]!;
    const token = (JSON.parse(readFileSync(join(tmp, 'real', 'tokens.json'), 'utf8')) as { admin: string }).admin;
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const client = new KubeClient(kc);
    await client.create(CATALOG_SOURCE_TYPE, catalogSource('upstream', REAL_SOURCE, REAL_SOURCE, address));
    const ns = olmNamespaces('upstream').catalog;
    for (let waited = 0; ; waited += 200) {
      const got = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, REAL_SOURCE, ns);
      if (got.status?.connectionState?.lastObservedState === 'READY') break;
      if (waited > 300_000) throw new Error(`CatalogSource ${REAL_SOURCE} not READY in 300 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const readyS = (performance.now() - t0) / 1000;
    // opm answers its first reads slowly for a while after it starts: the first run here, at load
    // 30, had the console's ListBundles over its 20 s deadline three times. Measured from when the
    // catalog is settled, as on a cluster where its pod has run a while: once package-server (which
    // reads every package through opm) lists them all.
    const manifests = `/apis/packages.operators.coreos.com/v1/namespaces/${ns}/packagemanifests`;
    for (let waited = 0; ; waited += 2_000) {
      const listed = await client.list(PACKAGE_MANIFEST_TYPE, { namespace: ns }).catch(() => ({ items: [] }));
      if (listed.items.length >= scaled.packages) break;
      if (waited > 900_000) throw new Error(`${manifests}: ${listed.items.length} of ${scaled.packages} after 15 min`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
    console.log(
      `generated catalog: ${scaled.packages} packages (certified-operators-v4.18 ×20), served by opm on the real ` +
        `cluster, its CatalogSource READY after ${fmt(readyS)} s, every package listed by package-server after ` +
        `${fmt((performance.now() - t0) / 1000)} s`,
    );
    await measureStarts(kubeconfig, token, tmp);
  } finally {
    if (cluster) await stopClusterProcess(cluster);
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
    rmSync(scaled.dir, { recursive: true, force: true });
  }
}

/** Each start in turn against one cluster, then the rows. */
async function measureStarts(kubeconfig: string, token: string, tmp: string): Promise<void> {
  // The replicas' namespace, and the session key every replica shares (deploy/base: a Secret).
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  await new KubeClient(kc).create(NAMESPACE_TYPE, { metadata: { name: CONSOLE_NAMESPACE } });
  process.env.OLM_CONSOLE_SESSION_KEY = randomBytes(32).toString('hex');
  const profileDir = process.env.COLD_READ_PROFILE ? join(tmp, 'profile') : undefined;
  const run = (dir: string, sharing: Sharing, ending?: Ending, profile?: string, warm?: Warm) =>
    runStart(kubeconfig, token, join(tmp, dir), sharing, ending, profile, warm);
  const first = await run('replica-1', 'shared');
  const again = await run('replica-1', 'shared');
  const second = await run('replica-2', 'shared', 'run', profileDir);
  // For comparison, a third replica as the second was before the warm-up for the first person.
  const unwarmed = await run('replica-3', 'shared', 'run', undefined, 'no-warm-up');
  const stopped = await run('stopped', 'alone', 'stop-waits');
  const afterStop = await run('stopped', 'alone');
  const stoppedAtOnce = await run('stopped-at-once', 'alone', 'stop-at-once');
  const afterStopAtOnce = await run('stopped-at-once', 'alone');
  console.log(`load average during the run (1, 5, 15 min, 2 cores): ${load()}`);
  const ms = (v: number) => `${fmt(v, 0)} ms`;
  const row = (what: string, f: StartFigures, budget: string, over: boolean) =>
    console.log(
      `${what}: first page ${ms(f.firstPageMs)}, ${fmt(f.firstPageMs / f.warmPageMs, 1)}× the warm ` +
        `${ms(f.warmPageMs)}; first list ${ms(f.firstMs)}, ${fmt(f.firstMs / f.warmMs, 1)}× the warm ` +
        `${ms(f.warmMs)} (snapshots loaded at start in ${ms(f.restoreMs)}; budget ${budget}${flag(over)}; ` +
        `catalogs: ${f.sources})`,
    );
  const within = (f: StartFigures, times: number) =>
    f.firstPageMs > 2000 || f.firstMs > 2000 || f.firstPageMs > times * f.warmPageMs || f.firstMs > times * f.warmMs;
  row(
    `first start, per-user tokens, nobody before, ${first.packages} packages`,
    first,
    '≤ 2 s and ≤ 3×',
    within(first, 3),
  );
  row(
    `the same after a restart with its snapshot (${fmt(again.snapshotBytes / 1024, 0)} KB on disk)`,
    again,
    '≤ 1.5×',
    within(again, 1.5),
  );
  const replicaRow = 'a second replica, nothing on its disk, after the first has read';
  row(replicaRow, second, '≤ 2 s and ≤ 3×', within(second, 3));
  const w = second.warmth;
  console.log(
    `its warm-up for the first person: ${w?.connections ?? 'no'} connections opened` +
      `${w?.problem ? ` (${w.problem})` : ''}, the list's code run on made-up packages in ${ms(w?.buildMs ?? 0)}, ` +
      `the start's garbage collected in ${ms(w?.gcMs ?? 0)}`,
  );
  if (profileDir) profiled(profileDir, second);
  row('for comparison, the same without the warm-up for the first person', unwarmed, 'none', false);
  console.log(
    `a console stopped 1 s after its first read (the page, ${ms(stopped.firstPageMs)}) waited ` +
      `${ms(stopped.stopWaitMs ?? 0)} more at its stop for the snapshot being written; its folder then: ` +
      `${stopped.files?.join(', ')}; catalogs: ${stopped.sources}; ` +
      `without the wait: ${stoppedAtOnce.files?.join(', ')}`,
  );
  row('its restart', afterStop, '≤ 2 s and ≤ 3×', within(afterStop, 3));
  row(
    'for comparison, a restart after a stop right after the first read that did not wait for the snapshot',
    afterStopAtOnce,
    'none',
    false,
  );
  console.log(
    `GET /api/catalog/packages, ${first.packages} packages: ${fmt(first.bytes / 1024, 0)} KB, ${fmt(first.gzipBytes / 1024, 1)} KB with gzip (budget ≤ 20 KB${flag(first.gzipBytes > 20 * 1024)})`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
