// One cluster's summary as the fleet's Clusters page reads it, against a sandbox cluster: every
// question is asked at once (one round trip to a slow cluster, not two), what a person may not
// read is said as hers, OLM still known to be there, and packageserver registered but down (its
// API answering 503, as kube-aggregator answers for an APIService that is not Available) is that
// field's unknown, the rest of the row shown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientAs } from '../testing/cluster';
import { fleetSandbox } from '../testing/fleet-sandbox';
import { clusterSummary } from './cluster-summary';

describe('a cluster summary', () => {
  const sb = fleetSandbox(2);
  const cluster = () => sb.fleet.clusters[0]!.sandbox;

  test('a cluster that takes 1.5 s a request answers in one round trip, not two', async () => {
    // Connections made first, so the time is the cluster's answers, not the TLS handshakes.
    const client = clientAs(cluster(), 'admin');
    await clusterSummary(client);
    cluster().faults.apply({ latencyMs: 1_500 });
    try {
      const start = performance.now();
      const s = await clusterSummary(client);
      const ms = performance.now() - start;
      assert.ok(s.olmV0.present && s.olmV1.present && s.catalogs.length > 0, JSON.stringify(s));
      assert.ok(ms < 2_400, `the summary took ${ms.toFixed(0)} ms`);
    } finally {
      cluster().faults.apply({ latencyMs: 0 });
    }
  });

  test('a namespace admin who may not list CSVs everywhere still sees OLM v0 there, its version hers to miss', async () => {
    const s = await clusterSummary(clientAs(cluster(), 'alice'));
    assert.equal(s.olmV0.present, true);
    assert.equal(s.olmV0.version, undefined);
    assert.match(s.olmV0.versionNote ?? '', /^not readable: .*alice/);
    assert.ok(
      s.catalogNotes.some((n) => /catalogsources/.test(n) && /alice/.test(n)),
      JSON.stringify(s.catalogNotes),
    );
    const rights = new Map(s.rights.map((r) => [r.label, r.allowed]));
    assert.equal(rights.get('see operators in every namespace'), false);
    assert.equal(rights.get('install ClusterExtensions (OLM v1)'), false);
  });

  test('packageserver registered but answering 503 makes that field unknown, with the reason; the rest is shown', async () => {
    const client = clientAs(cluster(), 'admin');
    cluster().faults.apply({ packageserverUnavailable: true });
    try {
      // As a client sees it: the API server answers 503 for the group, discovery included.
      await assert.rejects(
        client.discover('packages.operators.coreos.com', 'v1'),
        (err: { code?: number }) => err.code === 503,
      );
      const s = await clusterSummary(client);
      assert.equal(s.olmV0.packageserver, 'unknown');
      assert.match(s.olmV0.packageserverNote ?? '', /503 .*service unavailable/);
      assert.equal(s.ready, true);
      assert.equal(s.olmV0.present, true);
      assert.equal(s.olmV1.present, true);
      assert.ok(
        s.catalogs.some((c) => c.kind === 'CatalogSource'),
        JSON.stringify(s.catalogs),
      );
      assert.equal(s.rights.length, 4);
    } finally {
      cluster().faults.apply({ packageserverUnavailable: false });
    }
    assert.equal((await clusterSummary(client)).olmV0.packageserver, true);
  });
});
