// The HTTP server's cluster prefix: the request goes on with the routed path in its URL (query
// kept) and the cluster in the internal header, which only the server sets. A name the settings do
// not give is one path segment a hub may list, and gets the header only when the person's hub
// view is asked and lists it (app/api/hub-cluster-routes.test.ts asks a real one).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { CLUSTER_HEADER } from '../../api/cluster-route';
import { ApiError } from '../api-error';
import { hubCandidate, takeClusterFromPath, takeHubClusterFromPath } from './cluster-prefix';

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

describe('a name a hub may list', () => {
  test('is the first segment after /clusters/: a ManagedCluster name holds no slash', () => {
    assert.deepEqual(hubCandidate('/clusters/edge-1/api/operators'), { name: 'edge-1', path: '/api/operators' });
    assert.deepEqual(hubCandidate('/clusters/edge-1'), { name: 'edge-1', path: '/' });
    assert.equal(hubCandidate('/api/operators'), undefined);
    assert.equal(hubCandidate('/clusters/'), undefined);
    assert.equal(hubCandidate('/clusters/-x/api'), undefined);
  });

  test('gets the header only when the hub view lists it; a refusal leaves the request as it came', async () => {
    const listed = request('/clusters/edge-1/api/operators?namespace=a', { [CLUSTER_HEADER]: 'prod-west' });
    const asked: string[] = [];
    const refusal = await takeHubClusterFromPath(
      listed,
      hubCandidate('/clusters/edge-1/api/operators')!,
      async (_r, n) => {
        asked.push(n);
      },
    );
    assert.equal(refusal, undefined);
    assert.deepEqual(asked, ['edge-1']);
    assert.equal(listed.headers[CLUSTER_HEADER], 'edge-1');
    assert.equal(listed.url, '/api/operators?namespace=a');

    const unlisted = request('/clusters/edge-2/api/operators', { [CLUSTER_HEADER]: 'prod-west' });
    const no = await takeHubClusterFromPath(unlisted, hubCandidate('/clusters/edge-2/api/operators')!, async () => {
      throw new ApiError(404, 'NotFound', 'the console serves no cluster named "edge-2"');
    });
    assert.deepEqual(no, { status: 404, reason: 'NotFound', message: 'the console serves no cluster named "edge-2"' });
    assert.equal(unlisted.headers[CLUSTER_HEADER], undefined);
    assert.equal(unlisted.url, '/clusters/edge-2/api/operators');
  });
});
