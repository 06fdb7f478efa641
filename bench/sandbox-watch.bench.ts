// Issue 3's load: 200 concurrent watch streams and 500 objects/s of writes on this machine,
// without losing an event: every watcher must see every change, in resourceVersion order. The
// sandbox runs in its own process, as `npm run sandbox` runs it; watchers and writers are real
// HTTPS clients in this one.
import { Agent, request } from 'node:https';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt } from './support/measure';

interface Running {
  url: string;
  caPem: string;
  child: ChildProcess;
  resourceVersion(): Promise<string>;
}

function startSandboxProcess(dir: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'lib', 'sandbox', 'main.ts'),
      '--port',
      '0',
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        const caPem = readFileSync(join(dir, 'serving.crt'), 'utf8');
        const url = m[1]!;
        resolve({ url, caPem, child, resourceVersion: () => listRv(url, caPem) });
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
}

function listRv(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/v1/namespaces/default/configmaps?limit=1`,
      { ca, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        let t = '';
        res.on('data', (c: Buffer) => (t += c.toString()));
        res.on('end', () =>
          resolve((JSON.parse(t) as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const WATCHERS = Number(process.env.WATCHERS ?? 200);
const RATE = 500;
const SECONDS = Number(process.env.SECONDS_ ?? 6);

const dir = mkdtempSync(join(tmpdir(), 'olm-bench-watch-'));
let sb: Running;
let token: string;
// One TLS context and a pool of kept-alive connections for the writes, as a real client has.
let writeAgent: Agent;

interface Seen {
  rvs: number[];
  outOfOrder: number;
}

function openWatch(rv: string, seen: Seen): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${sb.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`,
      { ca: sb.caPem, headers: { Authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        let buf = '';
        // Closing the stream at the end resets the connection; that is expected.
        res.on('error', () => {});
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line) continue;
            const ev = JSON.parse(line) as { object: { metadata: { resourceVersion: string } } };
            const v = Number(ev.object.metadata.resourceVersion);
            if (seen.rvs.length && v <= seen.rvs[seen.rvs.length - 1]!) seen.outOfOrder++;
            seen.rvs.push(v);
          }
        });
        resolve(() => req.destroy());
      },
    );
    req.on('error', (e) => {
      if (!(e as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(e);
    });
    req.end();
  });
}

/** The status code, or 0 when the request failed without an answer. */
function post(name: string): Promise<number> {
  return new Promise((resolve) => {
    const body = Buffer.from(JSON.stringify({ metadata: { name }, data: { n: name } }));
    const req = request(
      `${sb.url}/api/v1/namespaces/default/configmaps`,
      {
        method: 'POST',
        agent: writeAgent,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function main(): Promise<void> {
  sb = await startSandboxProcess(dir);
  token = (JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, string>).admin!;
  writeAgent = new Agent({ ca: sb.caPem, keepAlive: true, maxSockets: 32 });
  try {
    const startRv = await sb.resourceVersion();
    const seen: Seen[] = Array.from({ length: WATCHERS }, () => ({ rvs: [], outOfOrder: 0 }));
    const closers = await Promise.all(seen.map((s) => openWatch(startRv, s)));
    const total = RATE * SECONDS;
    const t0 = performance.now();
    const pending: Promise<number>[] = [];
    let lag = 0;
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else lag = Math.max(lag, -wait);
      pending.push(post(`w-${i}`));
    }
    const codes = await Promise.all(pending);
    const writeSeconds = (performance.now() - t0) / 1000;
    const deadline = Date.now() + 20_000;
    while (seen.some((s) => s.rvs.length < total) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const deliveredAll = performance.now();
    closers.forEach((c) => c());

    const ok = codes.filter((c) => c === 201).length;
    const complete = seen.filter((s) => s.rvs.length === total).length;
    const disorder = seen.reduce((n, s) => n + s.outOfOrder, 0);
    console.log(`${WATCHERS} watch streams, ${total} creates at a target of ${RATE}/s`);
    console.log(
      `  writes accepted       ${ok}/${total} in ${fmt(writeSeconds, 2)} s (${fmt(ok / writeSeconds, 0)} writes/s; worst scheduling lag ${fmt(lag, 0)} ms)`,
    );
    console.log(
      `  watchers complete     ${complete}/${WATCHERS} saw all ${total} events; out-of-order events: ${disorder}`,
    );
    console.log(`  events delivered      ${WATCHERS * total} in ${fmt((deliveredAll - t0) / 1000, 2)} s`);
    console.log(
      `  verdict               ${complete === WATCHERS && disorder === 0 && ok === total ? 'OK: no event lost, all in order' : 'EVENTS LOST OR OUT OF ORDER'}`,
    );
  } finally {
    writeAgent.destroy();
    sb.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
