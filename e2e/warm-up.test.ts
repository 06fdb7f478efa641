// A new replica's readiness (issue 45): the production server, on this checkout's build, against
// the sandbox. /readyz says ready only once the replica has made its own first requests (loading
// the routes a person's first visit needs), while /healthz answers from the start; the warm-up is
// logged with what each request took.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { startConsoleServer, type RunningServer } from '../lib/server/http/console-server';
import { ensureBuilt, freePort } from './support/console-server';

const root = join(import.meta.dirname, '..');
let sb: Awaited<ReturnType<typeof withSandbox>>;
let running: RunningServer | undefined;

/** A probe as a kubelet makes it: a connection of its own each time. */
function probe(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}
const logged: Record<string, unknown>[] = [];

before(async () => {
  ensureBuilt();
  sb = await withSandbox();
});
after(async () => {
  await running?.close(1_000);
  await sb?.close();
});

test('/readyz is 503 "warming up" until the warm-up is over, then ok; /healthz answers throughout', async () => {
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logged.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const port = await freePort();
  // The routes run in this process and read its environment, as they do in the server's.
  Object.assign(process.env, { OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath, OLM_CONSOLE_AUTH: 'token' });
  running = await startConsoleServer({ dir: root, port, host: '127.0.0.1', log });
  let settled = false;
  void running.warmedUp.then(() => (settled = true));
  const seen: string[] = [];
  // Probes as a kubelet makes them, from the moment the server listens until it says ready.
  for (;;) {
    assert.equal((await probe(`${running.url}/healthz`)).status, 200, 'alive while it warms up');
    const { status, body } = await probe(`${running.url}/readyz`);
    seen.push(`${status} ${body.trim()}`);
    if (status === 200) {
      assert.ok(settled, 'ready only after the warm-up');
      break;
    }
    assert.equal(settled && body === 'not ready: warming up\n', false, 'not warming up once it is over');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(seen[0], '503 not ready: warming up', `a fresh replica is not ready at first: ${seen.join(', ')}`);
  assert.equal(seen.at(-1), '200 ok');
  const done = logged.find((l) => l.msg === 'warmed up') as { steps?: string[] } | undefined;
  assert.ok(done, 'the warm-up is logged');
  assert.deepEqual(
    done.steps?.map((s) => s.split(' ').slice(0, 2).join(' ')),
    ['/operatorhub 200', '/api/catalog/packages 200', '/login 200'],
    "the page and the login page render without a session; the list runs on made-up packages for the server's own mark",
  );
  // Anyone else asking without a session is refused, a made-up mark included (the warm-up's is gone).
  for (const headers of [{}, { 'x-olm-console-warm-up': 'guess' }] as Record<string, string>[])
    assert.equal((await probe(`${running.url}/api/catalog/packages`, headers)).status, 401, JSON.stringify(headers));
  // What people and clients asked: the warm-up's own requests are not among them.
  const metrics = await probe(`${running.url}/metrics`);
  assert.doesNotMatch(metrics.body, /olm_console_http_requests_total\{route="\/(login|operatorhub)"/);
  assert.ok(!logged.some((l) => l.msg === 'request' && l.path === '/login'), 'nor in the request log');
});
