// The cluster a path names, matched against the configured names (which may hold a slash), and
// the path the router routes once it is taken off.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterPath, routeCluster } from './cluster-route';

const names = ['prod-east', 'prod-west', 'arn:aws:eks:eu-west-1:1:cluster/web', 'arn:aws:eks:eu-west-1:1:cluster'];

describe('routeCluster', () => {
  test('a path without the prefix is the home cluster’s, unchanged', () => {
    assert.deepEqual(routeCluster('/operators/ns/x', names), { kind: 'home', path: '/operators/ns/x' });
    assert.deepEqual(routeCluster('/clusters', names), { kind: 'home', path: '/clusters' });
  });

  test('a configured cluster is taken off, its front page being /', () => {
    assert.deepEqual(routeCluster('/clusters/prod-west/api/operators', names), {
      kind: 'cluster',
      cluster: 'prod-west',
      path: '/api/operators',
    });
    assert.deepEqual(routeCluster('/clusters/prod-west', names), { kind: 'cluster', cluster: 'prod-west', path: '/' });
  });

  test('a name holding a slash is matched whole, the longest name first', () => {
    assert.deepEqual(routeCluster('/clusters/arn:aws:eks:eu-west-1:1:cluster/web/operators', names), {
      kind: 'cluster',
      cluster: 'arn:aws:eks:eu-west-1:1:cluster/web',
      path: '/operators',
    });
    assert.deepEqual(routeCluster('/clusters/arn:aws:eks:eu-west-1:1:cluster/operators', names), {
      kind: 'cluster',
      cluster: 'arn:aws:eks:eu-west-1:1:cluster',
      path: '/operators',
    });
  });

  test('a name no cluster has is unknown, the message naming the configured ones', () => {
    const r = routeCluster('/clusters/prod-westish/api/operators', names);
    assert.equal(r.kind, 'unknown');
    assert.match(
      r.kind === 'unknown' ? r.message : '',
      /no cluster named "prod-westish"; its clusters are prod-east, prod-west/,
    );
  });

  test('clusterPath puts a cluster’s name in front of a home path, encoded, and leaves home alone', () => {
    assert.equal(clusterPath(undefined, '/operators?namespace=a'), '/operators?namespace=a');
    assert.equal(clusterPath('prod-west', '/operators?namespace=a'), '/clusters/prod-west/operators?namespace=a');
    assert.equal(clusterPath('prod-west', '/'), '/clusters/prod-west');
    assert.equal(clusterPath('a:b/c', '/x'), '/clusters/a%3Ab/c/x');
  });
});
