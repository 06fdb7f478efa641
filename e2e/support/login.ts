import type { Browser, Page } from 'playwright-core';

/** A new tab logged in to a per-user-token console with `token`, as a person does it. */
export async function loggedInPage(browser: Browser, consoleUrl: string, token: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.goto(`${consoleUrl}/login`);
  await page.getByLabel('Your Kubernetes bearer token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/operatorhub$/);
  return page;
}
