// Issue 43's fleet budget, in part: 50 sandbox clusters (one process, lib/sandbox/fleet.ts, seeded
// as `npm start -- --clusters 50` seeds them) read by the fleet routes as one person in
// per-user-token mode. Measured: each route's answer with nothing cached (every cluster asked, 8
// at a time) and again within the cache's 10 s; then with 2 clusters answering 10 s late, which the
// 8 s deadline bounds. The route handlers run in this process, beside the 50 clusters, so their
// work shares one event loop (a console of its own would be faster, not slower). Then the pages in
// Debian's Chromium against a production build (a console process of its own, nothing cached):
// the time from navigation to the first cluster's row painted and to every cluster's row painted
// (the section no longer aria-busy), for each fleet page, and for Clusters with 2 clusters 10 s
// late; the machine's load average is printed beside the figures. Needs `npm run build`.
// Then what keeps Approvals live costs, in this process and in the browser (support/fleet-live.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startConsole } from '../e2e/support/console-server';
import { loggedInPage } from '../e2e/support/login';
import { startSandboxFleet } from '../lib/sandbox/fleet';
import { clientAs } from '../lib/server/testing/cluster';
import { consoleRequest } from '../lib/server/testing/console-request';
import { liveApprovalsInBrowser, liveApprovalsInProcess } from './support/fleet-live';
import { fmt } from './support/measure';

const CLUSTERS = Number(process.env.FLEET_CLUSTERS ?? 50);
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

// Installed before any page script: on the page's own clock (0 = navigation start), the frame
// after the first row with a cluster's answer is in the DOM, and the frame after the page's section
// stops being aria-busy (every cluster answered or past its deadline).
const probe = (firstRow: string) => `(() => {
  const firstRow = () => { ${firstRow} };
  const mo = new MutationObserver(() => {
    if (window.__first === undefined && firstRow()) {
      window.__first = -1;
      requestAnimationFrame(() => { window.__first = performance.now(); });
    }
    if (window.__all === undefined && document.querySelector('section[aria-busy="false"]')) {
      window.__all = -1;
      requestAnimationFrame(() => { window.__all = performance.now(); });
    }
  });
  mo.observe(document, { childList: true, subtree: true, attributes: true });
})()`;

const PAGES = {
  clusters: `return [...document.querySelectorAll('table[aria-label="Clusters"] tr')]
    .some((tr) => tr.querySelector('td') && !tr.textContent.includes('Asking…'));`,
  operators: `return !!document.querySelector('table[aria-label="Operators across clusters"] td');`,
  approvals: `return [...document.querySelectorAll('section section[aria-labelledby^="fleet-approvals-"]')]
    .some((s) => !s.textContent.includes('Asking…'));`,
} as const;

/** Navigation to the first cluster's row and to every row, in ms, as `token`'s person. */
async function firstPaint(browser: Browser, url: string, token: string, page: keyof typeof PAGES) {
  const tab = await loggedInPage(browser, url, token);
  try {
    await tab.addInitScript(probe(PAGES[page]));
    await tab.goto(`${url}/fleet/${page}`);
    await tab.waitForFunction(() => (window as { __all?: number }).__all! > 0, undefined, { timeout: 60_000 });
    await tab.waitForFunction(() => (window as { __first?: number }).__first! > 0, undefined, { timeout: 60_000 });
    return tab.evaluate(() => {
      const w = window as { __first?: number; __all?: number };
      return { first: w.__first!, all: w.__all! };
    });
  } finally {
    await tab.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-bench-fleet-'));
  const t0 = performance.now();
  const fleet = await startSandboxFleet({
    count: CLUSTERS,
    kubeconfigPath: join(dir, 'kubeconfig'),
    deploymentDelayMs: 0,
  });
  console.log(`${CLUSTERS} clusters started and seeded in ${fmt(performance.now() - t0)} ms`);
  try {
    process.env.OLM_CONSOLE_KUBECONFIG = fleet.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    // The sandbox fleet's seed users have one token on every cluster (as `npm start -- --clusters`).
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    const routes = {
      clusters: (await import('../app/api/fleet/clusters/route')).GET,
      operators: (await import('../app/api/fleet/operators/route')).GET,
      approvals: (await import('../app/api/fleet/approvals/route')).GET,
    };
    const time = async (user: string, name: keyof typeof routes) => {
      const start = performance.now();
      const res = await routes[name](consoleRequest(`/api/fleet/${name}`, { token: fleet.tokens[user]! }));
      const text = await res.text();
      const ms = performance.now() - start;
      const body = JSON.parse(text) as { clusters: { ok: boolean }[] };
      const down = body.clusters.filter((c) => !c.ok).length;
      return { ms, kb: text.length / 1024, down };
    };
    for (const [user, label] of [
      ['admin', 'cold (nothing cached)'],
      ['admin', 'warm (within 10 s)'],
      ['bob', 'cold, another person'],
    ] as const) {
      for (const name of ['clusters', 'operators', 'approvals'] as const) {
        const r = await time(user, name);
        console.log(
          `GET /api/fleet/${name.padEnd(9)} ${label.padEnd(22)} ${fmt(r.ms).padStart(6)} ms  ${r.kb.toFixed(0)} KB` +
            (r.down ? `  (${r.down} not answering)` : '') +
            `  (${load()})`,
        );
      }
    }
    // Two clusters answer 10 s late; alice has nothing cached.
    for (const c of fleet.clusters.slice(-2)) c.sandbox.faults.apply({ latencyMs: 10_000 });
    const r = await time('alice', 'clusters');
    console.log(
      `GET /api/fleet/clusters  2 clusters 10 s late     ${fmt(r.ms).padStart(6)} ms  (${r.down} not answering)`,
    );
    // The pages in the browser, a console process of its own (its cache empty): admin cold on each
    // page, then bob on Clusters with the same 2 clusters 10 s late.
    for (const c of fleet.clusters.slice(-2)) c.sandbox.faults.apply({ latencyMs: 0 });
    const adminOn = (name: string) => clientAs(fleet.clusters.find((c) => c.name === name)!.sandbox, 'admin');
    console.log(`${await liveApprovalsInProcess(CLUSTERS, fleet.tokens.admin!, adminOn)}  (${load()})`);
    const web = await startConsole({
      OLM_CONSOLE_KUBECONFIG: fleet.kubeconfigPath,
      OLM_CONSOLE_AUTH: 'token',
      OLM_CONSOLE_FLEET_SHARED_TOKENS: 'true',
    });
    const browser = await launchBrowser();
    try {
      for (const page of ['clusters', 'operators', 'approvals'] as const) {
        const r = await firstPaint(browser, web.url, fleet.tokens.admin!, page);
        console.log(
          `browser /fleet/${page.padEnd(9)} first row ${fmt(r.first).padStart(6)} ms, every row ${fmt(r.all).padStart(6)} ms  (${load()})`,
        );
      }
      // Again as admin: cached only if the pages above took less than the cache's 10 s together.
      const again = await firstPaint(browser, web.url, fleet.tokens.admin!, 'clusters');
      console.log(
        `browser /fleet/clusters  again     first row ${fmt(again.first).padStart(6)} ms, every row ${fmt(again.all).padStart(6)} ms  (${load()})`,
      );
      console.log(
        `${await liveApprovalsInBrowser(browser, web.url, fleet.tokens.admin!, adminOn, routes.approvals)}` +
          `  (${load()})`,
      );
      for (const c of fleet.clusters.slice(-2)) c.sandbox.faults.apply({ latencyMs: 10_000 });
      const late = await firstPaint(browser, web.url, fleet.tokens.bob!, 'clusters');
      console.log(
        `browser /fleet/clusters  2 late    first row ${fmt(late.first).padStart(6)} ms, every row ${fmt(late.all).padStart(6)} ms  (${load()})`,
      );
    } finally {
      await browser.close();
      await web.stop();
    }
    console.log(`resident memory: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (clusters and console together)`);
  } finally {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
