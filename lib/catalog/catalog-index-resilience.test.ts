// The shared index when a catalog misbehaves (issue 19, item 17): one bundle with a 5 MB
// description, served inline as catalogs without bundle images are, must not cost its catalog
// the registry's graph; and a registry that stops answering after a good read keeps its last
// good index served, read again only after a growing pause, not on every request.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { writeFixtureCatalog } from '../sandbox/testing/fbc-fixture';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { startRegistryServer, type RegistryServer } from '../sandbox/registry/registry-server';
import { DESCRIPTION_CAP_CHARS } from './bundle-caps';
import { CatalogIndex, FAILED_READ_BACKOFF } from './catalog-index';

const FIVE_MB = 5 * 1024 * 1024;

/**
 * The fixture catalog with every bundle inline (no image: the registry then sends each bundle's
 * CSV and objects in ListBundles too; `images` keeps them) and `big`'s descriptions on the CSVs
 * of the bundles it names.
 */
function inlineCatalog(dir: string, big: Record<string, string>, images = false): string {
  writeFixtureCatalog(dir, [
    {
      name: 'bigdoc',
      bundles: [
        { version: '1.0.0' },
        { version: '1.1.0', replaces: '1.0.0' },
        { version: '1.2.0', replaces: '1.1.0', skips: ['1.0.0'] },
      ],
    },
    { name: 'small', bundles: [{ version: '0.1.0' }, { version: '0.2.0', replaces: '0.1.0' }] },
  ]);
  for (const pkg of ['bigdoc', 'small']) {
    const file = join(dir, pkg, 'catalog.json');
    const docs = readFileSync(file, 'utf8')
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            schema: string;
            name: string;
            image?: string;
            properties?: { type: string; value: { data?: string } }[];
          },
      );
    for (const d of docs) {
      if (d.schema !== 'olm.bundle') continue;
      if (!images) delete d.image;
      for (const p of d.properties ?? []) {
        if (p.type !== 'olm.bundle.object' || !p.value.data) continue;
        const obj = JSON.parse(Buffer.from(p.value.data, 'base64').toString()) as {
          kind: string;
          spec: Record<string, unknown>;
        };
        if (obj.kind === 'ClusterServiceVersion' && big[d.name]) {
          obj.spec.description = big[d.name];
          p.value.data = Buffer.from(JSON.stringify(obj)).toString('base64');
        }
      }
    }
    writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n'));
  }
  return dir;
}

describe('CatalogIndex with an oversized bundle', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let admin: KubeClient;
  before(async () => {
    sb = await withSandbox();
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs.admin!);
    admin = new KubeClient(kc);
  });
  after(() => sb.close());

  test('a 5 MB description: the catalog still lists every package with its edges, and keeps the description capped', async () => {
    const description = `# Big\n\n${'A long description. '.repeat(FIVE_MB / 20)}`;
    const dir = inlineCatalog(mkdtempSync(join(sb.dir, 'big-')), {
      'bigdoc.v1.2.0': description,
      'bigdoc.v1.1.0': description,
    });
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: 'oversized', namespace: 'olm', annotations: { 'sandbox.olm-console.dev/catalog-dir': dir } },
      spec: { sourceType: 'grpc', displayName: 'Oversized' },
    });
    for (let i = 0; i < 400; i++) {
      const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'oversized', 'olm');
      if (cs.status?.connectionState?.lastObservedState === 'READY') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const index = new CatalogIndex();
    const r = await index.forUser(admin, ['olm']);
    const info = r.catalogs.find((c) => c.name === 'oversized')!;
    assert.equal(info.problem, undefined, info.problem);
    assert.equal(info.source, 'registry');
    assert.deepEqual(
      r.packages
        .filter((p) => p.catalog.name === 'oversized')
        .map((p) => `${p.name}@${p.headVersion}`)
        .sort(),
      ['bigdoc@1.2.0', 'small@0.2.0'],
    );
    const tile = r.packages.find((p) => p.name === 'bigdoc')!;
    assert.match(tile.shortDescription, /^Big A long description\./, 'the tile is described from the head CSV');

    const bigdoc = index.catalogOf('olm', 'oversized')!.packages.get('bigdoc')!;
    assert.deepEqual(
      bigdoc.channels.get('stable')!.entries.map((e) => [e.name, e.replaces ?? '', (e.skips ?? []).join()]),
      [
        ['bigdoc.v1.0.0', '', ''],
        ['bigdoc.v1.1.0', 'bigdoc.v1.0.0', ''],
        ['bigdoc.v1.2.0', 'bigdoc.v1.1.0', 'bigdoc.v1.0.0'],
      ],
    );
    assert.equal(index.health().unreadable, 0);

    // A version's page asks for the whole CSV: it comes, its description capped with a marker.
    const lookup = await index.lookupPackage(admin, { namespace: 'olm', catalog: 'oversized', package: 'bigdoc' }, []);
    assert.equal(lookup?.source, 'registry');
    const csv = await index.fullCsv(lookup.address, 'bigdoc', 'stable', 'bigdoc.v1.1.0');
    const text = (csv?.spec as { description: string }).description;
    assert.ok(text.startsWith(description.slice(0, 1000)));
    assert.ok(text.length < DESCRIPTION_CAP_CHARS + 200, `kept ${text.length} characters`);
    assert.match(text, /truncated by the console: 5\.0 MB/);
  });

  test('over the message limit: a head that cannot be read leaves its tile plain, a ListBundles that cannot be read says why', async () => {
    const description = 'x'.repeat(2 * 1024 * 1024);
    const withImages = inlineCatalog(mkdtempSync(join(sb.dir, 'limit-')), { 'bigdoc.v1.2.0': description }, true);
    const inline = inlineCatalog(mkdtempSync(join(sb.dir, 'limit-inline-')), { 'bigdoc.v1.2.0': description });
    for (const [name, dir] of [
      ['limit-images', withImages],
      ['limit-inline', inline],
    ]) {
      await admin.create(CATALOG_SOURCE_TYPE, {
        metadata: { name, namespace: 'olm', annotations: { 'sandbox.olm-console.dev/catalog-dir': dir } },
        spec: { sourceType: 'grpc' },
      });
    }
    for (let i = 0; i < 400; i++) {
      const states = await Promise.all(
        ['limit-images', 'limit-inline'].map(
          async (n) =>
            (await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, n, 'olm')).status?.connectionState?.lastObservedState,
        ),
      );
      if (states.every((s) => s === 'READY')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const index = new CatalogIndex(Date.now, { maxMessageBytes: 1024 * 1024 });
    // Counts the PackageManifest lists asked for one catalog.
    let manifestLists = 0;
    const counted = new Proxy(admin, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop === 'listAll') {
          return (type: { kind: string }, opts?: { labelSelector?: string }) => {
            if (type.kind === 'PackageManifest' && opts?.labelSelector === 'catalog=limit-inline') manifestLists++;
            return target.listAll(type as never, opts as never);
          };
        }
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const r = await index.forUser(counted, ['olm']);

    // Bundles with images: ListBundles is small; only bigdoc's head (4 MB with its CSV twice) is
    // over the limit, and only its tile goes without the head's CSV.
    const images = r.catalogs.find((c) => c.name === 'limit-images')!;
    assert.deepEqual([images.source, images.problem], ['registry', undefined]);
    const tiles = r.packages.filter((p) => p.catalog.name === 'limit-images');
    assert.deepEqual(tiles.map((p) => `${p.name}@${p.headVersion}`).sort(), ['bigdoc@1.2.0', 'small@0.2.0']);
    assert.equal(tiles.find((p) => p.name === 'bigdoc')!.capability, undefined, 'no CSV for the oversized head');
    assert.equal(tiles.find((p) => p.name === 'small')!.capability, 'Basic Install');
    assert.equal(
      index.catalogOf('olm', 'limit-images')!.packages.get('bigdoc')!.channels.get('stable')!.entries.length,
      3,
    );

    // Inline bundles: the oversized one is in the ListBundles stream, which gRPC cannot read past;
    // packageserver still lists the packages, and the problem names the limit.
    const inl = r.catalogs.find((c) => c.name === 'limit-inline')!;
    assert.equal(inl.source, 'packagemanifests');
    assert.match(
      inl.problem!,
      /ListBundles failed: a bundle's message is larger than the 1 MiB the console accepts from a registry/,
    );
    assert.deepEqual(
      r.packages
        .filter((p) => p.catalog.name === 'limit-inline')
        .map((p) => p.name)
        .sort(),
      ['bigdoc', 'small'],
    );
    assert.equal(manifestLists, 1);
    // Within the backoff neither the registry nor packageserver is asked again for it.
    for (let i = 0; i < 3; i++) {
      const again = await index.forUser(counted, ['olm']);
      assert.equal(again.catalogs.find((c) => c.name === 'limit-inline')!.problem, inl.problem);
      assert.equal(again.packages.filter((p) => p.catalog.name === 'limit-inline').length, 2);
    }
    assert.equal(manifestLists, 1);
    // Counted as unreadable (names are for the person's own list above, never for /metrics).
    const unread = r.catalogs.filter((c) => c.source === 'packagemanifests' && c.problem).map((c) => c.name);
    assert.ok(unread.includes('limit-inline'));
    assert.equal(index.health().unreadable, unread.length);
  });
});

/** A TCP relay in front of a registry that counts connections and can stop relaying. */
async function relay(
  target: string,
): Promise<{ address: string; connections: () => number; broken: (b: boolean) => void; close: () => Promise<void> }> {
  let count = 0;
  let broken = false;
  const sockets = new Set<Socket>();
  const i = target.lastIndexOf(':');
  const server: Server = createServer((sock) => {
    count++;
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    // Broken: the port still accepts, as a dead registry pod's forwarded port may, and nothing
    // answers.
    if (broken) return void sock.destroy();
    const up = connect({ host: target.slice(0, i), port: Number(target.slice(i + 1)) });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    sock.pipe(up).pipe(sock);
    up.on('error', () => sock.destroy());
    sock.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    address: `127.0.0.1:${port}`,
    connections: () => count,
    broken: (b) => {
      broken = b;
      if (b) for (const s of sockets) s.destroy();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Just what the index asks of the cluster: one READY CatalogSource in `olm` at `address`, every
 * access review allowed, no PackageManifests, no catalog pods.
 */
function fakeCluster(address: string): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const cs: CatalogSource = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name: 'flaky', namespace: 'olm' },
    spec: { sourceType: 'grpc', displayName: 'Flaky' },
    status: { connectionState: { address, lastObservedState: 'READY', lastConnect: '2026-01-01T00:00:00Z' } },
  } as CatalogSource;
  const fake = {
    kubeConfig: kc,
    listAll: async (type: { kind: string }) => ({ items: type.kind === 'CatalogSource' ? [cs] : [] }),
    list: async () => ({ items: [] }),
    get: async (type: { kind: string }) => {
      if (type.kind === 'CatalogSource') return cs;
      throw Object.assign(new Error('not found'), { code: 404 });
    },
    create: async () => ({ status: { allowed: true } }),
  };
  return fake as unknown as KubeClient;
}

describe('CatalogIndex when a registry goes away after a good read', () => {
  let registry: RegistryServer;
  let tcp: Awaited<ReturnType<typeof relay>>;
  before(async () => {
    const dir = writeFixtureCatalog(mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'flaky-')), [
      { name: 'alpha', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
      { name: 'beta', bundles: [{ version: '0.1.0' }] },
    ]);
    registry = await startRegistryServer({ catalog: loadCatalog(dir) });
    tcp = await relay(registry.address);
  });
  after(async () => {
    await tcp.close();
    await registry.stop();
  });

  test('the last good index is served, the failure is cached with a growing backoff, then the registry is read again', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const index = new CatalogIndex(() => t);
    const client = fakeCluster(tcp.address);
    const flaky = async () => {
      const r = await index.forUser(client, ['olm']);
      return {
        info: r.catalogs.find((c) => c.name === 'flaky')!,
        packages: r.packages.map((p) => `${p.name}@${p.headVersion}`).sort(),
      };
    };
    /** Lets a background re-read finish. */
    const settle = async () => {
      for (let i = 0; i < 200 && index.reading('olm/flaky'); i++) await new Promise((r) => setTimeout(r, 10));
    };

    const good = await flaky();
    assert.equal(good.info.source, 'registry');
    assert.equal(good.info.problem, undefined);
    assert.deepEqual(good.packages, ['alpha@1.1.0', 'beta@0.1.0']);
    const readAt = new Date(t).toISOString();

    tcp.broken(true);
    t += 61_000; // no longer fresh: the next request is answered from the index and re-reads behind it
    assert.deepEqual((await flaky()).packages, ['alpha@1.1.0', 'beta@0.1.0']);
    await settle();
    const dialsAfterFailure = tcp.connections();

    const stale = await flaky();
    assert.equal(stale.info.source, 'registry');
    assert.deepEqual(stale.packages, ['alpha@1.1.0', 'beta@0.1.0'], 'the last good index is served');
    assert.equal(stale.info.staleSince, readAt);
    assert.match(stale.info.problem!, new RegExp(`the packages read at ${readAt} are shown`));
    assert.match(stale.info.problem!, /catalog registry at 127\.0\.0\.1:\d+: ListPackages failed/);
    const health = index.health();
    const counted = [health.read, health.stale, health.unreadable, health.packages];
    assert.deepEqual(counted, [0, 1, 0, 2], 'served stale, its two packages still');

    // Within the backoff, requests (the hub's, a package's) do not dial the registry.
    for (let i = 0; i < 20; i++) {
      t += (FAILED_READ_BACKOFF.firstMs - 1) / 20;
      assert.deepEqual((await flaky()).packages, ['alpha@1.1.0', 'beta@0.1.0']);
      assert.equal(
        (await index.lookupPackage(client, { namespace: 'olm', catalog: 'flaky', package: 'alpha' }, []))?.source,
        'registry',
      );
      await settle();
    }
    assert.equal(tcp.connections(), dialsAfterFailure, 'no dial within the backoff');

    // After it, one request tries again (in the background), fails, and the next pause is longer.
    t += 2;
    await flaky();
    await settle();
    const dialsAfterSecond = tcp.connections();
    assert.ok(dialsAfterSecond > dialsAfterFailure, 'read again once the backoff is over');
    t += FAILED_READ_BACKOFF.firstMs + 1;
    await flaky();
    await settle();
    assert.equal(tcp.connections(), dialsAfterSecond, 'the second pause is twice the first');
    t += FAILED_READ_BACKOFF.firstMs;

    // The registry answers again: the next read after the pause clears the problem.
    tcp.broken(false);
    await flaky();
    await settle();
    const back = await flaky();
    assert.equal(back.info.problem, undefined);
    assert.equal(back.info.staleSince, undefined);
    assert.deepEqual([index.health().read, index.health().stale], [1, 0]);
  });
});
