// The set-up the rollout tests share, real fleet or sandbox: an OCM hub with two or more managed
// clusters, the hub admin's client, one cluster labelled canary=true as a person marks a canary
// on the hub, and the rollout choices each test starts from. Real: `npm run cluster -- --fleet 2`
// with the shared gatekeeper catalog (the hub, also managed as local-cluster, and cluster2, the
// canary); sandbox: lib/sandbox/fleet.ts (prod-east the hub, managed as local-cluster, and
// prod-west, the canary). Each starter is called in a `before` hook and its `stop` in `after`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { clusterProgramsMissing } from '../../../scripts/cluster-programs';
import { KubeClient } from '../../k8s/client';
import type { RolloutChoices } from '../../olm/rollout/choices';
import { startSandboxFleet, type SandboxFleet } from '../../sandbox/fleet';
import { sharedCatalog, sharedCatalogsMissing } from '../../testing/shared-catalogs';
import { startRealFleet, type RealFleet } from '../rollouts/real-fleet';
import { MANAGED_CLUSTER_TYPE } from '../rollouts/resources';
import { clientAs } from './cluster';

export const GATEKEEPER = 'gatekeeper-operator-product';
/** The shared catalog the real fleet serves on every cluster. */
export const gatekeeperCatalog = sharedCatalog('gatekeeper-operator-product-v4.20');

/** Why a real-fleet rollout test cannot run here (the cluster's programs or the catalog missing), or undefined. */
export const realFleetMissing = (): string | undefined =>
  clusterProgramsMissing() ??
  clusterProgramsMissing('ocm-paths') ??
  (existsSync(gatekeeperCatalog) ? undefined : sharedCatalogsMissing);

/** A client as the user of a kubeconfig file's current context. */
export function clientFromKubeconfig(path: string): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return new KubeClient(kc);
}

/** Labels a ManagedCluster canary=true on the hub, as `kubectl label managedcluster <name> canary=true`. */
export async function labelCanary(hub: KubeClient, cluster: string): Promise<void> {
  const c = await hub.get<{ metadata: { labels?: Record<string, string> } }>(MANAGED_CLUSTER_TYPE, cluster);
  await hub.replace(MANAGED_CLUSTER_TYPE, {
    ...c,
    metadata: { ...c.metadata, labels: { ...c.metadata.labels, canary: 'true' } },
  });
}

/** `kubectl --kubeconfig <file> …`, its exit code and output. */
export function kubectl(kubeconfig: string, args: string[]) {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface OcmFleet {
  real: RealFleet;
  /** The hub's admin. */
  hub: KubeClient;
  stop(): Promise<void>;
}

/**
 * The real fleet with the gatekeeper catalog (OLM v1 left out unless `olmV1`), cluster2 labelled
 * the canary.
 */
export async function startGatekeeperFleet(opts: { olmV1?: boolean } = {}): Promise<OcmFleet> {
  const real = await startRealFleet([...(opts.olmV1 ? [] : ['--no-olm-v1']), '--catalog', gatekeeperCatalog]);
  const hub = clientFromKubeconfig(real.hubKubeconfig);
  try {
    await labelCanary(hub, 'cluster2');
  } catch (err) {
    await real.stop();
    throw err;
  }
  return { real, hub, stop: () => real.stop() };
}

// What every test's rollout has unless it says otherwise: OLM v0, automatic approval, the hub's
// `rollouts` namespace, the `default` cluster set, the canary=true clusters first, waves of one.
const ROLLOUT = { hubNamespace: 'rollouts', olm: 'v0', approval: 'Automatic', waveSize: 1 } as const;
const WHERE = { placement: { clusterSets: ['default'] }, canary: { canary: 'true' } };

/** The gatekeeper rollout of the real fleet's tests: 3.18 from v3.18.0. */
export function gatekeeperChoices(over: Partial<RolloutChoices> = {}): RolloutChoices {
  const version = `${GATEKEEPER}.v3.18.0`;
  // scripts/cluster.ts names each --catalog's CatalogSource after its folder, in namespace olm.
  const catalog = { name: 'gatekeeper-operator-product-v4-20', namespace: 'olm' };
  const install = { package: GATEKEEPER, channel: '3.18', version, catalog, installNamespace: 'gatekeeper-system' };
  return { ...ROLLOUT, ...WHERE, name: 'gatekeeper', ...install, ...over };
}

export interface SandboxOcmFleet {
  fleet: SandboxFleet;
  /** The hub's (prod-east's) admin. */
  hub: KubeClient;
  stop(): Promise<void>;
}

/** A sandbox fleet of `count` clusters in a temporary folder, prod-west the canary unless `canary` is false. */
export async function startSandboxOcmFleet(opts: {
  count: number;
  seed?: boolean;
  deploymentDelayMs?: number;
  canary?: boolean;
}): Promise<SandboxOcmFleet> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-ocm-fleet-'));
  const fleet = await startSandboxFleet({
    count: opts.count,
    kubeconfigPath: join(dir, 'kubeconfig'),
    ...(opts.seed === false ? { seed: false } : {}),
    deploymentDelayMs: opts.deploymentDelayMs ?? 0,
  });
  const stop = async () => {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const hub = clientAs(fleet.clusters[0]!.sandbox, 'admin');
  try {
    if (opts.canary !== false) await labelCanary(hub, 'prod-west');
  } catch (err) {
    await stop();
    throw err;
  }
  return { fleet, hub, stop };
}

/** The demo catalog's flagpole on the sandbox fleet: its stable channel. */
export function flagpoleChoices(over: Partial<RolloutChoices> = {}): RolloutChoices {
  const catalog = { name: 'olm-console-demo', namespace: 'olm' };
  const install = { package: 'flagpole', channel: 'stable', catalog, installNamespace: 'flagpole-system' };
  return { ...ROLLOUT, ...WHERE, name: 'flagpole', ...install, ...over };
}

/**
 * A rollout OCM times out at its canary: routekit on a channel the catalog lacks, so the canary's
 * work is applied but never Available, with a two-second progressDeadline and no failure tolerated.
 */
export function stuckChoices(): RolloutChoices {
  return flagpoleChoices({
    name: 'stuck',
    package: 'routekit',
    channel: 'no-such-channel',
    installNamespace: 'routekit-stuck',
    progressDeadline: '2s',
  });
}

/** Polls `probe` every `every` ms until it gives something (not undefined or false); fails after `ms`. */
export async function eventually<T>(
  what: () => string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ms: number,
  every = 500,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.fail(`not within ${ms / 1000} s: ${what()}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
