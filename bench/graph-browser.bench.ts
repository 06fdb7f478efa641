// Issue 8's viewer budgets, in Debian's Chromium against a production build: building and laying
// out the Cytoscape graph (budget 1 s) and panning it (budget 60 fps), for the largest channel of
// ../shared/catalogs and for a 500-bundle channel generated from it (its pattern of replaces,
// skips and skipRange repeated under new versions, in a temporary folder, never committed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startConsole } from '../e2e/support/console-server';
import { loadCatalog } from '../lib/olm/fbc/load-catalog';
import type { ChannelEntry } from '../lib/olm/fbc/types';
import { startSandbox, type Sandbox } from '../lib/sandbox/server/sandbox';
import { writeFixtureCatalog, type FixtureBundle } from '../lib/sandbox/testing/fbc-fixture';
import { sharedCatalogs } from './support/catalog-files';
import { fmt, median } from './support/measure';

const over = (v: number, budget: number, lowerIsBetter = true) => ((lowerIsBetter ? v > budget : v < budget) ? ', OVER BUDGET' : '');

/** The channel with the most entries in the catalog. */
function largestChannel(dir: string): { pkg: string; channel: string; entries: ChannelEntry[] } {
  let best = { pkg: '', channel: '', entries: [] as ChannelEntry[] };
  for (const p of loadCatalog(dir).packages.values()) {
    for (const c of p.channels.values()) if (c.entries.length > best.entries.length) best = { pkg: p.name, channel: c.name, entries: c.entries };
  }
  return best;
}

/**
 * `size` bundles following the real channel's shape: its entries' edges (replaces, how many skips,
 * whether a skipRange) repeated copy after copy under new versions, each copy chained to the last.
 */
function generatedChannel(real: ChannelEntry[], size: number): FixtureBundle[] {
  const out: FixtureBundle[] = [];
  const idx = new Map(real.map((e, i) => [e.name, i]));
  for (let n = 0; out.length < size; n++) {
    const copy = Math.floor(n / real.length);
    const i = n % real.length;
    const e = real[i]!;
    const version = `${copy + 1}.${i}.0`;
    const v = (j: number) => `${copy + 1}.${j}.0`;
    const replaced = e.replaces !== undefined ? idx.get(e.replaces) : undefined;
    const replaces = replaced !== undefined ? v(replaced) : i === 0 && copy > 0 ? `${copy}.${real.length - 1}.0` : undefined;
    const skips = (e.skips ?? []).map((s) => idx.get(s)).filter((j): j is number => j !== undefined && j !== i).map(v);
    out.push({ version, ...(replaces ? { replaces } : {}), ...(skips.length ? { skips } : {}), ...(e.skipRange ? { skipRange: `>=${copy + 1}.0.0 <${version}` } : {}) });
  }
  return out;
}

async function waitReady(sb: Sandbox): Promise<string> {
  const cs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
  for (let i = 0; i < 6000; i++) {
    const obj = sb.api.storeList(cs)[0];
    if ((obj?.status as { connectionState?: { lastObservedState?: string } } | undefined)?.connectionState?.lastObservedState === 'READY') return obj!.metadata.name!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the catalog did not become READY');
}

async function measure(browser: Browser, label: string, dir: string, pkg: string, channel: string): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'olm-bench-graph-'));
  const sb = await startSandbox({ port: 0, kubeconfigPath: join(tmp, 'kubeconfig'), catalogs: [dir], demo: false });
  const server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
  try {
    const catalog = await waitReady(sb);
    const layouts: number[] = [];
    let fps: number[] = [];
    for (let run = 0; run < 4; run++) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(`${server.url}/operatorhub/olm/${catalog}/${pkg}/graph?channel=${encodeURIComponent(channel)}`);
      const canvas = page.locator('[role="application"][data-ready="true"]');
      await canvas.waitFor({ timeout: 120_000 });
      // The first tab pays for the server's first catalog read; layout is the browser's own time.
      layouts.push(Number(await canvas.getAttribute('data-layout-ms')));
      if (run === 3) {
        // Pan by dragging for about two seconds while counting the frames the page paints.
        const box = (await canvas.boundingBox())!;
        await page.evaluate(() => {
          const w = window as unknown as { __frames: number[]; __count: boolean };
          w.__frames = [];
          w.__count = true;
          const tick = (t: number) => {
            w.__frames.push(t);
            if (w.__count) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        });
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        for (let s = 0; s < 120; s++) await page.mouse.move(box.x + box.width / 2 + Math.sin(s / 10) * 300, box.y + box.height / 2 + Math.cos(s / 10) * 100, { steps: 1 });
        await page.mouse.up();
        const frames = await page.evaluate(() => {
          const w = window as unknown as { __frames: number[]; __count: boolean };
          w.__count = false;
          return w.__frames;
        });
        const gaps = frames.slice(1).map((t, k) => t - frames[k]!);
        fps = gaps.map((g) => 1000 / g);
        const worst = Math.max(...gaps);
        console.log(`\n${label}`);
        console.log(`  build + layout + fit in Cytoscape: median ${fmt(median(layouts), 0)} ms, worst ${fmt(Math.max(...layouts), 0)} ms over ${layouts.length} tabs (budget 1000 ms${over(Math.max(...layouts), 1000)})`);
        console.log(`  panning by drag: ${frames.length} frames in ${fmt((frames.at(-1)! - frames[0]!) / 1000, 2)} s, median ${fmt(median(fps), 0)} fps, slowest frame ${fmt(worst, 0)} ms (budget 60 fps${over(median(fps), 58, false)})`);
      }
      await page.close();
    }
  } finally {
    await server.stop();
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const real = join(sharedCatalogs, 'certified-operators-v4.18');
  const largest = largestChannel(real);
  const browser = await launchBrowser();
  const gen = mkdtempSync(join(tmpdir(), 'olm-bench-graph-catalog-'));
  try {
    await measure(browser, `largest real channel: ${largest.pkg} / ${largest.channel} (${largest.entries.length} bundles)`, real, largest.pkg, largest.channel);
    writeFixtureCatalog(gen, [{ name: 'big-channel', channel: 'stable', bundles: generatedChannel(largest.entries, 500) }]);
    await measure(browser, `generated channel: 500 bundles in the shape of ${largest.pkg} / ${largest.channel}`, gen, 'big-channel', 'stable');
  } finally {
    await browser.close();
    rmSync(gen, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
