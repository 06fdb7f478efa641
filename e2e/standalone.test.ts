// The runtime folder the container image copies (`.next/standalone`, completed by
// scripts/build-runtime.ts) serves the console on its own: copied out of the checkout and started
// with plain `node`, with no TypeScript loader and no node_modules but its own.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { ensureBuilt, freePort, warmedUp } from './support/console-server';

const root = join(import.meta.dirname, '..');
let sb: Awaited<ReturnType<typeof withSandbox>>;
let dir: string;

before(async () => {
  ensureBuilt();
  sb = await withSandbox();
  dir = mkdtempSync(join(tmpdir(), 'olm-console-runtime-'));
  cpSync(join(root, '.next', 'standalone'), join(dir, 'app'), { recursive: true, verbatimSymlinks: true });
});

after(async () => {
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Runtime {
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** `node server.mjs …` from the copied folder, with an environment that knows nothing of the checkout. */
async function startRuntime(args: string[], env: Record<string, string> = {}): Promise<Runtime> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(dir, 'app', 'server.mjs'), '--port', String(port), ...args],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the runtime exited (${child.exitCode}):\n${output}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the runtime did not answer within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await warmedUp(url, child, deadline + 180_000, () => output);
  return {
    url,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

test('the runtime folder holds the build and what it needs, no sources and no build tools', () => {
  const app = join(dir, 'app');
  for (const f of [
    'server.mjs',
    '.next/BUILD_ID',
    '.next/static',
    'proto/registry.proto',
    'node_modules/next',
    'node_modules/pino-pretty',
  ])
    assert.ok(existsSync(join(app, f)), `${f} is there`);
  for (const f of [
    'server.js',
    'node_modules/tsx',
    'node_modules/typescript',
    'node_modules/esbuild',
    'lib',
    'app',
    'next.config.js',
  ])
    assert.ok(!existsSync(join(app, f)), `${f} is not`);
});

test('started elsewhere with node only, it serves pages, assets, the API and the catalog from the cluster it is given', async () => {
  const rt = await startRuntime(['--kubeconfig', sb.kubeconfigPath]);
  try {
    const ready = await fetch(`${rt.url}/readyz`);
    assert.equal(ready.status, 200, await ready.clone().text());
    const page = await fetch(`${rt.url}/operatorhub`);
    assert.equal(page.status, 200);
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      /script-src 'self' 'nonce-[^']+'/,
      "the console's server is in front, not Next.js's own",
    );
    const html = await page.text();
    const asset = /\/_next\/static\/[^"]+\.js/.exec(html)?.[0];
    assert.ok(asset, 'the page loads its scripts');
    const js = await fetch(`${rt.url}${asset}`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    // Through the registry's gRPC API (proto files from the folder) to the sandbox's catalogs.
    const hub = await fetch(`${rt.url}/api/catalog/packages`);
    assert.equal(hub.status, 200);
    const body = (await hub.json()) as { packages: { name: string }[] };
    assert.ok(
      body.packages.some((p) => p.name === 'pgpilot'),
      "the demo catalog's packages are listed",
    );
    const metrics = await (await fetch(`${rt.url}/metrics`)).text();
    assert.match(
      metrics,
      /^olm_console_http_requests_total\{route="\/api\/catalog\/packages",method="GET",status="200"\} 1$/m,
    );
    const line = rt
      .output()
      .split('\n')
      .find((l) => l.includes('"route":"/api/catalog/packages"'));
    assert.ok(line, 'requests are logged');
    assert.equal((JSON.parse(line) as { status: number }).status, 200);
    const plain = rt
      .output()
      .split('\n')
      .filter((l) => l && !/^\{.*\}$/.test(l));
    assert.deepEqual(plain, [], "every line a log collector reads is JSON (Next.js's own lines too)");
  } finally {
    assert.equal(await rt.stop(), 0, 'SIGTERM stops it cleanly');
  }
});

test('the same cluster settings from the environment, as a Deployment gives them; LOG_FORMAT=pretty works from the folder too', async () => {
  const rt = await startRuntime([], {
    OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath,
    OLM_CONSOLE_AUTH: 'token',
    LOG_FORMAT: 'pretty',
  });
  try {
    const me = await fetch(`${rt.url}/api/operators`);
    assert.equal(me.status, 401, 'per-user tokens: nobody is logged in');
    await new Promise((r) => setTimeout(r, 300));
    assert.match(rt.output(), /INFO.*console listening on/, "pino-pretty's format");
  } finally {
    await rt.stop();
  }
});

test('flags that need a checkout or name no cluster are refused with the reason', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [join(dir, 'app', 'server.mjs'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
      encoding: 'utf8',
    });
  const sandbox = run(['--sandbox']);
  assert.equal(sandbox.status, 2);
  assert.match(sandbox.stderr, /the sandbox cluster runs from a checkout/);
  const none = run([]);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no cluster given: use --kubeconfig PATH, --in-cluster/);
  const both = run(['--in-cluster', '--kubeconfig', '/x']);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /--in-cluster reads the cluster from the pod's service account/);
});
