// The registry gRPC API served from real catalogs, checked through a real gRPC client against
// the FBC files read independently (plain js-yaml over the files, not the loader under test).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yaml from 'js-yaml';
import { RegistryClient, RegistryError } from '../../catalog/registry-client';
import { catalogFromTexts } from '../../olm/fbc/catalog';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { startRegistryServer, type RegistryServer } from './registry-server';
import { needsSharedCatalogs, sharedCatalogs } from '../../testing/shared-catalogs';

const catalogs = sharedCatalogs;

interface RawBlob {
  schema: string;
  name: string;
  package?: string;
  image?: string;
  entries?: { name: string; replaces?: string; skips?: string[]; skipRange?: string }[];
  properties?: { type: string; value: { version?: string } }[];
}

function rawBlobs(dir: string): RawBlob[] {
  const out: RawBlob[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(f)) yaml.loadAll(readFileSync(p, 'utf8'), (doc) => doc && out.push(doc as RawBlob));
    }
  };
  walk(dir);
  return out;
}

describe('registry gRPC server on gatekeeper-operator-product-v4.20', needsSharedCatalogs, () => {
  const dir = join(catalogs, 'gatekeeper-operator-product-v4.20');
  let server: RegistryServer;
  let client: RegistryClient;
  const pkg = 'gatekeeper-operator-product';
  before(async () => {
    server = await startRegistryServer({ catalog: loadCatalog(dir) });
    client = new RegistryClient(server.address, 10_000);
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test('ListBundles gives one message per (bundle, channel) pair with that channel edges, as in the files', async () => {
    const blobs = rawBlobs(dir);
    const expected = new Map<string, { replaces: string; skips: string[]; skipRange: string }>();
    for (const ch of blobs.filter((b) => b.schema === 'olm.channel')) {
      for (const e of ch.entries ?? [])
        expected.set(`${e.name}@${ch.name}`, {
          replaces: e.replaces ?? '',
          skips: e.skips ?? [],
          skipRange: e.skipRange ?? '',
        });
    }
    const bundles = new Map(blobs.filter((b) => b.schema === 'olm.bundle').map((b) => [b.name, b]));
    const got = await client.listBundles();
    assert.equal(got.length, 30);
    assert.equal(new Set(got.map((b) => `${b.csvName}@${b.channelName}`)).size, 30);
    for (const b of got) {
      const want = expected.get(`${b.csvName}@${b.channelName}`);
      assert.ok(want, `${b.csvName}@${b.channelName} is a channel entry in the files`);
      assert.deepEqual(
        { replaces: b.replaces, skips: b.skips, skipRange: b.skipRange },
        want,
        `${b.csvName}@${b.channelName}`,
      );
      const file = bundles.get(b.csvName)!;
      assert.equal(b.bundlePath, file.image);
      assert.equal(b.version, file.properties?.find((p) => p.type === 'olm.package')?.value.version);
      assert.equal(b.csvJson, '', 'bundles with an image carry no manifests in ListBundles');
      assert.equal(b.packageName, pkg);
    }
  });

  test('GetPackage: channels with their heads and the default channel', async () => {
    const p = await client.getPackage(pkg);
    assert.equal(p.defaultChannelName, 'stable');
    assert.equal(p.channels.find((c) => c.name === 'stable')?.csvName, 'gatekeeper-operator-product.v3.21.0');
    assert.equal(p.channels.find((c) => c.name === '3.15')?.csvName, 'gatekeeper-operator-product.v3.15.4');
    assert.deepEqual(await client.listPackages(), [pkg]);
  });

  test('GetBundle, GetBundleForChannel, GetBundleThatReplaces carry the CSV and clear replaces/skips', async () => {
    const head = await client.getBundleForChannel(pkg, 'stable');
    assert.equal(head.csvName, 'gatekeeper-operator-product.v3.21.0');
    const csv = JSON.parse(head.csvJson) as {
      kind: string;
      metadata: { name: string };
      spec: { version: string; install: { strategy: string } };
    };
    assert.equal(csv.kind, 'ClusterServiceVersion');
    assert.equal(csv.spec.version, '3.21.0');
    assert.equal(head.replaces, '');
    const b = await client.getBundle(pkg, '3.15', 'gatekeeper-operator-product.v3.15.1-0.1727189912.p');
    assert.deepEqual(b.skips, []);
    const next = await client.getBundleThatReplaces('gatekeeper-operator-product.v3.20.0', pkg, 'stable');
    assert.equal(next.csvName, 'gatekeeper-operator-product.v3.21.0');
  });

  test('GetChannelEntriesThatReplace lists every channel with such an entry', async () => {
    const e = await client.getChannelEntriesThatReplace('gatekeeper-operator-product.v3.17.2');
    // channels/channel-3.17.yaml and channel-stable.yaml are the two files with "replaces: ...v3.17.2"
    assert.deepEqual(e.map((x) => `${x.channelName}:${x.bundleName}`).sort(), [
      '3.17:gatekeeper-operator-product.v3.17.3',
      'stable:gatekeeper-operator-product.v3.18.0',
    ]);
  });

  test('providers: every entry, the latest (heads), the default-channel head', async () => {
    const gvk = { group: 'operator.gatekeeper.sh', version: 'v1alpha1', kind: 'Gatekeeper' };
    const all = await client.getChannelEntriesThatProvide(gvk);
    // opm reports one entry per bundle for its replaces and one per skip (pkg/cache/pkgs.go channelEntriesForBundle).
    assert.equal(all.length, 36);
    const latest = await client.getLatestChannelEntriesThatProvide(gvk);
    assert.equal(latest.length, 7, 'one head per channel');
    assert.equal((await client.getDefaultBundleThatProvides(gvk)).csvName, 'gatekeeper-operator-product.v3.21.0');
  });

  test('unknown names fail with UNKNOWN and say what was not found', async () => {
    const err = await client.getPackage('nope').catch((e: unknown) => e);
    assert.ok(err instanceof RegistryError);
    assert.equal(err.code, 2);
    assert.match(err.message, /package "nope" not found/);
    assert.match(
      String(await client.getBundleForChannel(pkg, 'beta').catch((e: unknown) => e)),
      /package "gatekeeper-operator-product", channel "beta" not found/,
    );
    assert.match(
      String(
        await client.getDefaultBundleThatProvides({ group: 'x', version: 'v1', kind: 'Y' }).catch((e: unknown) => e),
      ),
      /no channel entries found that provide group:"x" version:"v1" kind:"Y"/,
    );
  });

  test('health answers SERVING, then NOT_SERVING when made unhealthy', async () => {
    assert.equal(await client.healthCheck(), 'SERVING');
    server.setHealthy(false);
    assert.equal(await client.healthCheck(), 'NOT_SERVING');
    server.setHealthy(true);
  });

  test('setCatalog swaps the content: new versions appear at once', async () => {
    const b = (name: string, v: string) =>
      `schema: olm.bundle\npackage: demo\nname: ${name}\nimage: quay.example.com/demo:${v}\nproperties:\n  - {type: olm.package, value: {packageName: demo, version: ${v}}}\n  - {type: olm.gvk, value: {group: demo.example.com, version: v1, kind: Demo}}`;
    const v1 = catalogFromTexts({
      'demo.yaml': [
        'schema: olm.package\nname: demo\ndefaultChannel: stable',
        'schema: olm.channel\npackage: demo\nname: stable\nentries:\n  - name: demo.v1.0.0',
        b('demo.v1.0.0', '1.0.0'),
      ].join('\n---\n'),
    });
    const v2 = catalogFromTexts({
      'demo.yaml': [
        'schema: olm.package\nname: demo\ndefaultChannel: stable',
        'schema: olm.channel\npackage: demo\nname: stable\nentries:\n  - name: demo.v1.0.0\n  - {name: demo.v1.1.0, replaces: demo.v1.0.0}',
        b('demo.v1.0.0', '1.0.0'),
        b('demo.v1.1.0', '1.1.0'),
      ].join('\n---\n'),
    });
    server.setCatalog(v1);
    assert.deepEqual(
      (await client.listBundles()).map((x) => x.csvName),
      ['demo.v1.0.0'],
    );
    server.setCatalog(v2);
    assert.equal((await client.getBundleForChannel('demo', 'stable')).csvName, 'demo.v1.1.0');
    assert.equal((await client.listBundles()).find((x) => x.csvName === 'demo.v1.1.0')?.replaces, 'demo.v1.0.0');
  });
});

describe('registry gRPC server on okderators', needsSharedCatalogs, () => {
  test('manifests: olm.bundle.object CSVs, and CSVs built from olm.csv.metadata', async () => {
    const server = await startRegistryServer({ catalog: loadCatalog(join(catalogs, 'okderators')) });
    const client = new RegistryClient(server.address, 10_000);
    try {
      assert.equal((await client.listBundles()).length, 25);
      const withObjects = await client.getBundleForChannel('cluster-logging', 'alpha');
      assert.ok(withObjects.object.length > 1, 'the CSV and CRDs from olm.bundle.object');
      assert.equal((JSON.parse(withObjects.csvJson) as { kind: string }).kind, 'ClusterServiceVersion');
      const fromMeta = await client.getBundleForChannel('lvms-operator', 'alpha');
      const csv = JSON.parse(fromMeta.csvJson) as {
        spec: { install: { strategy: string }; version: string; displayName: string };
      };
      assert.equal(csv.spec.install.strategy, 'deployment');
      assert.ok(csv.spec.displayName);
      assert.equal(csv.spec.version, fromMeta.version);
      const odf = (await client.listBundles()).find((x) => x.packageName === 'odf-operator')!;
      assert.ok(
        odf.dependencies.some(
          (d) =>
            d.type === 'olm.package' && (JSON.parse(d.value) as { packageName: string }).packageName === 'ocs-operator',
        ),
      );
    } finally {
      client.close();
      await server.stop();
    }
  });
});
