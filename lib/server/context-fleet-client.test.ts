// The client requestClient hands a route for a request the HTTP server routed to a cluster of the
// fleet (its header): that cluster's API server, as the person, under that cluster's cache key.
// The caches that keep what a cluster answered (catalog indexes, ClusterCatalog content) key on
// it, and a client without one is taken for home's: a cluster's answers would then be served for
// home's. The key comes from the fleet's rules for the person (fleet/person.ts), in every mode.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLUSTER_HEADER } from '../api/cluster-route';
import { fleetSandbox } from './testing/fleet-sandbox';

describe('the client of a request for a cluster of the fleet', () => {
  const sb = fleetSandbox(2);

  function requestFor(cluster?: string): Request {
    const base = sb.request('/api/operators');
    const headers = new Headers(base.headers);
    if (cluster) headers.set(CLUSTER_HEADER, cluster);
    return new Request(base, { headers });
  }

  test("reaches that cluster as the person under that cluster's cache key; home's under none", async () => {
    const { requestClient } = await import('./context');
    const [home, other] = sb.fleet.clusters.map((c) => c.name);
    const there = requestClient(requestFor(other)).client;
    const here = requestClient(requestFor()).client;
    assert.equal(there.cluster, other);
    assert.equal(here.cluster, undefined);
    assert.equal(there.kubeConfig.getCurrentUser()?.token, sb.fleet.tokens.admin, "the person's token");
    const serverOf = (name: string) => sb.fleet.clusters.find((c) => c.name === name)!.sandbox.url;
    assert.equal(new URL(there.kubeConfig.getCurrentCluster()!.server).port, new URL(serverOf(other!)).port);
    assert.equal(new URL(here.kubeConfig.getCurrentCluster()!.server).port, new URL(serverOf(home!)).port);
  });
});
