// Issue 19 item 15: installs through the console's install route (POST /api/install, run in
// this process as in the route tests) against the sandbox, in its own process as `npm run
// sandbox` runs it, while its fault injection (POST /sandbox/faults) fails a share of API calls. For each fault mix, N installs (OwnNamespace, each into a new namespace:
// Namespace, OperatorGroup, Subscription) with retries off (as before lib/k8s/retry.ts) and
// with the default policy: installs succeeded / attempted, median and slowest duration, API
// calls and retries per install; then, with the faults off, every namespace is checked: a
// success left exactly one OperatorGroup and one Subscription, a failure nothing (rolled back).
// `INSTALLS=N` (default 20) per mix and setting.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { fmt, median } from './support/measure';
import { KubeClient } from '../lib/k8s/client';
import { kubeRequest } from '../lib/k8s/http';
import { DEFAULT_RETRY_POLICY, setRetryPolicy } from '../lib/k8s/retry';
import { clusterRequests, clusterRetries } from '../lib/observability/metrics';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../lib/olm/resources/subscription';
import { NAMESPACE_TYPE } from '../lib/server/install';
import { consoleRequest } from '../lib/server/testing/console-request';

const INSTALLS = Number(process.env.INSTALLS ?? 20);

const MIXES: { label: string; errors: Record<string, unknown> }[] = [
  { label: 'no faults', errors: { share: 0, code: 500 } },
  { label: '10% 429', errors: { share: 0.1, code: 429 } },
  { label: '10% 429, Retry-After: 1', errors: { share: 0.1, code: 429, retryAfterSeconds: 1 } },
  { label: '30% 500', errors: { share: 0.3, code: 500 } },
  { label: '30% 503', errors: { share: 0.3, code: 503 } },
  { label: '30% 500 after the write was made', errors: { share: 0.3, code: 500, after: true } },
  { label: '10% connection resets', errors: { share: 0.1, code: 'reset' } },
  { label: '10% resets after the write was made', errors: { share: 0.1, code: 'reset', after: true } },
];

async function counterTotal(c: typeof clusterRequests): Promise<number> {
  return (await c.get()).values.reduce((sum, v) => sum + v.value, 0);
}

function startSandboxProcess(dir: string): Promise<ChildProcess> {
  const main = join(import.meta.dirname, '..', 'lib', 'sandbox', 'main.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), '--deployment-delay', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/listening on https:\/\/127\.0\.0\.1:\d+/.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-bench-faults-'));
  const child = await startSandboxProcess(dir);
  try {
    const kubeconfigPath = join(dir, 'kubeconfig');
    const tokens = JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, string>;
    process.env.OLM_CONSOLE_KUBECONFIG = kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    const { POST } = await import('../app/api/install/route');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    const admin = new KubeClient(kc);
    const faults = (body: unknown) => kubeRequest(kc, { method: 'POST', path: '/sandbox/faults', body, retry: 'none' });
    let n = 0;
    const install = async () => {
      const i = n++;
      const [pkg, channel] = i % 2 ? ['pgpilot', 'stable'] : ['cachely', 'alpha'];
      const namespace = `faults-${i}`;
      const body = {
        catalog: { namespace: 'olm', name: 'olm-console-demo' },
        package: pkg,
        channel,
        namespace,
        installMode: 'OwnNamespace',
        approval: 'Automatic',
      };
      const t0 = performance.now();
      const res = await POST(consoleRequest('/api/install', { method: 'POST', token: tokens.admin!, body }));
      const answer = (await res.json()) as { error?: { message: string } };
      return { namespace, pkg, ok: res.status === 201, ms: performance.now() - t0, error: answer.error?.message };
    };
    // Warm-up (the catalog index reads the registry once), not measured.
    if (!(await install()).ok) throw new Error('the warm-up install failed with no faults');

    const rows: string[] = [];
    for (const mix of MIXES) {
      for (const retries of [false, true]) {
        setRetryPolicy(retries ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 });
        await faults({ errors: mix.errors });
        const calls0 = await counterTotal(clusterRequests);
        const retries0 = await counterTotal(clusterRetries);
        const results = [];
        for (let i = 0; i < INSTALLS; i++) results.push(await install());
        const calls = (await counterTotal(clusterRequests)) - calls0;
        const resent = (await counterTotal(clusterRetries)) - retries0;
        await faults({ errors: { share: 0, code: 500 } });
        setRetryPolicy(DEFAULT_RETRY_POLICY);
        // What each install left: one OperatorGroup and one Subscription, or nothing at all.
        let wrong = 0;
        for (const r of results) {
          const groups = (await admin.list(OPERATOR_GROUP_TYPE, { namespace: r.namespace })).items.length;
          const subs = (await admin.list(SUBSCRIPTION_TYPE, { namespace: r.namespace })).items.length;
          const ns = await admin
            .get<{ metadata?: { deletionTimestamp?: string } }>(NAMESPACE_TYPE, r.namespace)
            .catch(() => undefined);
          const fine = r.ok
            ? groups === 1 && subs === 1 && !ns?.metadata?.deletionTimestamp
            : groups === 0 && subs === 0 && (!ns || !!ns.metadata?.deletionTimestamp);
          if (!fine) {
            wrong++;
            console.log(
              `  ${r.namespace}: ${r.ok ? 'succeeded' : 'failed'} but left ${groups} OperatorGroup(s), ${subs} Subscription(s), namespace ${ns ? (ns.metadata?.deletionTimestamp ? 'terminating' : 'there') : 'gone'}`,
            );
          }
        }
        // Each row starts from the same cluster: its namespaces go (OLM's objects in them too).
        for (const r of results) await admin.delete(NAMESPACE_TYPE, r.namespace).catch(() => undefined);
        const ok = results.filter((r) => r.ok);
        const times = results.map((r) => r.ms);
        const firstError = results.find((r) => !r.ok)?.error;
        const row = `| ${mix.label} | ${retries ? 'on' : 'off'} | ${ok.length} / ${results.length} | ${fmt(median(times), 0)} ms | ${fmt(Math.max(...times), 0)} ms | ${fmt(calls / results.length)} | ${fmt(resent / results.length)} | ${wrong} |`;
        rows.push(row);
        console.log(row);
        if (firstError) console.log(`    e.g. ${firstError.slice(0, 240)}`);
      }
    }
    console.log(
      `\nInstalls through POST /api/install, ${INSTALLS} per row (OwnNamespace into a new namespace: Namespace, OperatorGroup, Subscription)`,
    );
    console.log(
      '| faults | retries | installs succeeded | median | slowest | API calls per install | retries per install | left inconsistent |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
