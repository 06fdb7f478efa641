// The production build's API routes against a sandbox, as a browser would call them: this is
// where bundling problems (a module that cannot find its files) show, which handler-level tests
// cannot see.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { startConsole, type RunningConsole } from './support/console-server';

let sb: Awaited<ReturnType<typeof withSandbox>>;
let server: RunningConsole;

before(async () => {
  sb = await withSandbox();
  server = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
});

after(async () => {
  await server?.stop();
  await sb?.close();
});

test('the session route names the kubeconfig identity and hands out a CSRF token', async () => {
  const res = await fetch(`${server.url}/api/session`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { mode: string; username: string; csrfToken: string };
  assert.equal(body.mode, 'kubeconfig');
  assert.equal(body.username, 'admin');
  assert.ok(body.csrfToken.length > 20);
  assert.match(res.headers.get('set-cookie') ?? '', /HttpOnly; SameSite=Strict/);
});

test('the catalog route reads the demo catalog through its registry', async () => {
  const res = await fetch(`${server.url}/api/catalog/packages?q=postgres`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    catalogs: { name: string; kind?: string; source?: string }[];
    packages: { name: string }[];
  };
  // The CatalogSource read through its registry, and OLM v1's ClusterCatalog of the same name
  // through catalogd's content server.
  assert.deepEqual(
    body.catalogs.map((c) => [c.kind ?? 'CatalogSource', c.name, c.source]),
    [
      ['CatalogSource', 'olm-console-demo', 'registry'],
      ['ClusterCatalog', 'olm-console-demo', 'catalogd'],
    ],
  );
  assert.equal(body.packages[0]?.name, 'pgpilot');
});

test('permissions come from the cluster', async () => {
  const res = await fetch(`${server.url}/api/me/permissions?namespace=team1`);
  const body = (await res.json()) as { permissions: { action: string; allowed: boolean }[] };
  assert.ok(
    body.permissions.every((p) => p.allowed),
    'the admin may do everything',
  );
});
