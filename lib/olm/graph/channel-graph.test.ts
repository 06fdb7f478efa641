import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChannelEntry } from '../fbc/types';
import { buildChannelGraph, type GraphBundleFacts } from './channel-graph';

function graph(
  entries: ChannelEntry[],
  versions: Record<string, string>,
  extra: Record<string, Partial<GraphBundleFacts>> = {},
) {
  const bundles = new Map<string, GraphBundleFacts>(
    Object.entries(versions).map(([name, version]) => [name, { version, ...extra[name] }]),
  );
  return buildChannelGraph({ packageName: 'etcd', channelName: 'alpha', entries, bundles });
}

const etcd: ChannelEntry[] = [
  { name: 'etcdoperator.v0.9.0' },
  { name: 'etcdoperator.v0.9.1', replaces: 'etcdoperator.v0.9.0' },
  { name: 'etcdoperator.v0.9.2', replaces: 'etcdoperator.v0.9.0', skips: ['etcdoperator.v0.9.1'] },
];
const etcdVersions = { 'etcdoperator.v0.9.0': '0.9.0', 'etcdoperator.v0.9.1': '0.9.1', 'etcdoperator.v0.9.2': '0.9.2' };

describe('buildChannelGraph', () => {
  test('edges run from the older bundle to the newer, one per replaces and skips', () => {
    const g = graph(etcd, etcdVersions);
    const edges = g.edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`).sort();
    assert.deepEqual(edges, [
      'etcdoperator.v0.9.0 -replaces-> etcdoperator.v0.9.1',
      'etcdoperator.v0.9.0 -replaces-> etcdoperator.v0.9.2',
      'etcdoperator.v0.9.1 -skips-> etcdoperator.v0.9.2',
    ]);
  });

  test('the head, the skipped entry and the resolver order', () => {
    const g = graph(etcd, etcdVersions);
    assert.equal(g.head, 'etcdoperator.v0.9.2');
    const v091 = g.nodes.find((n) => n.name === 'etcdoperator.v0.9.1');
    assert.deepEqual(v091?.skippedBy, ['etcdoperator.v0.9.2']);
    assert.equal(v091?.order, undefined, 'a skipped entry is never an upgrade target');
    assert.deepEqual(g.order, ['etcdoperator.v0.9.2', 'etcdoperator.v0.9.0']);
    // nodes: the order first, then the rest
    assert.deepEqual(
      g.nodes.map((n) => n.name),
      ['etcdoperator.v0.9.2', 'etcdoperator.v0.9.0', 'etcdoperator.v0.9.1'],
    );
    assert.deepEqual(g.problems, []);
  });

  test('skipRange edges are resolved against the versions present', () => {
    const g = graph(
      [
        { name: 'op.v1.3.0', replaces: 'op.v1.2.0', skipRange: '>=1.0.0 <1.3.0' },
        { name: 'op.v1.2.0', replaces: 'op.v1.1.0' },
        { name: 'op.v1.1.0', replaces: 'op.v0.9.0' },
      ],
      { 'op.v1.3.0': '1.3.0', 'op.v1.2.0': '1.2.0', 'op.v1.1.0': '1.1.0' },
    );
    const ranged = g.edges
      .filter((e) => e.kind === 'skipRange')
      .map((e) => e.from)
      .sort();
    assert.deepEqual(ranged, ['op.v1.1.0', 'op.v1.2.0']);
    assert.deepEqual(g.nodes.find((n) => n.name === 'op.v1.1.0')?.coveredBySkipRangeOf, ['op.v1.3.0']);
    assert.deepEqual(g.missing, ['op.v0.9.0'], 'the tail replaces a bundle outside the channel');
  });

  test('an invalid skipRange is kept with its error and makes no edge', () => {
    const g = graph([{ name: 'a.v2', replaces: 'a.v1', skipRange: '>=1.0 <2.0.0' }, { name: 'a.v1' }], {
      'a.v2': '2.0.0',
      'a.v1': '1.0.0',
    });
    const head = g.nodes.find((n) => n.name === 'a.v2');
    assert.ok(head?.skipRangeError);
    assert.match(head.skipRangeError, />=1\.0 <2\.0\.0|1\.0/);
    assert.equal(g.edges.filter((e) => e.kind === 'skipRange').length, 0);
  });

  test('several heads: the problem in opm words and the resolver error; no head is chosen', () => {
    const g = graph([{ name: 'a.v2', replaces: 'a.v1' }, { name: 'a.v1' }, { name: 'b.v1' }], {
      'a.v2': '2.0.0',
      'a.v1': '1.0.0',
      'b.v1': '1.0.0',
    });
    assert.equal(g.head, undefined);
    assert.equal(g.problems[0]?.message, 'multiple channel heads found in graph: a.v2, b.v1');
    assert.match(g.orderError ?? '', /2 replacement chains were found/);
    assert.deepEqual(g.order, []);
    // nothing is lost: every entry is still a node, newest version first
    assert.deepEqual(
      g.nodes.map((n) => n.name),
      ['a.v2', 'a.v1', 'b.v1'],
    );
  });

  test('deprecation facts reach the nodes', () => {
    const g = graph(etcd, etcdVersions, { 'etcdoperator.v0.9.0': { deprecation: 'use 0.9.2' } });
    assert.equal(g.nodes.find((n) => n.name === 'etcdoperator.v0.9.0')?.deprecation, 'use 0.9.2');
  });
});
