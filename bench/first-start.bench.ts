// Issue 34's "first start" row: `npm start` on a fresh clone of this repository's HEAD, timed
// until the console's page answers (what a person waiting at the terminal sees), then stopped as
// Ctrl-C stops it and started a second time in the same clone. node_modules is hard-linked from
// this checkout (`cp -al`): installing packages (`npm ci`) is not part of the row. The sandbox is
// the cluster (no flags) on a free port. Each run prints when each step it logs arrived, the
// build's own timings as Next.js prints them, and the machine's load average: the machine is
// shared, so the same run is several times slower when it is busy. FIRST_START_REF=<commit>
// times that commit instead of HEAD (a before-and-after in the same hour).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt } from './support/measure';
import { buildPhases } from './support/next-trace';
import { firstAt, freePort, lastAt, npmStart, stopStart, type StartRun } from './support/npm-start';

const root = join(import.meta.dirname, '..');
const BUDGET_QUIET_S = 30;
const BUDGET_BUSY_S = 90;
const BUDGET_SECOND_S = 10;
const TIMEOUT_MS = 15 * 60_000;

const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ');
const s = (ms: number | undefined) => (ms === undefined ? '—' : `${fmt(ms / 1000, 1)} s`);

function report(name: string, run: StartRun, budgetS: number): void {
  const { lines } = run;
  const buildFrom = firstAt(lines, /^building the console/);
  const buildTo = buildFrom === undefined ? undefined : lastAt(lines, 'next build');
  const sandbox = firstAt(lines, /^Cluster: the sandbox/);
  const listening = firstAt(lines, /^console listening on/);
  const over = run.answeredMs > budgetS * 1000 ? `, OVER the ${budgetS} s budget` : '';
  console.log(`${name}: the page answered (${run.status}) after ${s(run.answeredMs)}${over}; load average ${load()}`);
  console.log(
    `  since the start: build ${buildFrom === undefined ? 'skipped' : `${s(buildFrom)} → ${s(buildTo)}`}, ` +
      `sandbox listening ${s(sandbox)}, console listening ${s(listening)}, page answered ${s(run.answeredMs)}`,
  );
  // Next.js prints its own phase times ("Compiled successfully in 41s", "Generating static pages … in 2.1s").
  for (const l of lines) {
    if (l.source === 'next build' && /\bin \d[\d.]*(ms|s|min)\b/.test(l.text)) console.log(`  next build: ${l.text}`);
  }
}

async function main(): Promise<void> {
  const ref = process.env.FIRST_START_REF || 'HEAD';
  const head = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  const tmp = mkdtempSync(join(tmpdir(), 'olm-console-first-start-'));
  const clone = join(tmp, 'olm-console');
  let run: StartRun | undefined;
  try {
    execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
    execFileSync('git', ['checkout', '--quiet', head], { cwd: clone, stdio: 'inherit' });
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(clone, 'node_modules')]);
    console.log(`fresh clone of ${head} (node_modules hard-linked, npm ci not timed); load average ${load()}`);

    run = await npmStart(clone, await freePort(), TIMEOUT_MS);
    const busy = loadavg()[0]! >= 2;
    report('first start', run, busy ? BUDGET_BUSY_S : BUDGET_QUIET_S);
    const stop = await stopStart(run);
    console.log(`  stopped ${stop.graceful ? 'gracefully' : 'by SIGKILL'} in ${s(stop.ms)}`);
    if (!existsSync(join(clone, '.next', 'BUILD_ID'))) throw new Error('the first start left no build behind');
    // Next.js's own record of the build (.next/trace): the phases, some of them side by side.
    for (const p of buildPhases(join(clone, '.next', 'trace')))
      console.log(`  build phase ${p.name}: ${s(p.ms)} (from ${s(p.startMs)})`);

    run = await npmStart(clone, await freePort(), TIMEOUT_MS);
    report('second start', run, BUDGET_SECOND_S);
    await stopStart(run);
    run = undefined;
    console.log(
      `budgets: ≤ ${BUDGET_QUIET_S} s quiet (load < 2), ≤ ${BUDGET_BUSY_S} s busy; a second start ≤ ${BUDGET_SECOND_S} s`,
    );
  } finally {
    if (run) await stopStart(run, 5_000);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
