// Catalog snapshots replicas share, against the sandbox: two index instances (two replicas) with
// one console namespace. A replica with nothing on its disk serves what another read, only to
// people who may see the catalog, and never from ConfigMaps someone changed, a chunk gone, another
// session key's seal, or a catalog over the size bound; writers racing leave one whole snapshot.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { CONFIG_MAP_TYPE, NAMESPACE_TYPE } from '../k8s/core-kinds';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { CatalogIndex } from './catalog-index';
import { CHUNK_LABEL, SharedSnapshots, SNAPSHOTS_CONFIGMAP, snapshotIdOf } from './shared-snapshots';

const DEMO = 'olm/olm-console-demo';

interface ConfigMap {
  metadata?: { name?: string; resourceVersion?: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

describe('shared catalog snapshots', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let home = 0;
  const clientFor = (user: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs[user]!);
    return new KubeClient(kc);
  };
  before(async () => {
    sb = await withSandbox();
  });
  after(() => sb.close());

  /** A console namespace of its own for each test, as a deployment's. */
  async function consoleHome(): Promise<string> {
    const name = `console-home-${++home}`;
    await clientFor('admin').create(NAMESPACE_TYPE, { metadata: { name } });
    return name;
  }

  /** A replica: its own index, no disk unless given, sharing through `namespace` with `key`. */
  function replica(
    namespace: string,
    key: Buffer,
    opts: { dir?: string; maxBytes?: number; chunkBytes?: number } = {},
  ) {
    const index = new CatalogIndex(Date.now, { snapshotDir: opts.dir });
    index.shareSnapshots(new SharedSnapshots(clientFor('admin'), namespace, key, opts));
    return index;
  }

  /** The first replica reads the demo catalog as the admin and has shared it. */
  async function firstReplica(namespace: string, key: Buffer, opts: { maxBytes?: number; chunkBytes?: number } = {}) {
    const index = replica(namespace, key, opts);
    const read = await index.forUser(clientFor('admin'), ['olm']);
    assert.equal(await index.writesSettled(20_000), true, 'the snapshot was written');
    return { names: read.packages.map((p) => p.name).sort(), contentKey: read.contentKey };
  }

  async function chunksIn(namespace: string): Promise<ConfigMap[]> {
    return (await clientFor('admin').list<ConfigMap>(CONFIG_MAP_TYPE, { namespace, labelSelector: CHUNK_LABEL })).items;
  }

  test('a new replica with nothing on its disk serves what another read, without reading the registry', async () => {
    const ns = await consoleHome();
    const key = randomBytes(32);
    const first = await firstReplica(ns, key, { chunkBytes: 1024 });
    assert.ok((await chunksIn(ns)).length > 1, 'the snapshot is in several chunks');
    const second = replica(ns, key);
    const r = await second.forUser(clientFor('admin'), ['olm']);
    assert.equal(second.reading(DEMO), false, 'no registry read started');
    assert.equal(r.contentKey, first.contentKey, 'the same read, by when it was made');
    assert.deepEqual(r.packages.map((p) => p.name).sort(), first.names);
    const pg = second.catalogOf('olm', 'olm-console-demo')?.packages.get('pgpilot');
    assert.ok(pg && pg.channels.size > 0 && pg.bundles.size > 1, 'the graph came too');
  });

  test('a replica started before the other read finds the shared snapshot at its first reads', async () => {
    const ns = await consoleHome();
    const key = randomBytes(32);
    const early = replica(ns, key);
    await early.ready();
    const first = await firstReplica(ns, key);
    // Two people at once: both wait for the one lookup, neither starts a registry read.
    const both = await Promise.all([0, 1].map(() => early.forUser(clientFor('admin'), ['olm'])));
    assert.deepEqual(
      both.map((r) => r.contentKey),
      [first.contentKey, first.contentKey],
    );
    assert.equal(early.reading(DEMO), false);
  });

  test('a person who cannot read the CatalogSource gets nothing of the shared snapshot', async () => {
    const ns = await consoleHome();
    const key = randomBytes(32);
    await firstReplica(ns, key);
    const second = replica(ns, key);
    const none = await second.forUser(clientFor('alice'), ['default']);
    assert.deepEqual([none.catalogs, none.packages], [[], []]);
    // alice sees the global catalog only through packageserver: an unclaimed snapshot is not hers.
    const viaManifests = await second.forUser(clientFor('alice'), ['team1', 'olm']);
    assert.deepEqual(
      viaManifests.catalogs.map((c) => [c.name, c.source]),
      [['olm-console-demo', 'packagemanifests']],
    );
  });

  test('a changed chunk, a missing chunk, a changed entry or another key: the registry is read instead', async () => {
    const admin = clientFor('admin');
    const tamper: Record<string, (ns: string) => Promise<void>> = {
      'a chunk changed': async (ns) => {
        const [chunk] = await chunksIn(ns);
        const bytes = Buffer.from(chunk!.binaryData!.chunk!, 'base64');
        bytes[100] = bytes[100]! ^ 1;
        await admin.replace(CONFIG_MAP_TYPE, { ...chunk, binaryData: { chunk: bytes.toString('base64') } });
      },
      'a chunk missing': async (ns) => {
        const [chunk] = await chunksIn(ns);
        await admin.delete(CONFIG_MAP_TYPE, chunk!.metadata!.name!, { namespace: ns });
      },
      'its entry changed': async (ns) => {
        const cm = await admin.get<ConfigMap>(CONFIG_MAP_TYPE, SNAPSHOTS_CONFIGMAP, ns);
        const id = `c.${snapshotIdOf(DEMO)}`;
        const entry = JSON.parse(cm.data![id]!) as { at: number };
        entry.at += 1;
        await admin.replace(CONFIG_MAP_TYPE, { ...cm, data: { ...cm.data, [id]: JSON.stringify(entry) } });
      },
    };
    for (const [what, change] of Object.entries(tamper)) {
      const ns = await consoleHome();
      const key = randomBytes(32);
      const first = await firstReplica(ns, key, { chunkBytes: 1024 });
      await change(ns);
      const second = replica(ns, key);
      const r = await second.forUser(clientFor('admin'), ['olm']);
      assert.notEqual(r.contentKey, first.contentKey, `${what}: read anew, not restored`);
      assert.deepEqual(r.packages.map((p) => p.name).sort(), first.names, what);
    }
    const ns = await consoleHome();
    const first = await firstReplica(ns, randomBytes(32));
    const otherKey = replica(ns, randomBytes(32));
    const r = await otherKey.forUser(clientFor('admin'), ['olm']);
    assert.notEqual(r.contentKey, first.contentKey, 'another session key: read anew');
  });

  test('a catalog over the bound is not shared; what was shared before stays whole', async () => {
    const ns = await consoleHome();
    const key = randomBytes(32);
    await firstReplica(ns, key, { maxBytes: 1024 });
    assert.equal((await chunksIn(ns)).length, 0, 'nothing shared, no chunk left behind');
    const small = new SharedSnapshots(clientFor('admin'), ns, key, { maxBytes: 64 * 1024 });
    const shared = randomBytes(10 * 1024);
    await small.write('olm/big', 'addr', 'v1', shared);
    await small.write('olm/big', 'addr', 'v2', randomBytes(70 * 1024));
    assert.deepEqual(await small.read(snapshotIdOf('olm/big')), shared, 'the smaller one is still shared');
    await small.write('olm/other', 'addr', 'v1', randomBytes(60 * 1024));
    assert.equal(await small.read(snapshotIdOf('olm/other')), undefined, 'over the bound with the others');
    assert.equal((await chunksIn(ns)).length, 1);
  });

  test('two writers racing leave one whole snapshot, and readers meanwhile never get a mix', async () => {
    const ns = await consoleHome();
    const key = randomBytes(32);
    const writers = [0, 1].map(() => new SharedSnapshots(clientFor('admin'), ns, key, { chunkBytes: 16 * 1024 }));
    const payloads = [randomBytes(100 * 1024), randomBytes(90 * 1024)];
    const reader = new SharedSnapshots(clientFor('admin'), ns, key);
    const id = snapshotIdOf('olm/racing');
    let racing = true;
    const seen: (Buffer | undefined)[] = [];
    const reading = (async () => {
      while (racing) seen.push(await reader.read(id));
    })();
    // Each writer shares new content (a new version) again and again, at the same time as the other.
    await Promise.all(
      writers.map(async (w, i) => {
        for (let round = 0; round < 4; round++) await w.write('olm/racing', 'addr', `v${i}.${round}`, payloads[i]!);
      }),
    );
    racing = false;
    await reading;
    const last = await reader.read(id);
    assert.ok(last && payloads.some((p) => p.equals(last)), 'the manifest names one whole snapshot');
    for (const s of seen) assert.ok(s === undefined || payloads.some((p) => p.equals(s)), 'never a torn read');
    assert.ok(
      seen.some((s) => s !== undefined),
      'readers read it while the writers raced',
    );
    // The losers' and the replaced generations are gone: only the chunks the manifest names remain.
    const cm = await clientFor('admin').get<ConfigMap>(CONFIG_MAP_TYPE, SNAPSHOTS_CONFIGMAP, ns);
    const named = (JSON.parse(cm.data![`c.${id}`]!) as { chunks: [string, string][] }).chunks.map(([n]) => n);
    assert.deepEqual((await chunksIn(ns)).map((c) => c.metadata!.name).sort(), named.sort());
  });

  test('chunks a stopped writer left are collected; nothing else carrying the label is', async () => {
    const ns = await consoleHome();
    const admin = clientFor('admin');
    const left = `olm-console-catalog-snapshot-${snapshotIdOf('olm/left')}-0badc0de-0`;
    const record = 'olm-console-session-revocations';
    for (const name of [left, record])
      await admin.create(CONFIG_MAP_TYPE, {
        metadata: { name, namespace: ns, labels: { [CHUNK_LABEL]: snapshotIdOf('olm/left') } },
        binaryData: { chunk: randomBytes(64).toString('base64') },
      });
    const writer = new SharedSnapshots(admin, ns, randomBytes(32), { orphanAgeMs: 0 });
    const data = randomBytes(2048);
    await writer.write('olm/new', 'addr', 'v1', data);
    assert.deepEqual(await writer.read(snapshotIdOf('olm/new')), data);
    const names = (await chunksIn(ns)).map((c) => c.metadata!.name!);
    assert.ok(!names.includes(left), 'the chunk no entry names is gone');
    assert.ok(names.includes(record), 'a ConfigMap not named as a chunk is kept, whatever its labels');
  });
});
