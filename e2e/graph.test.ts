// The upgrade-graph viewer in Debian's Chromium, on a real catalog from ../shared/catalogs whose
// stable channel has replaces, skips and skipRange edges (gatekeeper-operator-product, v4.20), and
// on a long channel: portworx-certified's stable (48 versions, from certified-operators-v4.18),
// served alone from a temporary catalog folder, beside scaleops-operator's stable-v1 (82 versions,
// hundreds of skip edges, from the same catalog).
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CATALOG_SOURCE_TYPE } from '../lib/olm/resources/catalog-source';
import { waitFor } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';
import { needsSharedCatalogs, sharedCatalog } from '../lib/testing/shared-catalogs';

const CATALOG_DIR = sharedCatalog('gatekeeper-operator-product-v4.20');
const PKG = 'gatekeeper-operator-product';
const LONG_PKG = 'portworx-certified';
const LONG_SOURCE = sharedCatalog('certified-operators-v4.18', LONG_PKG);
const SKIPS_PKG = 'scaleops-operator';
const SKIPS_SOURCE = sharedCatalog('certified-operators-v4.18', SKIPS_PKG);
const px = (version: string) => `portworx-operator.v${version}`;

describe('upgrade graph viewer', needsSharedCatalogs, () => {
  let base: string;
  let longBase: string;
  let skipsBase: string;

  const h = useHarness({
    suite: 'graph',
    sandbox: { catalogs: [CATALOG_DIR], demo: false },
    // The long channel served alone: its package copied into a catalog folder of its own.
    writeCatalogs: (tmp) => {
      const longDir = join(tmp, 'long-channel');
      cpSync(LONG_SOURCE, join(longDir, LONG_PKG), { recursive: true });
      cpSync(SKIPS_SOURCE, join(longDir, SKIPS_PKG), { recursive: true });
      return [longDir];
    },
    seed: async (kube) => {
      const ready = await waitFor(
        'the catalogs ready',
        async () => {
          const items = (
            await kube.listAll<{
              metadata?: { name?: string };
              status?: { connectionState?: { lastObservedState?: string } };
            }>(CATALOG_SOURCE_TYPE, { namespace: 'olm' })
          ).items;
          const names = items
            .filter((cs) => cs.status?.connectionState?.lastObservedState === 'READY')
            .map((cs) => cs.metadata?.name ?? '');
          return names.length === 2 ? names : undefined;
        },
        60_000,
      );
      base = `/operatorhub/olm/${ready.find((n) => n !== 'long-channel')}/${PKG}/graph`;
      longBase = `/operatorhub/olm/long-channel/${LONG_PKG}/graph`;
      skipsBase = `/operatorhub/olm/long-channel/${SKIPS_PKG}/graph`;
    },
  });

  const open = async (query: string, at = base): Promise<Page> => {
    const page = await h.open(`${at}${query}`);
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    return page;
  };

  test('every edge kind is drawn and counted, the head is marked, skipped bundles are never targets', async () => {
    const page = await open('?channel=stable');
    const legend = page.getByRole('list', { name: 'Legend' });
    for (const kind of ['replaces', 'skips', 'skipRange'])
      assert.match(
        (await legend.getByText(new RegExp(`^${kind} \\(`)).textContent()) ?? '',
        new RegExp(`^${kind} \\([1-9]\\d*\\)$`),
        `${kind} edges exist`,
      );
    assert.match(
      (await legend.getByText(/^skips \(/).textContent()) ?? '',
      /^skips \(3\)$/,
      'the three skips of v3.15.1-0.1727189912.p',
    );
    await page.getByText('The same graph as a list').click();
    const rows = page.getByRole('table', { name: 'Versions of stable' }).getByRole('row');
    assert.match((await rows.nth(1).textContent()) ?? '', /^3\.21\.0.*head/, 'the newest first, and it is the head');
    assert.match(
      (await rows.filter({ has: page.getByRole('button', { name: '3.15.1', exact: true }) }).textContent()) ?? '',
      /never an upgrade target/,
    );
    await page.close();
  });

  test("a chosen starting version shows the path OLM walks; a node's facts by keyboard and by the list", async () => {
    const page = await open(`?channel=stable&from=${PKG}.v3.17.0`);
    // The head's skipRange (<3.21.0) covers 3.17.0, so OLM goes there in one InstallPlan.
    const status = page.getByRole('status').filter({ hasText: 'From ' });
    await status.waitFor();
    assert.match((await status.textContent()) ?? '', new RegExp(`makes 1 InstallPlan: ${PKG}\\.v3\\.21\\.0`));
    const aside = page.getByRole('complementary', { name: 'Selected version' });
    assert.match((await aside.textContent()) ?? '', /3\.17\.0/, 'the starting version is selected');
    await page.getByRole('application').focus();
    await page.keyboard.press('End');
    await aside.getByText('Head of stable.').waitFor();
    assert.match(
      (await aside.getByRole('link', { name: 'Install this version' }).getAttribute('href')) ?? '',
      new RegExp(`version=${PKG}.v3.21.0`),
    );
    await page.keyboard.press('ArrowLeft');
    await aside.getByRole('heading', { name: '3.20.0' }).waitFor();
    await page.getByText('The same graph as a list').click();
    await page
      .getByRole('table', { name: 'Versions of stable' })
      .getByRole('button', { name: '3.15.1', exact: true })
      .click();
    await aside.getByText(/Never an upgrade target/).waitFor();
    await page.getByLabel('Channel').selectOption('3.17');
    await page.getByRole('table', { name: 'Versions of 3.17' }).waitFor();
    await page.close();
  });

  test('channels overlaid: each in its colour with its edges, a bundle only the other channel has is found and is its head', async () => {
    const page = await open('?channel=stable');
    await page.getByRole('group', { name: 'Overlay channels' }).getByLabel('3.17', { exact: true }).check();
    const legend = page.getByRole('list', { name: 'Legend' });
    await legend.getByText('channel 3.17 (9 edges)').waitFor();
    await legend.getByText('channel stable (71 edges)').waitFor();
    assert.match(page.url(), /overlay=3\.17/, 'the overlay is kept in the URL');
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    await page.getByLabel('Find a version').fill('3.17.3');
    await page.getByLabel('Find a version').press('Enter');
    const aside = page.getByRole('complementary', { name: 'Selected version' });
    await aside.getByText('Head of 3.17.').waitFor();
    assert.equal(await aside.getByText('Head of stable.').count(), 0);
    await page.getByRole('group', { name: 'Overlay channels' }).getByLabel('3.17', { exact: true }).uncheck();
    await legend.getByText(/^skips \(3\)$/).waitFor();
    assert.equal(await legend.getByText(/^channel .* edges\)$/).count(), 0, 'one channel again: no channel colours');
    await page.close();
  });

  /**
   * What Cytoscape shows: its zoom, each named bundle's label size on screen in pixels, and
   * whether the bundle is inside the visible extent. Cytoscape keeps itself on its container.
   */
  const seen = (page: Page, names: string[]) =>
    page.locator('[role="application"][data-ready="true"]').evaluate((el, ids) => {
      type Cy = {
        zoom(): number;
        extent(): { x1: number; x2: number };
        getElementById(id: string): { position(): { x: number }; renderedStyle(p: string): string };
      };
      const cy = (el as unknown as { _cyreg: { cy: Cy } })._cyreg.cy;
      const ext = cy.extent();
      return {
        zoom: cy.zoom(),
        nodes: Object.fromEntries(
          ids.map((id) => {
            const n = cy.getElementById(id);
            return [
              id,
              {
                px: parseFloat(n.renderedStyle('font-size')),
                inView: n.position().x >= ext.x1 && n.position().x <= ext.x2,
              },
            ];
          }),
        ),
      };
    }, names);

  test('a long channel: the text above names its size and head; the first view shows the newest versions with labels to read', async () => {
    const page = await open('?channel=stable', longBase);
    // Called by its display name, as on its details page, which the breadcrumb links to.
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await trail.getByRole('link', { name: 'Portworx Enterprise' }).waitFor();
    assert.equal(await trail.textContent(), 'OperatorHub / Portworx Enterprise / upgrade graph');
    await page.getByRole('heading', { level: 1, name: 'Upgrade graph of Portworx Enterprise' }).waitFor();
    const summary = page.getByText(/^Channel stable: 48 versions, head 26\.3\.1\.$/);
    assert.ok(await summary.isVisible(), 'the channel, its size and its head are said in text');
    const canvas = page.getByRole('application');
    assert.ok((await summary.boundingBox())!.y < (await canvas.boundingBox())!.y, 'above the canvas');
    assert.equal(await canvas.getAttribute('aria-describedby'), await summary.getAttribute('id'));
    const newest = ['25.5.0', '25.6.1', '26.2.0', '26.3.0', '26.3.1'].map(px);
    const view = await seen(page, [...newest, px('1.6.1')]);
    for (const id of newest) {
      assert.ok(view.nodes[id]!.inView, `${id} is in the first view`);
      assert.ok(view.nodes[id]!.px >= 10, `${id}'s label is ${view.nodes[id]!.px}px on screen (zoom ${view.zoom})`);
    }
    assert.equal(view.nodes[px('1.6.1')]!.inView, false, 'the oldest are left to the overview');
    // The overview: the rest of the channel, moved to by keyboard.
    const overview = page.getByRole('slider', { name: /Overview of every version/ });
    assert.match(
      (await overview.getAttribute('aria-valuetext')) ?? '',
      /^25\.5\.0 to 26\.3\.1 shown, 10 of 48 versions$/,
    );
    await overview.focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() =>
      /^1\.6\.1 to /.test(document.querySelector('[role="slider"]')?.getAttribute('aria-valuetext') ?? ''),
    );
    assert.ok((await seen(page, [px('1.6.1')])).nodes[px('1.6.1')]!.inView);
    // Show all: every version with a label to read, on a canvas wider than its box that scrolls
    // sideways, rather than the whole channel squashed into a line of dots.
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForFunction(() => {
      const c = document.querySelector('[role="application"]')!;
      return c.clientWidth > c.parentElement!.clientWidth;
    });
    const all = await seen(page, [px('1.6.1'), px('26.3.1'), px('24.2.0')]);
    assert.ok(all.nodes[px('1.6.1')]!.inView && all.nodes[px('26.3.1')]!.inView, 'every version on the canvas');
    for (const id of [px('1.6.1'), px('24.2.0'), px('26.3.1')])
      assert.ok(all.nodes[id]!.px >= 10, `${id}'s label is ${all.nodes[id]!.px}px on screen (zoom ${all.zoom})`);
    // The overview moves the scrolling box: Home brings the oldest into it.
    await overview.focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() =>
      /^1\.6\.1 to /.test(document.querySelector('[role="slider"]')?.getAttribute('aria-valuetext') ?? ''),
    );
    const scrolled = await page.evaluate(
      () => document.querySelector('[role="application"]')!.parentElement!.scrollLeft,
    );
    assert.ok(scrolled < 100, `the box scrolled back to its start (${scrolled} px)`);
    await h.shot(page, 'long-channel-show-all');
    // Reset view: the canvas fits its box again, at the first view.
    await page.getByRole('button', { name: 'Reset view' }).click();
    await page.waitForFunction(() => {
      const c = document.querySelector('[role="application"]')!;
      return c.clientWidth === c.parentElement!.clientWidth;
    });
    const back = await seen(page, [px('26.3.1')]);
    assert.ok(back.nodes[px('26.3.1')]!.inView && back.nodes[px('26.3.1')]!.px >= 10);
    await page.close();
  });

  /** How many edges Cytoscape holds: hidden kinds are not given to it at all. */
  const drawnEdges = async (page: Page) =>
    Number(await page.locator('[role="application"][data-ready="true"]').getAttribute('data-edges'));
  const legendCount = async (page: Page, kind: string) =>
    Number(
      /\((\d+)\)$/.exec(
        (await page
          .getByRole('list', { name: 'Legend' })
          .getByRole('button', { name: new RegExp(`^${kind} \\(`) })
          .textContent()) ?? '',
      )?.[1],
    );

  test('hundreds of skip edges start hidden, the page says how many; each legend kind shows or hides its edges', async () => {
    const page = await open('?channel=stable-v1', skipsBase);
    const [replaces, skips, skipRange] = [
      await legendCount(page, 'replaces'),
      await legendCount(page, 'skips'),
      await legendCount(page, 'skipRange'),
    ];
    assert.ok(skips + skipRange > 50, `${skips} skips and ${skipRange} skipRange edges`);
    const note = page.getByText(/ edges? hidden\b/);
    assert.equal(
      await note.textContent(),
      `${skips && skipRange ? `${skips + skipRange} edges hidden (${skips} skips, ${skipRange} skipRange)` : `${skips || skipRange} ${skips ? 'skips' : 'skipRange'} edges hidden`} to keep a channel with more than 50 skip edges readable. Each kind in the legend below shows or hides its edges.`,
    );
    const legend = page.getByRole('list', { name: 'Legend' });
    const skipsButton = legend.getByRole('button', { name: /^skips \(/ });
    assert.equal(await skipsButton.getAttribute('aria-pressed'), 'false');
    assert.equal(await legend.getByRole('button', { name: /^replaces \(/ }).getAttribute('aria-pressed'), 'true');
    assert.equal(await drawnEdges(page), replaces, 'only the replaces edges are drawn');
    await h.shot(page, 'skip-edges-hidden');

    await skipsButton.click();
    await page.waitForFunction(
      (n) => document.querySelector('[role="application"]')?.getAttribute('data-edges') === String(n),
      replaces + skips,
    );
    assert.equal(await skipsButton.getAttribute('aria-pressed'), 'true');
    assert.match(
      new URL(page.url()).searchParams.get('edges') ?? '',
      /^replaces,skips/,
      'the choice is kept in the URL',
    );
    await legend.getByRole('button', { name: /^replaces \(/ }).click();
    await page.waitForFunction(
      (n) => document.querySelector('[role="application"]')?.getAttribute('data-edges') === String(n),
      skips,
    );

    await page.getByRole('button', { name: 'Show every edge' }).click();
    await page.waitForFunction(
      (n) => document.querySelector('[role="application"]')?.getAttribute('data-edges') === String(n),
      replaces + skips + skipRange,
    );
    assert.equal(await note.count(), 0, 'nothing hidden, nothing to say');
    // The choice survives a reload: every edge again, from the URL.
    await page.reload();
    await page.locator('[role="application"][data-ready="true"]').waitFor();
    assert.equal(await drawnEdges(page), replaces + skips + skipRange);
    await page.close();
  });

  test('a long channel from an older version: the text names it, the first view starts there, readable', async () => {
    const near = await open(`?channel=stable&from=${px('26.1.0')}`, longBase);
    await near.getByText(/^Channel stable: 48 versions, head 26\.3\.1; path from 26\.1\.0\.$/).waitFor();
    const both = await seen(near, [px('26.1.0'), px('26.3.1')]);
    assert.ok(
      both.nodes[px('26.1.0')]!.inView && both.nodes[px('26.3.1')]!.inView,
      'the start and the head in one view',
    );
    assert.ok(both.nodes[px('26.1.0')]!.px >= 10 && both.nodes[px('26.3.1')]!.px >= 10);
    await near.close();
    // 20 InstallPlans back: not with the head at a readable zoom, so the view starts at it.
    const far = await open(`?channel=stable&from=${px('24.2.0')}`, longBase);
    const view = await seen(far, [px('24.2.0'), px('24.2.1')]);
    assert.ok(view.nodes[px('24.2.0')]!.inView && view.nodes[px('24.2.0')]!.px >= 10, JSON.stringify(view));
    assert.ok(view.nodes[px('24.2.1')]!.inView && view.nodes[px('24.2.1')]!.px >= 10, JSON.stringify(view));
    await far.close();
  });
});
