// Issue 4's figures: the time from a Subscription being created to its CSV Succeeded in the
// sandbox (deployments report available at once here, so this is OLM's own path: resolution,
// InstallPlan, steps, CSV phases), and how resolution time grows with catalog size (the real
// certified catalog, then generated 5x and 20x copies).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedCatalogs } from './support/catalog-files';
import { fmt, median, time } from './support/measure';
import { generateScaledCatalog } from './support/scaled-catalog';
import { loadCatalog } from '../lib/olm/fbc/load-catalog';
import type { CatalogEntry } from '../lib/sandbox/olm/catalog-sources';
import { resolveSubscription } from '../lib/sandbox/olm/resolver';
import { startSandbox } from '../lib/sandbox/server/sandbox';

async function installTimes(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-bench-install-'));
  const sb = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 0 });
  try {
    const subs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'subscriptions')!;
    const csvs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'clusterserviceversions')!;
    const nsRes = sb.api.resources.find('', 'v1', 'namespaces')!;
    const ogs = sb.api.resources.find('operators.coreos.com', 'v1', 'operatorgroups')!;
    // Operators that support OwnNamespace, each into its own namespace.
    const packages = [
      'pgpilot',
      'cachely',
      'routekit',
      'gatewise',
      'flagpole',
      'backstop',
      'metricsmith',
      'tenant-core',
    ];
    const times: number[] = [];
    for (const [i, pkg] of packages.entries()) {
      const ns = `bench-${i}`;
      sb.api.createObject(nsRes, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      sb.api.createObject(ogs, {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: 'og', namespace: ns },
        spec: { targetNamespaces: [ns] },
      });
      const channel = sb.olm.catalogs.entries.get('olm/olm-console-demo')!.catalog!.packages.get(pkg)!.defaultChannel!;
      const t0 = performance.now();
      sb.api.createObject(subs, {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: pkg, namespace: ns },
        spec: { name: pkg, source: 'olm-console-demo', sourceNamespace: 'olm', channel },
      });
      for (;;) {
        const sub = sb.api.storeGet(subs, ns, pkg);
        const current = (sub?.status as { currentCSV?: string } | undefined)?.currentCSV;
        const phase = current
          ? (sb.api.storeGet(csvs, ns, current)?.status as { phase?: string } | undefined)?.phase
          : undefined;
        if (phase === 'Succeeded') break;
        if (performance.now() - t0 > 30_000) throw new Error(`${pkg} did not reach Succeeded in 30 s`);
        await new Promise((r) => setTimeout(r, 1));
      }
      times.push(performance.now() - t0);
    }
    console.log(
      `Subscription created → CSV Succeeded (demo catalog, ${packages.length} operators, deployments available at once)`,
    );
    console.log(`  median ${fmt(median(times))} ms, slowest ${fmt(Math.max(...times))} ms`);
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function resolutionTimes(label: string, dir: string): void {
  const catalog = loadCatalog(dir);
  const entry = {
    key: 'olm/c',
    namespace: 'olm',
    name: 'c',
    catalog,
    manifests: new Map(),
    healthy: true,
  } as CatalogEntry;
  const pkgs = [...catalog.packages.values()];
  const fresh = time(() => {
    for (const p of pkgs)
      resolveSubscription('s', { name: p.name, source: 'c', sourceNamespace: 'olm' }, [entry], undefined);
  });
  const upgrade = time(() => {
    for (const p of pkgs) {
      const ch = p.channels.get(p.defaultChannel!)!;
      const oldest = ch.entries[0]!;
      resolveSubscription('s', { name: p.name, source: 'c', sourceNamespace: 'olm', channel: ch.name }, [entry], {
        name: oldest.name,
        version: p.bundles.get(oldest.name)?.version,
      });
    }
  });
  console.log(
    `  ${label.padEnd(28)} ${String(pkgs.length).padStart(5)} packages: fresh install ${fmt((fresh.ms * 1000) / pkgs.length, 0)} µs, upgrade ${fmt((upgrade.ms * 1000) / pkgs.length, 0)} µs per Subscription`,
  );
}

async function main(): Promise<void> {
  await installTimes();
  console.log('Resolution time per Subscription by catalog size');
  const src = join(sharedCatalogs, 'certified-operators-v4.18');
  resolutionTimes('certified-operators-v4.18', src);
  for (const times of [5, 20]) {
    const scaled = generateScaledCatalog(src, times);
    try {
      resolutionTimes(`generated ${times}x`, scaled.dir);
    } finally {
      rmSync(scaled.dir, { recursive: true, force: true });
    }
  }
}

void main();
