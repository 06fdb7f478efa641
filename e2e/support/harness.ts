// The set-up every browser test repeats: a sandbox, the console against it (as the admin's
// kubeconfig, and in per-user-token mode), Debian's Chromium, an admin API client, and pages
// opened at a path. `useHarness` registers it on the surrounding describe's before/after.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { KubeClient } from '../../lib/k8s/client';
import type { SandboxOptions } from '../../lib/sandbox/server/sandbox';
import { withSandbox } from '../../lib/sandbox/testing/sandbox-fixture';
import { clientAs } from '../../lib/server/testing/cluster';
import { accessibilityProblems } from './a11y';
import { launchBrowser } from './browser';
import { startConsole, type RunningConsole } from './console-server';
import { loggedInPage } from './login';

export interface Harness {
  sb: Awaited<ReturnType<typeof withSandbox>>;
  kube: KubeClient;
  /** The console with the admin's kubeconfig. */
  admin: RunningConsole;
  /** The console in per-user-token mode (people log in with their own token). */
  perUser: RunningConsole;
  browser: Browser;
  /** A new tab at the tests' viewport, at no page yet: to listen to it from its first request. */
  newPage(): Promise<Page>;
  /** A new tab of the admin's console at `path`. */
  open(path: string): Promise<Page>;
  /** A new tab of the per-user console, logged in as a seed user (alice, bob), at `path`. */
  openAs(user: string, path: string): Promise<Page>;
  /**
   * A full-page screenshot in test-results/<suite>/<name>.png, to look at; the state must pass
   * axe and fit a phone (e2e/support/a11y.ts), or the test fails.
   */
  shot(page: Page, name: string): Promise<void>;
}

export interface HarnessOptions {
  sandbox?: SandboxOptions;
  /**
   * Catalogs a suite writes for itself (a fixture catalog, one package copied out of a real
   * catalog), which must be on disk before the sandbox starts: given a fresh temporary folder,
   * writes them in it and returns their folders. The sandbox serves them after
   * `sandbox.catalogs`; the temporary folder is removed after the suite.
   */
  writeCatalogs?: (tmp: string) => string[] | Promise<string[]>;
  /** Folder under test-results for screenshots. */
  suite: string;
  /** More environment for both consoles (a feature's settings). */
  consoleEnv?: Record<string, string>;
  /** Cluster state the tests start from, made with the admin client before the consoles start. */
  seed?: (kube: KubeClient, sb: Harness['sb']) => Promise<void>;
}

export function useHarness(opts: HarnessOptions): Harness {
  const h = {} as Harness;
  const shots = join(import.meta.dirname, '..', '..', 'test-results', opts.suite);
  let tmp: string | undefined;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    const sandbox: SandboxOptions = { deploymentDelayMs: 200, ...opts.sandbox };
    if (opts.writeCatalogs) {
      tmp = mkdtempSync(join(tmpdir(), `olm-e2e-${opts.suite}-`));
      sandbox.catalogs = [...(sandbox.catalogs ?? []), ...(await opts.writeCatalogs(tmp))];
    }
    h.sb = await withSandbox(sandbox);
    h.kube = clientAs(h.sb, 'admin');
    await opts.seed?.(h.kube, h.sb);
    h.admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: h.sb.kubeconfigPath, ...opts.consoleEnv });
    h.perUser = await startConsole({
      OLM_CONSOLE_KUBECONFIG: h.sb.kubeconfigPath,
      OLM_CONSOLE_AUTH: 'token',
      ...opts.consoleEnv,
    });
    h.browser = await launchBrowser();
    h.newPage = () => h.browser.newPage({ viewport: { width: 1360, height: 900 } });
    h.open = async (path) => {
      const page = await h.newPage();
      await page.goto(`${h.admin.url}${path}`);
      return page;
    };
    h.openAs = async (user, path) => {
      const token = h.sb.tokens[user];
      if (!token) throw new Error(`no seed user ${user}`);
      const page = await loggedInPage(h.browser, h.perUser.url, token);
      await page.goto(`${h.perUser.url}${path}`);
      return page;
    };
    h.shot = async (page, name) => {
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' });
      // Every state a suite looks at is checked as people on any screen meet it: axe-core's WCAG
      // A/AA rules at 1440 and 390 px, and nothing scrolling sideways on the phone.
      const problems = await accessibilityProblems(page);
      assert.deepEqual(problems, [], `${opts.suite}/${name}:\n${problems.join('\n')}`);
    };
  });
  after(async () => {
    await h.browser?.close();
    await h.admin?.stop();
    await h.perUser?.stop();
    try {
      await h.sb?.close();
    } finally {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    }
  });
  return h;
}
