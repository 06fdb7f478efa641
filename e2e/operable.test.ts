// The console as a cluster team runs it, against the production server: probes, Prometheus
// metrics, JSON logs without secrets, and a graceful stop that hands event streams on (issue 16).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../lib/olm/resources/catalog-source';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs, ensureNamespace, waitFor } from '../lib/server/testing/cluster';
import { startConsole, type RunningConsole } from './support/console-server';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let server: RunningConsole;

before(async () => {
  sb = await withSandbox();
  server = await startConsole({
    OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath,
    OLM_CONSOLE_AUTH: 'token',
    OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS: '5',
  });
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
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type'] ?? '') }),
      );
    });
    r.on('error', reject);
    r.end();
  });
}

test('a normal start logs JSON lines only, none above info (no error-level noise a collector would page on)', () => {
  const lines = server
    .output()
    .split('\n')
    .filter((l) => l.trim());
  assert.ok(lines.length > 0, 'the start is logged');
  for (const l of lines) {
    const entry = JSON.parse(l) as { level: number; msg: string };
    assert.ok(entry.level <= 30, `above info at start: ${l}`);
  }
});

test("probes answer for any Host (kubelet names the pod's address): /healthz, /readyz saying only ok", async () => {
  assert.equal((await get('/healthz', '10.1.2.3:3000')).status, 200);
  const ready = await get('/readyz', '10.1.2.3:3000');
  assert.equal(ready.status, 200, ready.body);
  assert.equal(ready.body, 'ok\n');
  assert.equal((await get('/operators', '10.1.2.3:3000')).status, 421, 'pages still need a configured name');
});

test('/readyz is 503 when the cluster does not answer, naming no address; the reason is logged once', async () => {
  const dead = join(sb.dir, 'kubeconfig-dead');
  writeFileSync(
    dead,
    readFileSync(sb.kubeconfigPath, 'utf8').replace(
      /server: https:\/\/127\.0\.0\.1:\d+/,
      'server: https://127.0.0.1:1',
    ),
  );
  const other = await startConsole({ OLM_CONSOLE_KUBECONFIG: dead, OLM_CONSOLE_WARM_INDEX: 'false' });
  try {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${other.url}/readyz`);
      assert.deepEqual([res.status, await res.text()], [503, 'not ready: the cluster does not answer\n']);
    }
    await new Promise((r) => setTimeout(r, 300));
    const logged = other
      .output()
      .split('\n')
      .filter((l) => l.includes('readiness: the cluster does not answer'));
    assert.equal(logged.length, 1, 'three probes, one change');
    assert.match(logged[0]!, /127\.0\.0\.1:1\b/, 'the log says where it asked');
  } finally {
    await other.stop();
  }
});

test('/metrics in Prometheus text: requests by route, cluster calls by verb and code, event streams, catalogs unnamed', async () => {
  const login = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.alice }),
  });
  assert.equal(login.status, 200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  await fetch(`${server.url}/api/operators/team1/nope`, { headers: { cookie } });
  const stream = await fetch(`${server.url}/api/events?w=a:namespaces`, { headers: { cookie } });
  // A catalog in a namespace the console does not dial (it names the demo catalog's registry):
  // the index cannot read it, which neither /readyz nor /metrics may name.
  const admin = clientAs(sb, 'admin');
  const demo = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'olm-console-demo', 'olm');
  const registry = demo.status?.connectionState?.address ?? '';
  await ensureNamespace(admin, 'secretns');
  await admin.create(CATALOG_SOURCE_TYPE, {
    metadata: { name: 'hidden-registry', namespace: 'secretns' },
    spec: { sourceType: 'grpc', address: registry },
  });
  await waitFor('secretns/hidden-registry READY', async () => {
    const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'hidden-registry', 'secretns');
    return cs.status?.connectionState?.lastObservedState === 'READY' ? true : undefined;
  });
  // bob, who may see every catalog, opens OperatorHub: the shared index reads them.
  const bob = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.bob }),
  });
  const bobCookie = (bob.headers.get('set-cookie') ?? '').split(';')[0]!;
  assert.equal((await fetch(`${server.url}/api/catalog/packages`, { headers: { cookie: bobCookie } })).status, 200);
  const m = await get('/metrics');
  assert.equal(m.status, 200);
  assert.match(m.type, /^text\/plain/);
  assert.match(
    m.body,
    /^olm_console_http_requests_total\{route="\/api\/session",method="POST",status="200"\} 2$/m,
    'alice and bob',
  );
  assert.match(
    m.body,
    /^olm_console_http_requests_total\{route="\/api\/operators\/\[namespace\]\/\[name\]",method="GET",status="404"\} 1$/m,
    'named by route, not by object',
  );
  assert.match(
    m.body,
    /^olm_console_http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/session",method="POST",status="200"\} \d+$/m,
  );
  assert.match(
    m.body,
    /^olm_console_cluster_requests_total\{verb="create",code="201"\} \d+$/m,
    "the login's SelfSubjectReview",
  );
  assert.match(m.body, /^olm_console_cluster_request_errors_total\{verb="get",code="404"\} \d+$/m);
  assert.match(m.body, /^olm_console_event_streams_open 1$/m);
  // The index bob's OperatorHub read, counted: which catalogs is for the Catalogs page.
  assert.match(m.body, /^olm_console_catalog_index_catalogs\{state="read"\} 1$/m);
  assert.match(m.body, /^olm_console_catalog_index_catalogs\{state="unreadable"\} 1$/m);
  assert.match(m.body, /^olm_console_catalog_index_packages [1-9]\d*$/m);
  for (const name of ['olm-console-demo', 'secretns', 'hidden-registry', registry, 'catalog="'])
    assert.ok(!m.body.includes(name), `${name} is not in /metrics`);
  const ready = await get('/readyz');
  assert.deepEqual(
    [ready.status, ready.body],
    [200, 'ok\n'],
    "a catalog the index cannot read is not this replica's problem",
  );
  await stream.body?.cancel();
});

test('logs are one JSON object per line, with request id, route, status and user, never a token or a cookie', async () => {
  const login = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.bob }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const res = await fetch(`${server.url}/api/me/permissions?namespace=team1`, { headers: { cookie } });
  const requestId = res.headers.get('x-request-id');
  assert.ok(requestId);
  await new Promise((r) => setTimeout(r, 300));
  const lines = server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'));
  const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = entries.find((e) => e.requestId === requestId);
  assert.ok(line, 'the request is logged under the id the response carries');
  assert.deepEqual(
    [line.route, line.status, line.user, typeof line.durationMs, typeof line.time, line.level],
    ['/api/me/permissions', 200, 'bob', 'number', 'number', 30],
  );
  const all = server.output();
  for (const secret of [sb.tokens.bob!, sb.tokens.alice!, cookie.split('=').slice(1).join('=')])
    assert.ok(!all.includes(secret), 'no credential in the logs');
});

/** A GET with these headers, answered as raw bytes (no decompression on the way). */
function getBytes(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const r = request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    r.on('error', reject);
    r.end();
  });
}

test('answers and event streams are gzipped for a client that accepts it, each event as it is sent', async () => {
  const login = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.bob }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const zipped = await getBytes('/api/catalog/packages', { cookie, 'accept-encoding': 'gzip' });
  assert.equal(zipped.status, 200);
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  const list = JSON.parse(gunzipSync(zipped.body).toString()) as { packages: unknown[] };
  assert.ok(list.packages.length > 0);
  const plain = await getBytes('/api/catalog/packages', { cookie });
  assert.equal(plain.headers['content-encoding'], undefined, 'not compressed for a client that does not ask');
  assert.ok(
    plain.body.length > 3 * zipped.body.length,
    `${plain.body.length} bytes plain, ${zipped.body.length} gzipped`,
  );

  // The first event (the snapshot) must come through the gzip stream without waiting for more.
  const first = await new Promise<string>((resolve, reject) => {
    const r = request(
      `${server.url}/api/events?w=a:namespaces`,
      { headers: { cookie, 'accept-encoding': 'gzip' } },
      (res) => {
        if (res.headers['content-encoding'] !== 'gzip')
          reject(new Error(`stream not gzipped: ${String(res.headers['content-encoding'])}`));
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no event within 10 s; got ${JSON.stringify(text)}`)), 10_000);
        res.pipe(createGunzip()).on('data', (d: Buffer) => {
          text += d.toString();
          if (/event: snapshot\n/.test(text)) {
            clearTimeout(timer);
            r.destroy();
            resolve(text);
          }
        });
      },
    );
    r.on('error', (err) => (err.message.includes('aborted') ? undefined : reject(err)));
    r.end();
  });
  assert.match(first, /event: snapshot/);
});

test('SIGTERM: event streams end with a retry hint, and the process exits within the grace period', async () => {
  const login = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token: sb.tokens.alice }),
  });
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
