// The HTTP server's cluster prefix: the request goes on with the routed path in its URL (query
// kept) and the cluster in the internal header, which only the server sets.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { CLUSTER_HEADER } from '../../api/cluster-route';
import { takeClusterFromPath } from './cluster-prefix';

/** The parts of a request the prefix reads and writes. */
function request(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return { url, headers: { ...headers } } as unknown as IncomingMessage;
}

const names = ['prod-east', 'prod-west'];

describe('takeClusterFromPath', () => {
  test('a cluster in the path becomes the header, and the URL the path the router routes', () => {
    const req = request('/clusters/prod-west/api/operators?namespace=a');
    const route = takeClusterFromPath(req, '/clusters/prod-west/api/operators', names);
    assert.deepEqual(route, { kind: 'cluster', cluster: 'prod-west', path: '/api/operators' });
    assert.equal(req.url, '/api/operators?namespace=a');
    assert.equal(req.headers[CLUSTER_HEADER], 'prod-west');
  });

  test("a client's own copy of the header is dropped: the path alone names the cluster", () => {
    const home = request('/api/operators', { [CLUSTER_HEADER]: 'prod-west' });
    takeClusterFromPath(home, '/api/operators', names);
    assert.equal(home.headers[CLUSTER_HEADER], undefined);
    assert.equal(home.url, '/api/operators');
    const other = request('/clusters/prod-east/api/operators', { [CLUSTER_HEADER]: 'prod-west' });
    takeClusterFromPath(other, '/clusters/prod-east/api/operators', names);
    assert.equal(other.headers[CLUSTER_HEADER], 'prod-east');
  });

  test('an unknown cluster leaves the request as it came, without the header, for a 404', () => {
    const req = request('/clusters/nope/api/operators', { [CLUSTER_HEADER]: 'prod-west' });
    const route = takeClusterFromPath(req, '/clusters/nope/api/operators', names);
    assert.equal(route.kind, 'unknown');
    assert.equal(req.headers[CLUSTER_HEADER], undefined);
    assert.equal(req.url, '/clusters/nope/api/operators');
  });
});
