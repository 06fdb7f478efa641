// The shared catalog index against the sandbox: a person who may list CatalogSources gets the
// registry's content; a namespace-only person sees the global catalogs through PackageManifests,
// and then from the shared index once someone has read the registry.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
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
    assert.deepEqual(alice.catalogs.map((c) => [c.name, c.namespace, c.source]), [['olm-console-demo', 'olm', 'packagemanifests']]);
    assert.equal(alice.packages.length, 13);
    const pg = alice.packages.find((p) => p.name === 'pgpilot')!;
    assert.equal(pg.displayName, 'PgPilot');
    assert.equal(pg.capability, 'Auto Pilot');
    assert.deepEqual(pg.installModes, ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.equal(alice.packages.find((p) => p.name === 'tenant-core')?.nonStandalone, true);
    assert.deepEqual(alice.packages.find((p) => p.name === 'metricsmith')?.arch, ['arm64']);

    const admin = await index.forUser(clientFor('admin'), ['olm']);
    assert.deepEqual(admin.catalogs.map((c) => [c.name, c.source]), [['olm-console-demo', 'registry']]);
    const again = await index.forUser(clientFor('alice'), ['team1', 'olm']);
    assert.deepEqual(again.catalogs.map((c) => c.source), ['registry'], 'the registry content, read once, is shared');
    assert.equal(index.catalogOf('olm', 'olm-console-demo')?.packages.size, 13);
  });

  test('nothing for a namespace where the person may not list PackageManifests', async () => {
    const index = new CatalogIndex();
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs.alice!);
    const r = await index.forUser(new KubeClient(kc), ['default']);
    assert.deepEqual(r, { catalogs: [], packages: [] });
  });
});
