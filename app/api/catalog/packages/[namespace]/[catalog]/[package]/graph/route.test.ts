// A channel's graph and update paths through the route handler, against the demo catalog; and
// the same package seen only through PackageManifests, where the edges are unknown and said so.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { GraphView } from '@/lib/catalog/graph-view';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /api/catalog/packages/<ns>/<catalog>/<package>/graph', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (pkg: string, query = '', user = 'admin') =>
    sb.call<GraphView & ErrorBody>(GET, `/api/catalog/packages/olm/olm-console-demo/${pkg}/graph${query}`, {
      user,
      bearer: true,
      params: { namespace: 'olm', catalog: 'olm-console-demo', package: pkg },
    });

  // First, before anyone's request has read the registry into the shared index.
  test('through PackageManifests only: versions in channel order, edges unknown', async () => {
    const { status, body } = await get('pgpilot', '?namespace=team1', 'alice');
    assert.equal(status, 200);
    assert.equal(body.edgesKnown, false);
    assert.match(body.note!, /edges are unknown/);
    assert.deepEqual(body.edges, []);
    assert.equal(body.head, 'pgpilot.v1.4.0');
    assert.deepEqual(
      body.nodes.map((n) => n.version),
      ['1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0'],
    );
  });

  test('the default channel: head, one edge of each kind, versions covered by skipRange', async () => {
    const { status, body } = await get('pgpilot');
    assert.equal(status, 200);
    assert.equal(body.edgesKnown, true);
    assert.equal(body.channel, 'stable');
    assert.equal(body.head, 'pgpilot.v1.4.0');
    assert.deepEqual(body.channels, ['candidate', 'fast', 'stable']);
    assert.equal(body.edgeCounts.replaces, 4);
    assert.equal(body.edgeCounts.skipRange, 4, '1.0.0 to 1.3.0 are inside >=1.0.0 <1.4.0');
    assert.ok(
      body.edges.some((e) => e.from === 'pgpilot.v1.3.0' && e.to === 'pgpilot.v1.4.0' && e.kind === 'replaces'),
    );
    assert.ok(
      body.edges.some((e) => e.from === 'pgpilot.v1.0.0' && e.to === 'pgpilot.v1.4.0' && e.kind === 'skipRange'),
    );
    const v10 = body.nodes.find((n) => n.version === '1.0.0')!;
    assert.deepEqual(v10.coveredBySkipRangeOf, ['pgpilot.v1.4.0']);
    assert.deepEqual(v10.channels, ['fast', 'stable'], 'candidate holds only the release candidate');
  });

  test('the path OLM walks: one step by skipRange from 1.0.0 to the head of stable', async () => {
    const { body } = await get('pgpilot', '?from=1.0.0');
    assert.deepEqual(
      body.path?.steps.map((s) => [s.from, s.to, s.via]),
      [['pgpilot.v1.0.0', 'pgpilot.v1.4.0', ['skipRange']]],
    );
    assert.equal(body.path?.reachesHead, true);
    const fast = await get('pgpilot', '?channel=fast&from=pgpilot.v1.1.0');
    assert.deepEqual(
      fast.body.path?.steps.map((s) => s.to),
      ['pgpilot.v1.4.0', 'pgpilot.v1.5.0'],
    );
  });

  test('a skipped bundle is never an upgrade target, and says why', async () => {
    const { body } = await get('cachely');
    const skipped = body.nodes.find((n) => n.version === '0.9.1')!;
    assert.deepEqual(skipped.skippedBy, ['cachely.v0.9.2']);
    assert.match(skipped.neverTarget!, /skipped by cachely\.v0\.9\.2/);
    assert.ok(body.edges.some((e) => e.kind === 'skips' && e.from === 'cachely.v0.9.1' && e.to === 'cachely.v0.9.2'));
    assert.equal(body.nodes.find((n) => n.version === '0.9.2')!.neverTarget, undefined);
  });

  test('unknown channel or starting version: 404 naming what exists', async () => {
    const ch = await get('pgpilot', '?channel=beta');
    assert.equal(ch.status, 404);
    assert.match(ch.body.error.message, /its channels are candidate, fast, stable/);
    const from = await get('pgpilot', '?from=pgpilot.v0.1.0');
    assert.equal(from.status, 404);
    assert.match(from.body.error.message, /no version or CSV pgpilot\.v0\.1\.0/);
  });
});
