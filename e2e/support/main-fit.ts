// The checks of a page's own content, leaving out the shell's header (its navigation is the shell's
// to fit on a phone, and is checked with the shell): main does not scroll sideways and no element
// of it reaches past the viewport's right edge unless a scrolling box inside main clips it; and
// axe-core's WCAG A/AA rules pass on the document at 1440 px, on all but the site header at 390 px.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { axeViolations, DESKTOP, PHONE } from './a11y';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** The site header: the banner outside main. */
const SITE_HEADER = 'header:not(main header)';

// Evaluated as source text: tsx would wrap named inner functions in a helper the page lacks.
const MAIN_OVERFLOW = `(() => {
  const main = document.querySelector('main');
  if (!main) return ['no <main> element'];
  const out = [];
  const extra = main.scrollWidth - main.clientWidth;
  if (extra > 0) out.push('main scrolls sideways by ' + extra + 'px');
  const width = document.documentElement.clientWidth;
  for (const el of main.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 0.5) continue;
    let clipped = false;
    for (let a = el.parentElement; a && a !== main; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') clipped = true;
    }
    if (clipped) continue;
    const label = el.getAttribute('aria-label');
    out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (label ? '[aria-label="' + label + '"]' : '')
      + ' "' + (el.textContent || '').trim().slice(0, 40) + '" ends at ' + Math.round(r.right) + 'px');
    if (out.length >= 5) break;
  }
  return out;
})()`;

/** The elements of main that stick out past the viewport (at most a few), or [] when it fits. */
export function mainOverflow(page: Page): Promise<string[]> {
  return page.evaluate(MAIN_OVERFLOW) as Promise<string[]>;
}

interface Violation {
  id: string;
  impact?: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe's violations on everything but the site header, as a11y.ts words them: of the WCAG A/AA
 * rules, or of the `rules` named (a best practice such as heading-order).
 */
export async function axeViolationsBesideHeader(page: Page, rules?: string[]): Promise<string[]> {
  await page.evaluate(`(() => { if (!window.axe) { ${AXE_SOURCE}\n } })()`);
  const context = JSON.stringify({ exclude: [SITE_HEADER] });
  const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: TAGS };
  const options = JSON.stringify({ runOnly, resultTypes: ['violations'] });
  const run = `window.axe.run(${context}, ${options}).then((r) => r.violations)`;
  const violations = (await page.evaluate(run)) as Violation[];
  return violations.map((v) => {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => JSON.stringify(n.target))
      .join(', ');
    return `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes.length} element(s): ${where}`;
  });
}

async function settle(page: Page): Promise<void> {
  // A layout that changes with the width settles in a frame or two.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The page state checked at 1440 and 390 px: axe's WCAG A/AA violations at both (beside the site
 * header at 390), and at 390 px main's content sticking out. The viewport is put back. Returns the
 * problems, each naming the width.
 */
export async function pageProblems(page: Page): Promise<string[]> {
  const original = page.viewportSize() ?? DESKTOP;
  const problems: string[] = [];
  try {
    for (const [name, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      await settle(page);
      const violations = name === 'phone' ? await axeViolationsBesideHeader(page) : await axeViolations(page);
      for (const v of violations) problems.push(`${name} ${size.width}px: ${v}`);
      if (name === 'phone') for (const o of await mainOverflow(page)) problems.push(`phone ${size.width}px: ${o}`);
    }
  } finally {
    await page.setViewportSize(original);
    await settle(page);
  }
  return problems;
}
