// The real-fleet Rollouts pages' set-up: `npm run cluster -- --fleet 2` with the shared gatekeeper
// catalog (lib/server/testing/ocm-fleet.ts: cluster2 the canary), a rollout written through
// lib/server/rollouts as the hub's admin and waited for until `ready` holds for every cluster's
// row (so the browser looks at a settled rollout), then the console over the hub's kubeconfig
// and Debian's Chromium. Call it in a `before` hook and `stop` in `after`.
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../../lib/k8s/client';
import type { RolloutChoices } from '../../lib/olm/rollout/choices';
import type { ClusterRow } from '../../lib/olm/rollout/status';
import { readRollout } from '../../lib/server/rollouts/read';
import { writeRollout } from '../../lib/server/rollouts/write';
import { eventually, startGatekeeperFleet, type OcmFleet } from '../../lib/server/testing/ocm-fleet';
import { launchBrowser } from './browser';
import { startConsole, type RunningConsole } from './console-server';

export interface RolloutPages {
  /** The hub's admin. */
  hub: KubeClient;
  console: RunningConsole;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startRolloutPages(
  choices: RolloutChoices,
  ready: { what: string; each: (row: ClusterRow) => boolean },
): Promise<RolloutPages> {
  let fleet: OcmFleet | undefined;
  let console: RunningConsole | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await console?.stop();
    await fleet?.stop();
  };
  try {
    fleet = await startGatekeeperFleet();
    const { hub } = fleet;
    await writeRollout(hub, choices);
    await eventually(
      () => ready.what,
      async () => {
        const d = await readRollout(hub, 'rollouts', choices.name);
        const rows = d.view.waves.flatMap((w) => w.clusters);
        return rows.length === 2 && rows.every(ready.each) ? true : undefined;
      },
      420_000,
      1000,
    );
    console = await startConsole({ OLM_CONSOLE_KUBECONFIG: fleet.real.hubKubeconfig });
    browser = await launchBrowser();
    return { hub, console, browser, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
