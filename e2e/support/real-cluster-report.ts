// When a browser test against the real cluster fails, what OLM was doing: every Subscription,
// InstallPlan and CSV with its phase and conditions, the last lines of OLM's two logs, a
// screenshot of each open page, and the cluster's whole logs folder kept under test-results/.
// Real OLM works on its own schedule (resync, rate-limited retries), so a timeout alone says
// nothing about whether the console or OLM stopped. The cluster's state is also returned, for the
// failure's own message: a CI record keeps only the end of a run's output, where the runner
// repeats each failure, and the report printed when the test failed may be cut off.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../../lib/k8s/client';
import { CSV_TYPE, type ClusterServiceVersion } from '../../lib/olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../lib/olm/resources/subscription';
import type { RealCluster } from './real-cluster';

const root = join(import.meta.dirname, '..', '..');

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
const conditions = (cs: Condition[] | undefined) =>
  (cs ?? []).map(
    (c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message.slice(0, 200)}` : ''}`,
  );

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch (err) {
    return `(${(err as Error).message})`;
  }
}

/**
 * Writes the report to stderr, keeps logs and screenshots in test-results/real-cluster-<test>-<time>/
 * and returns the cluster's state (objects, phases with their times, OLM's last log lines, cut short).
 */
export async function reportRealClusterFailure(
  test: string,
  cluster: RealCluster,
  kube: KubeClient,
  browser: Browser | undefined,
): Promise<string> {
  const dir = join(
    root,
    'test-results',
    `real-cluster-${test.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}-${Date.now()}`,
  );
  mkdirSync(dir, { recursive: true });
  const out: string[] = [`--- real cluster at the failure of "${test}" (kept in ${dir})`];
  try {
    for (const s of (await kube.listAll<Subscription>(SUBSCRIPTION_TYPE)).items) {
      out.push(
        `Subscription ${s.metadata?.namespace}/${s.metadata?.name}: state ${s.status?.state ?? '-'}, installed ${s.status?.installedCSV ?? '-'}, current ${s.status?.currentCSV ?? '-'}, plan ${s.status?.installPlanRef?.name ?? '-'}`,
      );
      for (const c of conditions(s.status?.conditions as Condition[] | undefined)) out.push(`  ${c}`);
    }
    for (const p of (await kube.listAll<InstallPlan>(INSTALL_PLAN_TYPE)).items) {
      out.push(
        `InstallPlan ${p.metadata?.namespace}/${p.metadata?.name}: ${p.status?.phase ?? '-'}, approved ${p.spec.approved}, ${p.spec.clusterServiceVersionNames.join(' ')}`,
      );
      for (const c of conditions(p.status?.conditions as Condition[] | undefined)) out.push(`  ${c}`);
    }
    for (const c of (await kube.listAll<ClusterServiceVersion>(CSV_TYPE)).items) {
      if (c.status?.reason === 'Copied') continue;
      out.push(
        `CSV ${c.metadata?.namespace}/${c.metadata?.name}: ${c.status?.phase ?? '-'} ${c.status?.reason ?? ''} ${c.status?.message?.slice(0, 200) ?? ''}`,
      );
      // OLM keeps each phase it passed through with its time: a long gap between two says which
      // step waited (a CSV left Pending after its requirements were met waits for OLM's retry).
      for (const h of c.status?.conditions ?? [])
        out.push(
          `  ${h.lastTransitionTime ?? '-'} ${h.phase ?? '-'} ${h.reason ?? ''} ${h.message?.slice(0, 120) ?? ''}`,
        );
      for (const r of c.status?.requirementStatus ?? [])
        if (r.status !== 'Present') out.push(`  requirement ${r.kind} ${r.name}: ${r.status} ${r.message ?? ''}`);
    }
  } catch (err) {
    out.push(`(the cluster could not be read: ${(err as Error).message})`);
  }
  const state = [...out];
  for (const name of ['catalog-operator', 'olm-operator']) {
    const last = tail(join(cluster.dir, 'logs', `${name}.log`), 25);
    out.push(`--- last lines of ${name}.log`, last);
    // Stack traces make OLM's lines long: the state keeps the start of the last twelve.
    const short = last
      .split('\n')
      .slice(-12)
      .map((l) => l.slice(0, 240));
    state.push(`--- last lines of ${name}.log, cut at 240 characters`, ...short);
  }
  try {
    cpSync(join(cluster.dir, 'logs'), join(dir, 'logs'), { recursive: true });
    let i = 0;
    for (const context of browser?.contexts() ?? []) {
      for (const page of context.pages())
        await page.screenshot({ path: join(dir, `page-${++i}.png`), fullPage: true }).catch(() => undefined);
    }
  } catch (err) {
    out.push(`(logs or screenshots not kept: ${(err as Error).message})`);
  }
  console.error(out.join('\n'));
  return state.join('\n');
}
