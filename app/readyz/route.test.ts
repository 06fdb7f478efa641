// The operational endpoints against the sandbox, with catalogs the shared index cannot read (issue
// 28, #3): /readyz stays 200 and names nothing, /metrics counts them without names, and the Catalogs
// page tells the problem to those who may see the CatalogSource.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino, { type Logger } from 'pino';
import type { CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '@/lib/olm/resources/catalog-source';
import { metricsText } from '@/lib/observability/metrics';
import { ensureNamespace, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /readyz and /metrics with catalogs the index cannot read', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let readyz: () => Promise<Response>;
  let hub: Handler;
  let catalogSources: Handler;
  /** The demo catalog's registry, which the catalogs below name as theirs. */
  let registry = '';
  // The console's log, kept here: what /readyz leaves out is logged instead.
  const logged: Record<string, unknown>[] = [];
  const g = globalThis as { olmConsoleLogger?: Logger };
  const previousLogger = g.olmConsoleLogger;

  before(async () => {
    g.olmConsoleLogger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          logged.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    ({ GET: readyz } = await import('./route'));
    ({ GET: hub } = await import('@/app/api/catalog/packages/route'));
    ({ GET: catalogSources } = await import('@/app/api/catalogsources/route'));
    const demo = await sb.admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'olm-console-demo', 'olm');
    registry = demo.status?.connectionState?.address ?? '';
    assert.match(registry, /^127\.0\.0\.1:\d+$/);
  });
  after(() => {
    g.olmConsoleLogger = previousLogger;
  });

  /** A CatalogSource at an address, once the sandbox's OLM reports it READY. */
  const addressCatalog = async (namespace: string, name: string) => {
    await ensureNamespace(sb.admin, namespace);
    const spec = { sourceType: 'grpc', address: registry };
    await sb.admin.create(CATALOG_SOURCE_TYPE, { metadata: { name, namespace }, spec });
    await waitFor(`${namespace}/${name} READY`, async () => {
      const cs = await sb.admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, namespace);
      return cs.status?.connectionState?.lastObservedState === 'READY' ? true : undefined;
    });
  };
  /** Opens OperatorHub as the person: the shared index reads every catalog they may see. */
  const openHub = async (user: string, query = '') => {
    const { status } = await sb.call<unknown>(hub, `/api/catalog/packages${query}`, { user, bearer: true });
    assert.equal(status, 200);
  };
  const rowOf = async (user: string, namespace: string, name: string, query = '') => {
    const path = `/api/catalogsources${query}`;
    type Body = CatalogSourcesResponse & ErrorBody;
    const { status, body } = await sb.call<Body>(catalogSources, path, { user, bearer: true });
    assert.equal(status, 200);
    return body.catalogSources.find((c) => c.namespace === namespace && c.name === name);
  };
  const series = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(name));

  test("an admin's catalog in a namespace the console does not dial: /readyz is 200 and says only ok", async () => {
    await addressCatalog('secretns', 'hidden-registry');
    await openHub('admin');
    // The index did try, and failed: what the Catalogs page shows the admin.
    const row = await rowOf('admin', 'secretns', 'hidden-registry');
    assert.ok(row, 'the admin sees the CatalogSource');
    assert.match(row.problem ?? '', /does not dial addresses named by CatalogSources in namespace secretns/);
    assert.equal(row.readVia, 'packagemanifests', 'its packages as packageserver lists them, without edges');

    const res = await readyz();
    const body = await res.text();
    assert.equal(res.status, 200, body);
    assert.equal(body, 'ok\n');
  });

  test('/metrics counts the unreadable catalog without its namespace, name or address', async () => {
    const text = await metricsText();
    for (const name of ['secretns', 'hidden-registry', 'olm-console-demo', registry]) {
      assert.ok(!text.includes(name), `${name} is not in /metrics`);
    }
    assert.doesNotMatch(text, /catalog="/, 'no catalog label');
    assert.deepEqual(series(text, 'olm_console_catalog_index_catalogs{'), [
      'olm_console_catalog_index_catalogs{state="read"} 1',
      'olm_console_catalog_index_catalogs{state="stale"} 0',
      'olm_console_catalog_index_catalogs{state="unreadable"} 1',
    ]);
    assert.match(text, /^olm_console_catalog_index_reads_total\{outcome="ok"\} 1$/m, 'the demo catalog');
    assert.match(text, /^olm_console_catalog_index_reads_total\{outcome="failed"\} [1-9]\d*$/m);
    assert.match(text, /^olm_console_catalog_index_read_duration_seconds_count 1$/m);
    assert.match(text, /^olm_console_catalog_index_packages 13$/m, "the demo catalog's, the only ones served");
    assert.match(text, /^olm_console_catalog_index_read_bytes [1-9]\d*$/m);
  });

  test("a catalog in alice's team1 at a registry she runs: on her Catalogs page, not in readiness", async () => {
    // Made by an admin: the sandbox's alice may not create CatalogSources; she reads them.
    await addressCatalog('team1', 'alices-registry');
    await openHub('alice', '?namespace=team1');
    const row = await rowOf('alice', 'team1', 'alices-registry', '?namespace=team1');
    assert.match(row?.problem ?? '', /does not dial addresses named by CatalogSources in namespace team1/);
    const admins = await rowOf('alice', 'secretns', 'hidden-registry', '?namespace=team1');
    assert.equal(admins, undefined, "not the admin's catalog");
    // An admin may see it too, with the index's problem.
    assert.match((await rowOf('admin', 'team1', 'alices-registry'))?.problem ?? '', /does not dial addresses/);

    const res = await readyz();
    assert.deepEqual([res.status, await res.text()], [200, 'ok\n']);
    const text = await metricsText();
    assert.ok(!text.includes('team1') && !text.includes('alices-registry'));
    assert.match(text, /^olm_console_catalog_index_catalogs\{state="unreadable"\} 2$/m);
  });

  test('the cluster not answering: 503 naming no address, and the reason logged once per change', async () => {
    const dead = join(sb.sandbox.dir, 'kubeconfig-dead');
    const kubeconfig = readFileSync(sb.kubeconfigPath, 'utf8');
    writeFileSync(dead, kubeconfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:1'));
    const live = process.env.OLM_CONSOLE_KUBECONFIG;
    // The console's own identity is read from the kubeconfig at each probe.
    process.env.OLM_CONSOLE_KUBECONFIG = dead;
    try {
      for (let i = 0; i < 3; i++) {
        const res = await readyz();
        assert.deepEqual([res.status, await res.text()], [503, 'not ready: the cluster does not answer\n']);
      }
    } finally {
      process.env.OLM_CONSOLE_KUBECONFIG = live;
    }
    const down = logged.filter((l) => l.msg === 'readiness: the cluster does not answer');
    assert.equal(down.length, 1, 'three probes, one change');
    assert.match(String(down[0]!.err), /127\.0\.0\.1:1\b/, 'the log says where it asked');

    const res = await readyz();
    assert.deepEqual([res.status, await res.text()], [200, 'ok\n']);
    assert.equal(logged.filter((l) => l.msg === 'readiness: the cluster answers again').length, 1);
  });
});
