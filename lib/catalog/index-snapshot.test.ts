// Catalog snapshots across a restart, against the sandbox: a new index (a restarted console)
// serves the same tiles from the snapshot without reading the registry, only to people who may
// see the catalog, never for content the CatalogSource no longer reports, and never from a file
// that fails its checks.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { writeFixtureCatalog } from '../sandbox/testing/fbc-fixture';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { CatalogIndex } from './catalog-index';

const DEMO = 'olm/olm-console-demo';

describe('catalog snapshots', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const clientFor = (user: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs[user]!);
    return new KubeClient(kc);
  };
  before(async () => {
    sb = await withSandbox();
  });
  after(() => sb.close());

  /** The snapshot files in `dir`, once the first has been written. */
  async function written(dir: string, count = 1): Promise<string[]> {
    for (let i = 0; i < 200; i++) {
      const files = readdirSync(dir).filter((f) => f.endsWith('.catalog.gz'));
      if (files.length >= count) return files.map((f) => join(dir, f));
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no snapshot written');
  }

  /** A console that read the demo catalog, and the snapshot it left in a new folder. */
  async function firstRun(): Promise<{ dir: string; file: string; names: string[]; contentKey?: string }> {
    const dir = mkdtempSync(join(sb.dir, 'snap-'));
    const first = await new CatalogIndex(Date.now, { snapshotDir: dir }).forUser(clientFor('admin'), ['olm']);
    const [file] = await written(dir);
    return { dir, file: file!, names: first.packages.map((p) => p.name).sort(), contentKey: first.contentKey };
  }

  test('after a restart the snapshot serves the same tiles at once, without reading the registry', async () => {
    const run = await firstRun();
    const restarted = new CatalogIndex(Date.now, { snapshotDir: run.dir });
    const r = await restarted.forUser(clientFor('admin'), ['olm']);
    assert.equal(restarted.reading(DEMO), false, 'no registry read started');
    assert.equal(r.contentKey, run.contentKey, 'the same read, by when it was made');
    assert.deepEqual(
      r.catalogs.map((c) => [c.name, c.source, c.problem]),
      [['olm-console-demo', 'registry', undefined]],
    );
    assert.deepEqual(r.packages.map((p) => p.name).sort(), run.names);
    // The graph came back too: a package's channel with its edges, for details and plans.
    const pg = restarted.catalogOf('olm', 'olm-console-demo')?.packages.get('pgpilot');
    assert.ok(pg && pg.channels.size > 0 && pg.bundles.size > 1);
  });

  test('the snapshot is shown only to people who may see the catalog, as before', async () => {
    const run = await firstRun();
    const restarted = new CatalogIndex(Date.now, { snapshotDir: run.dir });
    // alice may not list PackageManifests in default: nothing, snapshot or not.
    const none = await restarted.forUser(clientFor('alice'), ['default']);
    assert.deepEqual([none.catalogs, none.packages], [[], []]);
    // alice sees the global catalog only through packageserver: a snapshot nobody has matched
    // against its CatalogSource yet is not what she is served.
    const viaManifests = await restarted.forUser(clientFor('alice'), ['team1', 'olm']);
    assert.deepEqual(
      viaManifests.catalogs.map((c) => [c.name, c.source]),
      [['olm-console-demo', 'packagemanifests']],
    );
  });

  test('a snapshot of content the CatalogSource no longer reports is not served', async () => {
    const admin = clientFor('admin');
    const annotation = 'sandbox.olm-console.dev/catalog-dir';
    const dirA = writeFixtureCatalog(mkdtempSync(join(sb.dir, 'snap-a-')), [
      { name: 'alpha', bundles: [{ version: '1.0.0' }] },
    ]);
    const dirB = writeFixtureCatalog(mkdtempSync(join(sb.dir, 'snap-b-')), [
      { name: 'beta', bundles: [{ version: '0.1.0' }] },
    ]);
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: 'moving', namespace: 'olm', annotations: { [annotation]: dirA } },
      spec: { sourceType: 'grpc', displayName: 'Moving' },
    });
    const ready = async (since?: string) => {
      for (let i = 0; i < 200; i++) {
        const st = (await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'moving', 'olm')).status?.connectionState;
        if (st?.lastObservedState === 'READY' && st.lastConnect && st.lastConnect !== since) return st.lastConnect;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('catalog moving not ready');
    };
    const names = async (index: CatalogIndex) =>
      (await index.forUser(admin, ['olm'])).packages.filter((p) => p.catalog.name === 'moving').map((p) => p.name);
    try {
      const connected = await ready();
      const dir = mkdtempSync(join(sb.dir, 'snap-'));
      assert.deepEqual(await names(new CatalogIndex(Date.now, { snapshotDir: dir })), ['alpha']);
      await written(dir, 2);
      // New content while the console is down (lastConnect moves to the next second).
      await new Promise((r) => setTimeout(r, 1100));
      const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'moving', 'olm');
      await admin.replace(CATALOG_SOURCE_TYPE, {
        ...cs,
        metadata: { ...cs.metadata, annotations: { [annotation]: dirB } },
      });
      await ready(connected);
      assert.deepEqual(await names(new CatalogIndex(Date.now, { snapshotDir: dir })), ['beta']);
    } finally {
      await admin.delete(CATALOG_SOURCE_TYPE, 'moving', { namespace: 'olm' });
    }
  });

  test('a snapshot that fails its checks is not used: the registry is read instead', async () => {
    const tamper: Record<string, (file: string) => void> = {
      'not gzip': (f) => writeFileSync(f, 'hello'),
      'over the size limit': (f) => truncateSync(f, 33 * 1024 * 1024),
      'a tile for a package the catalog does not hold': (f) => {
        const [head, tiles, ...rest] = gunzipSync(readFileSync(f)).toString().split('\n');
        const list = JSON.parse(tiles!) as { name: string }[];
        list[0] = { ...list[0]!, name: 'planted' };
        writeFileSync(f, gzipSync([head, JSON.stringify(list), ...rest].join('\n')));
      },
      'a tile with a field no tile has': (f) => {
        const [head, tiles, ...rest] = gunzipSync(readFileSync(f)).toString().split('\n');
        const list = JSON.parse(tiles!) as Record<string, unknown>[];
        list[0] = { ...list[0]!, href: 'javascript:alert(1)' };
        writeFileSync(f, gzipSync([head, JSON.stringify(list), ...rest].join('\n')));
      },
    };
    for (const [what, change] of Object.entries(tamper)) {
      const run = await firstRun();
      change(run.file);
      const restarted = new CatalogIndex(Date.now, { snapshotDir: run.dir });
      const served = restarted.forUser(clientFor('admin'), ['olm']);
      const r = await served;
      assert.deepEqual(r.packages.map((p) => p.name).sort(), run.names, what);
      assert.notEqual(r.contentKey, run.contentKey, `${what}: read anew, not restored`);
      assert.ok(!r.packages.some((p) => p.name === 'planted'), what);
    }
  });
});
