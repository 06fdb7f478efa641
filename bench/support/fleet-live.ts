// What a live Approvals across clusters page costs (issue 43: "stays live without a watch per cluster
// per page"), for fleet.bench.ts. In the bench's process (its routes beside the sandbox clusters):
// one person's page opens the approvals event stream; measured are the time until every cluster
// is followed, the clusters and watches held, and the heap they take (after a full GC: the
// resident size of a process also holding 50 clusters moves more with its GC than with them); then a
// second page of the same person (the watches it adds: none), and a plan approved elsewhere, from
// the cluster's write to the page's event and to its re-read of that one row. In the browser
// (a console process of its own): the page open, someone approving a plan on one cluster straight
// through its API, and the time until the row leaves the page.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { FleetApprovalsResponse } from '../../lib/api/fleet';
import type { KubeClient } from '../../lib/k8s/client';
import { INSTALL_PLAN_TYPE } from '../../lib/olm/resources/install-plan';
import { consoleRequest } from '../../lib/server/testing/console-request';
import { sseReader } from '../../lib/server/testing/sse-reader';
import { loggedInPage } from '../../e2e/support/login';
import { fmt, heapUsedMb } from './measure';

type Handler = (req: Request) => Promise<Response>;

/** A plan waiting on some cluster, as the person's approvals answer lists it. */
async function someWaitingPlan(list: Handler, token: string) {
  const res = await list(consoleRequest('/api/fleet/approvals', { token }));
  const body = (await res.json()) as FleetApprovalsResponse;
  for (const c of body.clusters) {
    if (!c.ok) continue;
    const plan = c.value.approvals[0];
    if (plan) return { cluster: c.name, namespace: plan.namespace, name: plan.name };
  }
  throw new Error('no cluster of the bench fleet has a plan waiting');
}

export async function liveApprovalsInProcess(
  clusters: number,
  token: string,
  admin: (cluster: string) => KubeClient,
): Promise<string> {
  const events = (await import('../../app/api/fleet/approvals/events/route')).GET as Handler;
  const list = (await import('../../app/api/fleet/approvals/route')).GET as Handler;
  const { approvalWatches } = await import('../../lib/server/fleet/approval-watches');
  const watches = approvalWatches();
  const lines: string[] = [];
  const heap0 = heapUsedMb();
  const pages = [new AbortController(), new AbortController()];
  const open = async (ctl: AbortController) => {
    const res = await events(
      new Request(consoleRequest('/api/fleet/approvals/events', { token }), { signal: ctl.signal }),
    );
    assert.equal(res.status, 200);
    return sseReader(res);
  };
  try {
    const t0 = performance.now();
    const first = await open(pages[0]!);
    const states = new Map<string, string>();
    while (states.size < clusters) {
      const e = await first.next((x) => x.event === 'watch', 60_000);
      const d = e.data as { cluster: string; state: string };
      if (d.state !== 'retrying') states.set(d.cluster, d.state);
    }
    const ready = performance.now() - t0;
    const watching = [...states.values()].filter((s) => s === 'watching').length;
    const heap1 = heapUsedMb();
    lines.push(
      `live approvals, one page: ${watching} of ${clusters} clusters followed in ${fmt(ready)} ms; ` +
        `${watches.count()} clusters, ${watches.running()} watches held; heap +${fmt(heap1 - heap0)} MB`,
    );
    const second = await open(pages[1]!);
    for (let seen = 0; seen < clusters; seen++) await second.next((x) => x.event === 'watch', 60_000);
    lines.push(
      `live approvals, a second page of the same person: ${watches.count()} clusters, ` +
        `${watches.running()} watches held; heap +${fmt(heapUsedMb() - heap1)} MB more`,
    );
    // Someone approves a plan on one cluster, straight through its API.
    const plan = await someWaitingPlan(list, token);
    const t1 = performance.now();
    await admin(plan.cluster).patch(INSTALL_PLAN_TYPE, plan.name, { spec: { approved: true } }, plan);
    await first.next((x) => x.event === 'change' && (x.data as { cluster?: string }).cluster === plan.cluster, 30_000);
    const told = performance.now() - t1;
    const res = await list(consoleRequest(`/api/fleet/approvals?cluster=${plan.cluster}`, { token }));
    const row = ((await res.json()) as FleetApprovalsResponse).clusters[0]!;
    assert.ok(row.ok && !row.value.approvals.some((a) => a.name === plan.name), 'the approved plan left the row');
    lines.push(
      `live approvals, a plan approved elsewhere: the page told in ${fmt(told)} ms, ` +
        `its cluster's row read again by ${fmt(performance.now() - t1)} ms`,
    );
  } finally {
    for (const p of pages) p.abort();
  }
  return lines.join('\n');
}

/** In the browser: from a plan approved straight on its cluster to its row leaving the live page. */
export async function liveApprovalsInBrowser(
  browser: Browser,
  url: string,
  token: string,
  admin: (cluster: string) => KubeClient,
  list: Handler,
): Promise<string> {
  const tab = await loggedInPage(browser, url, token);
  try {
    const t0 = performance.now();
    await tab.goto(`${url}/fleet/approvals`);
    await tab.getByText('Live: a change on any cluster shows here as it happens.').waitFor({ timeout: 120_000 });
    const live = performance.now() - t0;
    const plan = await someWaitingPlan(list, token);
    const item = tab
      .getByRole('region', { name: new RegExp(`^${plan.cluster}( ?home)?$`) })
      .getByRole('listitem')
      .filter({ hasText: `InstallPlan ${plan.namespace}/${plan.name}` });
    await item.waitFor({ timeout: 60_000 });
    const t1 = performance.now();
    await admin(plan.cluster).patch(INSTALL_PLAN_TYPE, plan.name, { spec: { approved: true } }, plan);
    await item.waitFor({ state: 'detached', timeout: 60_000 });
    return (
      `browser /fleet/approvals live: every cluster followed ${fmt(live)} ms after navigation; ` +
      `a plan approved elsewhere left the page ${fmt(performance.now() - t1)} ms after the write`
    );
  } finally {
    await tab.close();
  }
}
