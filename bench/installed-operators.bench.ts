// Issue 5's installed-operators budget: one AllNamespaces operator copied into 2,000 namespaces,
// the cluster-wide Installed Operators answer under 100 ms and under 50 KB. The route handler
// runs in this process against a sandbox (its own HTTPS server), as the console would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fmt, median } from './support/measure';
import { startSandbox } from '../lib/sandbox/server/sandbox';

const NAMESPACES = 2000;

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-bench-installed-'));
  const sb = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 0 });
  try {
    const nsRes = sb.api.resources.find('', 'v1', 'namespaces')!;
    const subs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'subscriptions')!;
    const csvs = sb.api.resources.find('operators.coreos.com', 'v1alpha1', 'clusterserviceversions')!;
    for (let i = 0; i < NAMESPACES; i++)
      sb.api.createObject(nsRes, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `tenant-${i}` } });
    sb.api.createObject(subs, {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 'certwarden', namespace: 'operators' },
      spec: { name: 'certwarden', source: 'olm-console-demo', sourceNamespace: 'olm', channel: 'stable' },
    });
    const t0 = Date.now();
    for (;;) {
      const copies = sb.api.storeList(csvs).filter((c) => c.metadata.labels?.['olm.copiedFrom'] === 'operators').length;
      if (copies >= NAMESPACES) break;
      if (Date.now() - t0 > 120_000) throw new Error(`only ${copies} copies after 120 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const totalCsvs = sb.api.storeList(csvs).length;
    console.log(
      `setup: ${NAMESPACES} namespaces, certwarden in AllNamespaces mode, ${totalCsvs} CSVs in the cluster (copies included), ${fmt((Date.now() - t0) / 1000)} s to copy`,
    );

    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    const { GET } = await import('../app/api/operators/route');
    const call = async (query: string) => {
      const t = performance.now();
      const res = await GET(
        new Request(`http://console.local/api/operators${query}`, {
          headers: { authorization: `Bearer ${sb.tokens.admin!}` },
        }),
      );
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`GET /api/operators${query}: ${res.status} ${body.toString()}`);
      return { ms: performance.now() - t, body };
    };
    for (const [label, query] of [
      ['all namespaces', ''],
      ['one namespace (a copy)', '?namespace=tenant-7'],
    ] as const) {
      await call(query);
      const times: number[] = [];
      let body = Buffer.alloc(0);
      for (let i = 0; i < 30; i++) {
        const r = await call(query);
        times.push(r.ms);
        body = r.body;
      }
      const rows = (JSON.parse(body.toString()) as { operators: { copies: { count: number } }[] }).operators;
      const gz = gzipSync(body).length;
      const m = median(times);
      console.log(`GET /api/operators ${label}: ${rows.length} row(s), copies counted ${rows[0]?.copies.count ?? 0}`);
      console.log(
        `  time median ${fmt(m)} ms, p95 ${fmt(p95(times))} ms (budget 100 ms${m > 100 ? ', OVER BUDGET' : ''})`,
      );
      console.log(
        `  size ${fmt(body.length / 1024)} KB, gzipped ${fmt(gz / 1024)} KB (budget 50 KB${body.length > 50 * 1024 ? ', OVER BUDGET' : ''})`,
      );
    }
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
