// What every page state a browser test reaches must hold, at a desktop and a phone width:
// axe-core finds no WCAG 2.x A/AA violation, and nothing scrolls sideways. Pages carry a nonce
// CSP, so axe is evaluated through the DevTools protocol (Page.evaluate), never a script tag.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** WCAG 2.0–2.2, levels A and AA: what the console promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeViolation {
  id: string;
  impact?: string;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe's violations on the page as it is now, each with the first few elements it names. */
export async function axeViolations(page: Page): Promise<string[]> {
  // The page's <title> comes with the server's HTML, but CI once saw it gone for a moment after a
  // full load under heavy load (Next.js renders metadata apart from the page and may put it back
  // a beat later). The rule is about the page a person reads, so a title is given a few seconds to
  // be there; one that never comes still fails as document-title.
  await page.waitForFunction('document.title.trim() !== ""', undefined, { timeout: 5000 }).catch(() => undefined);
  // Evaluated as a function body so that the page's CSP does not apply (no script element).
  await page.evaluate(`(() => { if (!window.axe) { ${AXE_SOURCE}\n } })()`);
  const violations = (await page.evaluate(
    `window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, resultTypes: ['violations'] }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations.map((v) => {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => JSON.stringify(n.target))
      .join(', ');
    return `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes.length} element(s): ${where}${v.nodes.length > 3 ? ', …' : ''}`;
  });
}

/** How far the page scrolls sideways at its current width (0 when it fits). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Checks the page state at both widths and puts the viewport back: no axe violation at either,
 * no sideways scrolling on the phone. Returns the problems, each naming the width.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const original = page.viewportSize() ?? DESKTOP;
  const problems: string[] = [];
  try {
    for (const [name, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      // A layout that changes with the width settles in a frame or two.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      for (const v of await axeViolations(page)) problems.push(`${name} ${size.width}px: ${v}`);
      if (name === 'phone') {
        const over = await sidewaysOverflow(page);
        if (over > 0) problems.push(`phone ${size.width}px: the page scrolls sideways by ${over}px`);
      }
    }
  } finally {
    await page.setViewportSize(original);
  }
  return problems;
}
