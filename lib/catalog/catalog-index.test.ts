// The shared catalog index against the sandbox: a person who may list CatalogSources gets the
// registry's content; a namespace-only person sees the global catalogs through PackageManifests,
// and then from the shared index once someone has read the registry.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { KubeClient } from '../k8s/client';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { writeFixtureCatalog } from '../sandbox/testing/fbc-fixture';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { CatalogIndex } from './catalog-index';

describe('CatalogIndex', () => {
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

  test('a namespace-only person sees the global demo catalog through packageserver, then through the shared index', async () => {
    const index = new CatalogIndex();
    const alice = await index.forUser(clientFor('alice'), ['team1', 'olm']);
    assert.deepEqual(
      alice.catalogs.map((c) => [c.name, c.namespace, c.source]),
      [['olm-console-demo', 'olm', 'packagemanifests']],
    );
    assert.equal(alice.packages.length, 13);
    const pg = alice.packages.find((p) => p.name === 'pgpilot')!;
    assert.equal(pg.displayName, 'PgPilot');
    assert.equal(pg.capability, 'Auto Pilot');
    assert.deepEqual(pg.installModes, ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.equal(alice.packages.find((p) => p.name === 'tenant-core')?.nonStandalone, true);
    assert.deepEqual(alice.packages.find((p) => p.name === 'metricsmith')?.arch, ['arm64']);

    const admin = await index.forUser(clientFor('admin'), ['olm']);
    assert.deepEqual(
      admin.catalogs.map((c) => [c.name, c.source]),
      [['olm-console-demo', 'registry']],
    );
    const again = await index.forUser(clientFor('alice'), ['team1', 'olm']);
    assert.deepEqual(
      again.catalogs.map((c) => c.source),
      ['registry'],
      'the registry content, read once, is shared',
    );
    assert.equal(index.catalogOf('olm', 'olm-console-demo')?.packages.size, 13);
  });

  test('nothing for a namespace where the person may not list PackageManifests', async () => {
    const index = new CatalogIndex();
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs.alice!);
    const r = await index.forUser(new KubeClient(kc), ['default']);
    assert.deepEqual([r.catalogs, r.packages], [[], []]);
  });

  test('follows catalog changes: a new CatalogSource, new content, an unhealthy catalog, a removed one', async () => {
    const index = new CatalogIndex();
    const admin = clientFor('admin');
    const dirA = writeFixtureCatalog(mkdtempSync(join(sb.dir, 'cat-a-')), [
      { name: 'alpha', bundles: [{ version: '1.0.0' }] },
    ]);
    const dirB = writeFixtureCatalog(mkdtempSync(join(sb.dir, 'cat-b-')), [
      { name: 'alpha', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
      { name: 'beta', bundles: [{ version: '0.1.0' }] },
    ]);
    const annotation = 'sandbox.olm-console.dev/catalog-dir';
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: 'extra', namespace: 'olm', annotations: { [annotation]: dirA } },
      spec: { sourceType: 'grpc', displayName: 'Extra' },
    });
    const ready = async (since?: string) => {
      for (let i = 0; i < 200; i++) {
        const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'extra', 'olm');
        const st = cs.status?.connectionState;
        if (st?.lastObservedState === 'READY' && st.lastConnect && st.lastConnect !== since) return st.lastConnect;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('catalog extra not ready');
    };
    const first = await ready();
    const names = async () =>
      (await index.forUser(admin, ['olm'])).packages
        .filter((p) => p.catalog.name === 'extra')
        .map((p) => `${p.name}@${p.headVersion}`)
        .sort();
    assert.deepEqual(await names(), ['alpha@1.0.0']);

    // A sandbox catalog's content changes when it serves another folder; its lastConnect moves
    // (to the second, like every Kubernetes timestamp, so the change waits for the next second).
    await new Promise((r) => setTimeout(r, 1100));
    const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'extra', 'olm');
    await admin.replace(CATALOG_SOURCE_TYPE, {
      ...cs,
      metadata: { ...cs.metadata, annotations: { [annotation]: dirB } },
    });
    await ready(first);
    assert.deepEqual(await names(), ['alpha@1.1.0', 'beta@0.1.0'], 'read again at once, not after a minute');

    assert.ok(sb.faults.apply({ catalogUnhealthy: { namespace: 'olm', name: 'extra', unhealthy: true } }).ok);
    for (let i = 0; i < 200; i++) {
      const st = (await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'extra', 'olm')).status?.connectionState
        ?.lastObservedState;
      if (st !== 'READY') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const sick = await index.forUser(admin, ['olm']);
    const extra = sick.catalogs.find((c) => c.name === 'extra')!;
    assert.match(extra.problem!, /the catalog is TRANSIENT_FAILURE/);
    assert.ok(
      sick.packages.some((p) => p.catalog.name === 'olm-console-demo'),
      'the other catalogs still serve',
    );

    await admin.delete(CATALOG_SOURCE_TYPE, 'extra', { namespace: 'olm' });
    const after = await index.forUser(admin, ['olm']);
    assert.deepEqual(
      after.catalogs.map((c) => c.name),
      ['olm-console-demo'],
    );
    assert.equal(index.catalogOf('olm', 'extra'), undefined);
  });

  test('a registry that stops answering: the full CSV and the icon are both left out, neither fails the page', async () => {
    const index = new CatalogIndex();
    const admin = clientFor('admin');
    const ref = { namespace: 'olm', catalog: 'olm-console-demo', package: 'pgpilot' };
    const lookup = await index.lookupPackage(admin, ref, []);
    assert.equal(lookup?.source, 'registry');
    const head = lookup.pkg.channels.get(lookup.pkg.defaultChannel ?? '')!.entries.at(-1)!.name;
    // A port nothing listens on any more: the catalog pod went away after the list was read.
    const gone = await new Promise<string>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as AddressInfo).port;
        srv.close(() => resolve(`127.0.0.1:${port}`));
      });
    });
    const csv = await index.fullCsv(gone, 'pgpilot', lookup.pkg.defaultChannel ?? '', head);
    assert.equal(csv, undefined);
    const withoutPackageIcon = { ...lookup, address: gone, pkg: { ...lookup.pkg, icon: undefined } };
    assert.equal(await index.icon(admin, withoutPackageIcon), undefined);
  });

  test("two catalogs reached without an address each serve their own package's icon", async () => {
    const index = new CatalogIndex();
    const admin = clientFor('admin');
    const ref = { namespace: 'olm', catalog: 'olm-console-demo', package: 'pgpilot' };
    const lookup = await index.lookupPackage(admin, ref, []);
    assert.equal(lookup?.source, 'registry');
    // Both as the index hands them on when the person's way to the registry is not a direct one:
    // no address, the package's own icon from the catalog's content.
    const iconOf = (text: string) => ({ base64data: Buffer.from(text).toString('base64'), mediatype: 'image/png' });
    const demo = { ...lookup, address: '', pkg: { ...lookup.pkg, icon: iconOf('demo icon') } };
    const other = {
      ...lookup,
      catalog: { namespace: 'olm', name: 'other', displayName: 'Other' },
      address: '',
      pkg: { ...lookup.pkg, icon: iconOf('other icon') },
    };
    assert.equal((await index.icon(admin, demo))?.data.toString(), 'demo icon');
    assert.equal((await index.icon(admin, other))?.data.toString(), 'other icon');
  });
});
