// Two console replicas behind one address, as a Deployment with two replicas behind a Service
// runs them: a session made on one is honoured by the other, and when a replica stops (a
// rollout, a node drained) a live page's event stream moves to the other and misses no change.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs, ensureNamespace, subscribe } from '../lib/server/testing/cluster';
import { startBalancer, type Balancer } from './support/balancer';
import { launchBrowser } from './support/browser';
import { freePort, startConsole, type RunningConsole } from './support/console-server';
import { loggedInPage } from './support/login';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let kube: KubeClient;
let env: Record<string, string>;
let balancer: Balancer;
let browser: Browser;
const replicas: RunningConsole[] = [];

before(async () => {
  sb = await withSandbox({ deploymentDelayMs: 200 });
  kube = clientAs(sb, 'admin');
  await ensureNamespace(kube, 'team1');
  await ensureNamespace(kube, 'team2');
  const port = await freePort();
  env = {
    OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath,
    OLM_CONSOLE_AUTH: 'token',
    OLM_CONSOLE_SESSION_KEY: randomBytes(32).toString('hex'),
    OLM_CONSOLE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS: '3',
  };
  // The first stops in the first test, the second in the next: the balancer sends each request
  // to the first that still listens.
  replicas.push(await startConsole(env), await startConsole(env), await startConsole(env));
  balancer = await startBalancer(
    port,
    replicas.map((r) => r.url),
  );
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await balancer?.close();
  for (const r of replicas) await r.stop();
  await sb?.close();
});

/** Reads Server-Sent Events until `until` matches the text so far (or the stream ends). */
async function readEvents(res: Response, until: (text: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const reader = res.body!.getReader();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
      if (until(text)) {
        await reader.cancel();
        return text;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

const servedBy = (path: RegExp) => balancer.served.filter((s) => path.test(s)).map((s) => Number(s.split(' ')[0]));

test('a stream cut by a replica stopping resumes on the other from Last-Event-ID, with the change made in between', async () => {
  // bob may read every namespace.
  const login = await fetch(`${balancer.url}/api/session`, {
    method: 'POST',
    headers: { origin: balancer.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.bob }),
  });
  assert.equal(login.status, 200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const stream = await fetch(`${balancer.url}/api/events?w=subs:subscriptions:team2`, { headers: { cookie } });
  assert.equal(stream.status, 200);
  // Stop the replica once its snapshot is in; the stream ends with the retry hint.
  const ending = readEvents(stream, () => false);
  await new Promise((r) => setTimeout(r, 500));
  await replicas[0]!.stop();
  const before = await ending;
  assert.match(before, /event: snapshot\n/);
  assert.match(before, /retry: 1000\n\n$/);
  const lastId = [...before.matchAll(/^id: (\S+)$/gm)].pop()?.[1];
  assert.ok(lastId, 'the snapshot carried an id to resume from');

  // The change happens while no stream is open anywhere.
  await subscribe(kube, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'] });

  const resumed = await fetch(`${balancer.url}/api/events?w=subs:subscriptions:team2`, {
    headers: { cookie, 'last-event-id': lastId },
  });
  assert.equal(resumed.status, 200, 'the other replica honours the session made on the first');
  const after = await readEvents(resumed, (t) => /event: change\ndata: .*"type":"ADDED".*"name":"pgpilot"/.test(t));
  assert.match(
    after,
    /event: change\ndata: .*"type":"ADDED".*"name":"pgpilot"/,
    'the Subscription created in between arrives as a change',
  );
  assert.doesNotMatch(after, /event: snapshot/, 'resumed, not listed again');
  assert.deepEqual(servedBy(/GET \/api\/events/), [0, 1]);
});

test('a live page in the browser follows a rollout, past a 503 on the way: its stream moves to the other replica and the page shows what changed meanwhile', async () => {
  const page = await loggedInPage(browser, balancer.url, sb.tokens.alice!);
  await page.goto(`${balancer.url}/operators?namespace=team1`);
  await page.getByText('No operators are installed in team1').waitFor();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const liveOn = servedBy(/GET \/api\/events/);
  assert.equal(liveOn.at(-1), 1, "the page's stream is on the second replica (the first stopped before)");

  // The first reconnection meets what a load balancer answers for a replica going away: EventSource
  // gives up for good on an HTTP error, and the page must open a new stream by itself.
  let refusedOnce = false;
  await page.route('**/api/events**', (route) => {
    if (refusedOnce) return route.continue();
    refusedOnce = true;
    return route.fulfill({ status: 503, contentType: 'text/plain', body: 'no healthy upstream' });
  });
  await replicas[1]!.stop();
  await subscribe(kube, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
  await page
    .getByRole('table', { name: 'Installed operators' })
    .getByRole('row')
    .filter({ hasText: 'PgPilot' })
    .waitFor({ timeout: 20_000 });
  assert.equal(refusedOnce, true, 'a reconnection was refused with 503 on the way');
  assert.equal(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    true,
    'the same page, not a reload',
  );
  assert.equal(servedBy(/GET \/api\/events/).at(-1), 2, 'the stream reconnected to the third replica');
  await page.screenshot({ path: '/tmp/replicas-failover.png' });
  await page.close();
});
