// Catalogs and packageserver in the sandbox, seen over HTTPS with @kubernetes/client-node and
// through the registry gRPC API at the address the CatalogSource reports.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { RegistryClient } from '../../catalog/registry-client';
import { withSandbox } from '../testing/sandbox-fixture';
import { CATALOG_DIR_ANNOTATION } from './catalog-sources';
import { needsSharedCatalogs, sharedCatalogs } from '../../testing/shared-catalogs';

const catalogs = sharedCatalogs;
const PM = { group: 'packages.operators.coreos.com', version: 'v1', plural: 'packagemanifests' };
const CS = { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'catalogsources' };

type Manifest = {
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  status: {
    catalogSource: string;
    defaultChannel: string;
    provider: { name?: string };
    channels: {
      name: string;
      currentCSV: string;
      currentCSVDesc: { icon?: unknown; displayName?: string };
      entries: { name: string; version: string }[];
    }[];
  };
};

function demoCatalog(dir: string, versions: string[]): void {
  mkdirSync(dir, { recursive: true });
  const entries = versions
    .map((v, i) => `  - name: demo.v${v}${i ? `\n    replaces: demo.v${versions[i - 1]}` : ''}`)
    .join('\n');
  const bundles = versions.map(
    (v) =>
      `schema: olm.bundle\npackage: demo\nname: demo.v${v}\nimage: quay.example.com/demo@sha256:${v.replace(/\./g, '')}\nproperties:\n  - {type: olm.package, value: {packageName: demo, version: ${v}}}\n  - type: olm.csv.metadata\n    value: {displayName: Demo, provider: {name: Example}, installModes: [{type: AllNamespaces, supported: true}]}`,
  );
  writeFileSync(
    join(dir, 'catalog.yaml'),
    [
      'schema: olm.package\nname: demo\ndefaultChannel: stable',
      `schema: olm.channel\npackage: demo\nname: stable\nentries:\n${entries}`,
      ...bundles,
    ].join('\n---\n'),
  );
}

function getRaw(
  url: string,
  ca: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: { Authorization: `Bearer ${token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sandbox catalogs and packageserver', needsSharedCatalogs, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  let alice: CustomObjectsApi;
  before(async () => {
    sb = await withSandbox({
      catalogs: [join(catalogs, 'okderators'), join(catalogs, 'gatekeeper-operator-product-v4.20')],
    });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    const ka = new KubeConfig();
    ka.loadFromFile(sb.kubeconfigs.alice!);
    alice = ka.makeApiClient(CustomObjectsApi);
  });
  after(() => sb.close());

  test('each --catalog is a READY CatalogSource in the global namespace whose address serves the registry API', async () => {
    const list = (await custom.listNamespacedCustomObject({ ...CS, namespace: 'olm' })) as {
      items: {
        metadata: { name: string };
        status: {
          connectionState: { address: string; lastObservedState: string };
          registryService: { protocol: string; serviceNamespace: string; port: string };
        };
      }[];
    };
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['gatekeeper-operator-product-v4-20', 'okderators'],
    );
    const gk = list.items[0]!;
    assert.equal(gk.status.connectionState.lastObservedState, 'READY');
    assert.equal(gk.status.registryService.protocol, 'grpc');
    assert.equal(gk.status.connectionState.address, `127.0.0.1:${gk.status.registryService.port}`);
    const client = new RegistryClient(gk.status.connectionState.address, 10_000);
    try {
      assert.equal((await client.listBundles()).length, 30);
      assert.equal(await client.healthCheck(), 'SERVING');
    } finally {
      client.close();
    }
  });

  test('PackageManifests: global catalogs appear in every namespace, rewritten into it', async () => {
    const inTeam = (await alice.listNamespacedCustomObject({ ...PM, namespace: 'team1' })) as { items: Manifest[] };
    assert.equal(inTeam.items.length, 17, '16 okderators packages and gatekeeper');
    assert.ok(inTeam.items.every((i) => i.metadata.namespace === 'team1'));
    const gk = inTeam.items.find((i) => i.metadata.name === 'gatekeeper-operator-product')!;
    assert.equal(gk.status.catalogSource, 'gatekeeper-operator-product-v4-20');
    assert.equal(gk.status.defaultChannel, 'stable');
    assert.deepEqual(
      gk.status.channels.map((c) => c.name),
      ['3.15', '3.17', '3.18', '3.19', '3.20', '3.21', 'stable'],
      'channels sorted by name',
    );
    const stable = gk.status.channels.find((c) => c.name === 'stable')!;
    assert.equal(stable.currentCSV, 'gatekeeper-operator-product.v3.21.0');
    assert.equal(stable.entries[0]!.version, '3.21.0', 'entries newest first');
    assert.equal(stable.currentCSVDesc.icon, undefined, 'icons are left out of get and list');
    assert.equal(gk.metadata.labels.catalog, 'gatekeeper-operator-product-v4-20');
    assert.equal(gk.metadata.labels['catalog-namespace'], 'olm');
    assert.equal(gk.metadata.labels['operatorframework.io/os.linux'], 'supported');
    const all = (await custom.listClusterCustomObject(PM)) as { items: Manifest[] };
    assert.ok(
      all.items.every((i) => i.metadata.namespace === 'olm'),
      'cluster-wide: the real namespace',
    );
  });

  test('the icon subresource serves the default head icon with an ETag, and 304 when unchanged', async () => {
    const url = `${sb.url}/apis/packages.operators.coreos.com/v1/namespaces/team1/packagemanifests/gatekeeper-operator-product/icon`;
    const first = await getRaw(url, sb.caPem, sb.tokens.admin!);
    assert.equal(first.status, 200);
    assert.equal(first.headers['content-type'], 'image/svg+xml');
    assert.match(first.body.toString(), /<svg/);
    assert.equal(first.headers.etag, '"gatekeeper-operator-product.stable.gatekeeper-operator-product.v3.21.0"');
    const again = await getRaw(url, sb.caPem, sb.tokens.admin!, { 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
  });

  test('PackageManifests are read-only: no watch, no create', async () => {
    const w = await getRaw(
      `${sb.url}/apis/packages.operators.coreos.com/v1/namespaces/olm/packagemanifests?watch=true`,
      sb.caPem,
      sb.tokens.admin!,
    );
    assert.equal(w.status, 405);
  });

  test('an unhealthy catalog goes TRANSIENT_FAILURE and its packages leave; they return with it', async () => {
    sb.olm.catalogs.setBroken('olm', 'okderators', true);
    const cs = (await custom.getNamespacedCustomObject({ ...CS, namespace: 'olm', name: 'okderators' })) as {
      status: { connectionState: { lastObservedState: string } };
    };
    assert.equal(cs.status.connectionState.lastObservedState, 'TRANSIENT_FAILURE');
    assert.equal(
      ((await custom.listNamespacedCustomObject({ ...PM, namespace: 'olm' })) as { items: unknown[] }).items.length,
      1,
    );
    sb.olm.catalogs.setBroken('olm', 'okderators', false);
    assert.equal(
      ((await custom.listNamespacedCustomObject({ ...PM, namespace: 'olm' })) as { items: unknown[] }).items.length,
      17,
    );
  });

  test('a new CatalogSource goes CONNECTING, then READY', async () => {
    const seen: string[] = [];
    const stop = sb.store.watch({
      key: {
        group: 'operators.coreos.com',
        version: 'v1alpha1',
        resource: 'catalogsources',
        kind: 'CatalogSource',
        namespaced: true,
      },
      send: (e) => {
        const st = (e.object.status as { connectionState?: { lastObservedState?: string } } | undefined)
          ?.connectionState?.lastObservedState;
        if (e.object.metadata.name === 'connecting-demo' && st && seen[seen.length - 1] !== st) seen.push(st);
      },
    });
    try {
      await custom.createNamespacedCustomObject({
        ...CS,
        namespace: 'default',
        body: {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'CatalogSource',
          metadata: {
            name: 'connecting-demo',
            annotations: { [CATALOG_DIR_ANNOTATION]: join(catalogs, 'gatekeeper-operator-product-v4.20') },
          },
          spec: { sourceType: 'grpc' },
        },
      });
      await until(async () => (seen.includes('READY') ? true : undefined), 'READY');
      assert.deepEqual(seen, ['CONNECTING', 'READY']);
    } finally {
      stop();
    }
  });

  test('a CatalogSource created later, and pointed at new content, serves the new versions', async () => {
    const v1 = join(sb.dir, 'demo-v1');
    const v2 = join(sb.dir, 'demo-v2');
    demoCatalog(v1, ['1.0.0']);
    demoCatalog(v2, ['1.0.0', '1.1.0']);
    await custom.createNamespacedCustomObject({
      ...CS,
      namespace: 'team1',
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'demo', annotations: { [CATALOG_DIR_ANNOTATION]: v1 } },
        spec: { sourceType: 'grpc', displayName: 'Demo' },
      },
    });
    const head = async () => {
      try {
        const m = (await custom.getNamespacedCustomObject({ ...PM, namespace: 'team1', name: 'demo' })) as Manifest;
        return m.status.channels[0]!.currentCSV;
      } catch {
        return undefined;
      }
    };
    assert.equal(await until(head, 'the demo package'), 'demo.v1.0.0');
    const inOther = (await custom.listNamespacedCustomObject({ ...PM, namespace: 'default' })) as { items: Manifest[] };
    assert.ok(
      !inOther.items.some((i) => i.metadata.name === 'demo'),
      'a catalog outside the global namespace is seen only in its own',
    );
    await custom.patchNamespacedCustomObject(
      {
        ...CS,
        namespace: 'team1',
        name: 'demo',
        body: { metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: v2 } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.equal(
      await until(async () => ((await head()) === 'demo.v1.1.0' ? 'demo.v1.1.0' : undefined), 'the new head'),
      'demo.v1.1.0',
    );
  });

  test('a CatalogSource naming only spec.address is health-checked and its packages read through the registry API', async () => {
    const cs = (await custom.getNamespacedCustomObject({
      ...CS,
      namespace: 'olm',
      name: 'gatekeeper-operator-product-v4-20',
    })) as { status: { connectionState: { address: string } } };
    await custom.createNamespacedCustomObject({
      ...CS,
      namespace: 'team1',
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'remote' },
        spec: { sourceType: 'grpc', address: cs.status.connectionState.address, displayName: 'Remote' },
      },
    });
    const remote = await until(async () => {
      const c = (await custom.getNamespacedCustomObject({ ...CS, namespace: 'team1', name: 'remote' })) as {
        status?: {
          connectionState?: { lastObservedState?: string };
          registryService?: { protocol?: string; serviceName?: string };
        };
      };
      return c.status?.connectionState?.lastObservedState === 'READY' ? c : undefined;
    }, 'the remote source READY');
    assert.deepEqual(remote.status!.registryService!.protocol, 'grpc');
    assert.equal(remote.status!.registryService!.serviceName, undefined, 'address-only sources record no service');
    const pm = await until(async () => {
      const list = (await custom.listNamespacedCustomObject({ ...PM, namespace: 'team1' })) as { items: Manifest[] };
      return list.items.find((i) => i.status.catalogSource === 'remote');
    }, 'a PackageManifest from the remote source');
    assert.equal(pm.metadata.name, 'gatekeeper-operator-product');
    assert.equal(
      pm.status.channels.find((c) => c.name === 'stable')?.currentCSV,
      'gatekeeper-operator-product.v3.21.0',
    );
  });

  test('ListBundles leaves olm.bundle.object out of properties; a remote source still describes heads that keep their CSV only there', async () => {
    const okd = (await custom.getNamespacedCustomObject({ ...CS, namespace: 'olm', name: 'okderators' })) as {
      status: { connectionState: { address: string } };
    };
    const client = new RegistryClient(okd.status.connectionState.address, 10_000);
    try {
      const loki = (await client.listBundles()).find((b) => b.packageName === 'loki-operator')!;
      assert.deepEqual([...new Set(loki.properties.map((p) => p.type))].sort(), [
        'olm.gvk',
        'olm.maxOpenShiftVersion',
        'olm.package',
      ]);
      assert.equal(loki.csvJson, '', 'a bundle with an image has no csvJson in ListBundles');
      const head = await client.getBundleForChannel('loki-operator', 'alpha');
      assert.match(head.csvJson, /"displayName":"Loki Operator"/);
    } finally {
      client.close();
    }
    await custom.createNamespacedCustomObject({
      ...CS,
      namespace: 'team1',
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'remote-okd' },
        spec: { sourceType: 'grpc', address: okd.status.connectionState.address },
      },
    });
    const pm = await until(async () => {
      const list = (await custom.listNamespacedCustomObject({ ...PM, namespace: 'team1' })) as { items: Manifest[] };
      return list.items.find((i) => i.status.catalogSource === 'remote-okd' && i.metadata.name === 'loki-operator');
    }, 'loki-operator from the remote source');
    // Read by hand from the bundle's olm.bundle.object CSV in ../shared/catalogs/okderators.
    assert.equal(pm.status.channels[0]!.currentCSVDesc.displayName, 'Loki Operator');
    assert.equal(pm.status.provider.name, 'OKD Community');
  });
});
