// A page checked at a desktop's width and then a phone's: a full-page screenshot of each kept in
// `shots` (the phone's with `-phone`), axe clean at both, and nothing wider than the phone. The
// page is left at the desktop's width.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { accessibilityProblems, DESKTOP, PHONE } from './a11y';

/** `label` prefixes axe's problems (the test file's screenshots folder, usually). */
export async function checkBothWidths(page: Page, shots: string, label: string, name: string): Promise<void> {
  for (const [size, suffix] of [
    [DESKTOP, ''],
    [PHONE, '-phone'],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(shots, `${name}${suffix}.png`), fullPage: true, animations: 'disabled' });
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `${label}/${name}${suffix}:\n${problems.join('\n')}`);
    if (size === PHONE) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wide <= 0, `${name} scrolls sideways by ${wide} px on a phone`);
    }
  }
  await page.setViewportSize(DESKTOP);
}
