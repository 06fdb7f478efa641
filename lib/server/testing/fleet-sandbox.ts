// A sandbox fleet for a test file (lib/sandbox/fleet.ts: several seeded clusters in this process),
// with the console's environment pointed at its kubeconfig of several contexts in per-user-token
// mode before the file imports its routes, and requests as the fleet's seed users (who have the
// same token on every cluster). Call it first in a `describe`, as routeSandbox. `hubOnly` leaves
// clusters out of the console's kubeconfig: the console knows them only as the hub (the first
// cluster) lists them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import yaml from 'js-yaml';
import type { KubeClient } from '../../k8s/client';
import { startSandboxFleet, type SandboxFleet } from '../../sandbox/fleet';
import { clientAs } from './cluster';
import { consoleRequest } from './console-request';

export interface FleetSandbox {
  readonly fleet: SandboxFleet;
  /** The seed admin's client on the named cluster. */
  admin(cluster: string): KubeClient;
  request(path: string, opts?: { user?: string; method?: string; body?: unknown; csrf?: string | null }): Request;
  call<T>(
    handler: (req: Request) => Promise<Response>,
    path: string,
    opts?: { user?: string; method?: string; body?: unknown; csrf?: string | null },
  ): Promise<{ status: number; body: T }>;
}

/**
 * A copy of the fleet's kubeconfig without the clusters `left` names (their cluster entries and
 * contexts): a console reading it learns of them only from the hub.
 */
export function kubeconfigWithout(fleet: SandboxFleet, left: readonly string[], file: string): string {
  type Doc = { clusters: { name: string }[]; contexts: { name: string }[] };
  const doc = yaml.load(readFileSync(fleet.kubeconfigPath, 'utf8')) as Doc;
  const kept = (n: { name: string }) => !left.includes(n.name);
  writeFileSync(file, yaml.dump({ ...doc, clusters: doc.clusters.filter(kept), contexts: doc.contexts.filter(kept) }), {
    mode: 0o600,
  });
  return file;
}

export function fleetSandbox(count = 3, opts: { hubOnly?: string[] } = {}): FleetSandbox {
  let fleet: SandboxFleet | undefined;
  let dir: string | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'olm-fleet-test-'));
    fleet = await startSandboxFleet({ count, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 0 });
    process.env.OLM_CONSOLE_KUBECONFIG = opts.hubOnly?.length
      ? kubeconfigWithout(fleet, opts.hubOnly, join(dir, 'console-kubeconfig'))
      : fleet.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    // The fleet's seed users have one token on every cluster, as `npm start -- --clusters` says.
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
  });
  after(async () => {
    await fleet?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = () => {
    if (!fleet) throw new Error('the fleet sandbox is not started: use it in a test or a before hook');
    return fleet;
  };
  const request: FleetSandbox['request'] = (path, { user = 'admin', ...opts } = {}) =>
    consoleRequest(path, { token: started().tokens[user]!, ...opts });
  return {
    get fleet() {
      return started();
    },
    admin(cluster) {
      const c = started().clusters.find((x) => x.name === cluster);
      if (!c) throw new Error(`the fleet has no cluster ${cluster}`);
      return clientAs(c.sandbox, 'admin');
    },
    request,
    async call<T>(handler: (req: Request) => Promise<Response>, path: string, opts = {}) {
      const res = await handler(request(path, opts));
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}
