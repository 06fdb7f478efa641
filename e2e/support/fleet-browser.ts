// What the fleet's browser tests start before their first test: three sandbox clusters in this
// process (lib/sandbox/fleet.ts, as `npm start -- --clusters 3` runs them) in a temporary folder,
// Debian's Chromium, and consoles over the fleet's kubeconfig, each stopped with the rest. Call
// `startFleetBrowser` in a `before` hook and `stop` in `after`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startSandboxFleet, type SandboxFleet } from '../../lib/sandbox/fleet';
import { launchBrowser } from './browser';
import { startConsole, type RunningConsole } from './console-server';

export interface FleetBrowser {
  /** The temporary folder, for files beside the fleet's kubeconfig. */
  dir: string;
  fleet: SandboxFleet;
  browser: Browser;
  /** A console (its production server) with `env` beside the defaults, stopped with the fleet. */
  startConsole(env: Record<string, string>): Promise<RunningConsole>;
  stop(): Promise<void>;
}

/**
 * The environment of a console people sign in to with a token; `shared`: the seed users' one token
 * is sent to every cluster.
 */
export const tokenSignIn = (kubeconfig: string, shared: boolean): Record<string, string> => ({
  OLM_CONSOLE_KUBECONFIG: kubeconfig,
  OLM_CONSOLE_AUTH: 'token',
  ...(shared ? { OLM_CONSOLE_FLEET_SHARED_TOKENS: 'true' } : {}),
});

/** `name` marks the temporary folder (`olm-e2e-<name>-…`). */
export async function startFleetBrowser(name: string): Promise<FleetBrowser> {
  const dir = mkdtempSync(join(tmpdir(), `olm-e2e-${name}-`));
  const consoles: RunningConsole[] = [];
  let fleet: SandboxFleet | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    for (const c of consoles) await c.stop();
    await fleet?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    fleet = await startSandboxFleet({ count: 3, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 200 });
    browser = await launchBrowser();
  } catch (err) {
    await stop();
    throw err;
  }
  const started = { fleet, browser };
  return {
    dir,
    ...started,
    async startConsole(env) {
      const c = await startConsole(env);
      consoles.push(c);
      return c;
    },
    stop,
  };
}
