// The console as a cluster team runs it, against the production server: probes, Prometheus
// metrics, JSON logs without secrets, and a graceful stop that hands event streams on (issue 16).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { startConsole, type RunningConsole } from './support/console-server';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let server: RunningConsole;

before(async () => {
  sb = await withSandbox();
  server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath, OLM_CONSOLE_AUTH: 'token', OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS: '5' });
});

after(async () => {
  await server?.stop();
  await sb?.close();
});

function get(path: string, host?: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const r = request(`${server.url}${path}`, { headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type'] ?? '') }));
    });
    r.on('error', reject);
    r.end();
  });
}

test('probes answer for any Host (kubelet names the pod\'s address): /healthz, /readyz with what it checked', async () => {
  assert.equal((await get('/healthz', '10.1.2.3:3000')).status, 200);
  const ready = await get('/readyz', '10.1.2.3:3000');
  assert.equal(ready.status, 200, ready.body);
  assert.match(ready.body, /^ok/);
  assert.equal((await get('/operators', '10.1.2.3:3000')).status, 421, 'pages still need a configured name');
});

test('/readyz is 503 with the reason when the cluster does not answer', async () => {
  const dead = join(sb.dir, 'kubeconfig-dead');
  writeFileSync(dead, readFileSync(sb.kubeconfigPath, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:1'));
  const other = await startConsole({ OLM_CONSOLE_KUBECONFIG: dead, OLM_CONSOLE_WARM_INDEX: 'false' });
  try {
    const res = await fetch(`${other.url}/readyz`);
    assert.equal(res.status, 503);
    assert.match(await res.text(), /not ready:\n- the cluster does not answer: .*127\.0\.0\.1:1/);
  } finally {
    await other.stop();
  }
});

test('/metrics in Prometheus text: requests by route, cluster calls by verb and code, open event streams', async () => {
  const login = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ token: sb.tokens.alice }) });
  assert.equal(login.status, 200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  await fetch(`${server.url}/api/operators/team1/nope`, { headers: { cookie } });
  const stream = await fetch(`${server.url}/api/events?w=a:namespaces`, { headers: { cookie } });
  const m = await get('/metrics');
  assert.equal(m.status, 200);
  assert.match(m.type, /^text\/plain/);
  assert.match(m.body, /^olm_console_http_requests_total\{route="\/api\/session",method="POST",status="200"\} 1$/m);
  assert.match(m.body, /^olm_console_http_requests_total\{route="\/api\/operators\/\[namespace\]\/\[name\]",method="GET",status="404"\} 1$/m, 'named by route, not by object');
  assert.match(m.body, /^olm_console_http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/session",method="POST",status="200"\} \d+$/m);
  assert.match(m.body, /^olm_console_cluster_requests_total\{verb="create",code="201"\} \d+$/m, 'the login\'s SelfSubjectReview');
  assert.match(m.body, /^olm_console_cluster_request_errors_total\{verb="get",code="404"\} \d+$/m);
  assert.match(m.body, /^olm_console_event_streams_open 1$/m);
  await stream.body?.cancel();
});

test('logs are one JSON object per line, with request id, route, status and user, never a token or a cookie', async () => {
  const login = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ token: sb.tokens.bob }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const res = await fetch(`${server.url}/api/me/permissions?namespace=team1`, { headers: { cookie } });
  const requestId = res.headers.get('x-request-id');
  assert.ok(requestId);
  await new Promise((r) => setTimeout(r, 300));
  const lines = server.output().split('\n').filter((l) => l.startsWith('{'));
  const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = entries.find((e) => e.requestId === requestId);
  assert.ok(line, 'the request is logged under the id the response carries');
  assert.deepEqual([line.route, line.status, line.user, typeof line.durationMs, typeof line.time, line.level], ['/api/me/permissions', 200, 'bob', 'number', 'number', 30]);
  const all = server.output();
  for (const secret of [sb.tokens.bob!, sb.tokens.alice!, cookie.split('=').slice(1).join('=')]) assert.ok(!all.includes(secret), 'no credential in the logs');
});

test('SIGTERM: event streams end with a retry hint, and the process exits within the grace period', async () => {
  const login = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ token: sb.tokens.alice }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const stream = await fetch(`${server.url}/api/events?w=a:namespaces`, { headers: { cookie } });
  const reader = stream.body!.getReader();
  let text = '';
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  await server.stop();
  await ended;
  assert.match(text, /retry: 1000\n\n$/, 'the stream ends with a retry hint');
  assert.equal(await server.exited, 0);
  assert.ok(Date.now() - t0 < 10_000, 'exits within the grace period');
});
