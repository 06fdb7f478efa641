// A new replica's warm-up for its first person: connections opened without any credential that a
// person's requests then use (each with their own token), and the list's code run on made-up
// packages. It reads no catalog, claims no snapshot the replicas share, and serves nobody anything.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { sharedCatalogIndex } from '../catalog/catalog-index';
import { SharedSnapshots } from '../catalog/shared-snapshots';
import { CatalogIndex } from '../catalog/catalog-index';
import { KubeClient } from '../k8s/client';
import { kubeConfigForToken, type ClusterAccess } from '../k8s/cluster-config';
import { NAMESPACE_TYPE } from '../k8s/core-kinds';
import { kubeRequest } from '../k8s/http';
import { ensureServingCert } from '../sandbox/server/tls';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { HubQuery, hubList } from './hub-list';
import { openConnections, warmFirstPage } from './warm-first-page';

/** Token-mode settings for the cluster at `server` whose CA is `caPem`, as the console resolves them. */
function tokenAccess(server: string, caPem: string): ClusterAccess {
  const cluster = { name: 'c', server, caData: Buffer.from(caPem).toString('base64'), skipTLSVerify: false };
  return { mode: 'token', server, cluster, source: 'test' };
}

describe('connections opened before the first person', () => {
  test("a person's first requests, asked at once, use the warm-up's connections: no handshake of their own", async () => {
    const tls = ensureServingCert(mkdtempSync(join(tmpdir(), 'olm-warm-test-')));
    let handshakes = 0;
    const seen: string[] = [];
    const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      seen.push(req.headers.authorization ?? '');
      // Like an API server that takes no anonymous requests: refused, the connection kept.
      res.statusCode = req.headers.authorization ? 200 : 401;
      res.setHeader('content-type', 'application/json');
      res.end(req.headers.authorization ? '{"kind":"Namespace"}' : '{"kind":"Status","code":401}');
    });
    server.on('secureConnection', () => handshakes++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const access = tokenAccess(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, tls.cert);
      assert.deepEqual(await openConnections(access, 5), { opened: 5 });
      assert.equal(handshakes, 5);
      assert.deepEqual(seen, ['', '', '', '', ''], 'the warm-up sent no credential');
      const alice = kubeConfigForToken(access, 'alice-token');
      await Promise.all(
        Array.from({ length: 5 }, () => kubeRequest(alice, { method: 'GET', path: '/api/v1/namespaces/x' })),
      );
      assert.equal(handshakes, 5, "the person's five requests opened no connection");
      assert.deepEqual(seen.slice(5), Array(5).fill('Bearer alice-token'), 'each with their own token');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('a cluster that does not answer is reported, not thrown', async () => {
    const access = tokenAccess('https://127.0.0.1:1', ensureServingCert(mkdtempSync(join(tmpdir(), 'olm-w-'))).cert);
    const r = await openConnections(access, 2);
    assert.equal(r.opened, 0);
    assert.match(r.problem ?? '', /cannot reach the cluster/);
  });
});

describe('the warm-up and the catalogs the replicas share', () => {
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

  test('nothing read for nobody: no snapshot claimed, nobody served a catalog they may not see or a made-up package', async () => {
    const ns = 'console-home';
    const key = randomBytes(32);
    await clientFor('admin').create(NAMESPACE_TYPE, { metadata: { name: ns } });
    // Another replica read the demo catalog for a person and shared it.
    const first = new CatalogIndex(Date.now, {});
    first.shareSnapshots(new SharedSnapshots(clientFor('admin'), ns, key));
    const read = await first.forUser(clientFor('admin'), ['olm']);
    assert.ok(read.packages.length > 0);
    assert.equal(await first.writesSettled(20_000), true);
    // This replica loads it at start, then warms up for its first person.
    const index = sharedCatalogIndex();
    index.shareSnapshots(new SharedSnapshots(clientFor('admin'), ns, key));
    await index.loaded();
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    const warmth = await warmFirstPage(tokenAccess(kc.getCurrentCluster()!.server, sb.caPem));
    assert.equal(warmth.connections, 8, `connections opened (${warmth.problem ?? 'no problem'})`);
    assert.deepEqual(index.health(), { read: 0, stale: 0, unreadable: 0, packages: 0, bytes: 0 }, 'nothing claimed');
    // alice may not list PackageManifests in olm: the shared read is not hers to see.
    const hers = await hubList(clientFor('alice'), HubQuery.parse({}));
    assert.equal(hers.list.catalogs.filter((c) => c.namespace === 'olm').length, 0);
    assert.deepEqual(
      hers.list.packages.filter((p) => p.catalog.namespace === 'olm' || p.name.startsWith('warm-up-')),
      [],
    );
    // The admin's own read claims it; the made-up packages are in nobody's list.
    const admins = await hubList(clientFor('admin'), HubQuery.parse({}));
    assert.equal(index.health().read, 1, "claimed through the admin's read");
    assert.deepEqual(
      admins.list.packages
        .filter((p) => p.catalog.namespace === 'olm')
        .map((p) => p.name)
        .sort(),
      // Tiles leave out packages that are not standalone.
      read.packages
        .filter((p) => !p.nonStandalone)
        .map((p) => p.name)
        .sort(),
    );
    assert.equal(admins.list.packages.filter((p) => p.name.startsWith('warm-up-')).length, 0);
    assert.equal(/warm-up-/.test(admins.body.text), false);
  });
});
