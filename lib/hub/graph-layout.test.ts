import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphViewNode } from './catalog-types';
import { byVersion, layoutChannel } from './graph-layout';

const node = (name: string, version?: string, extra: Partial<GraphViewNode> = {}): GraphViewNode => ({
  name,
  version,
  isHead: false,
  legacyDeprecated: false,
  skips: [],
  replacedBy: [],
  skippedBy: [],
  coveredBySkipRangeOf: [],
  channels: ['stable'],
  ...extra,
});

test('versions run oldest to newest by semver precedence, pre-releases before their release', () => {
  const order = byVersion([
    node('a.v1.10.0', '1.10.0'),
    node('a.v1.2.0', '1.2.0'),
    node('a.v2.0.0', '2.0.0'),
    node('a.v2.0.0-rc.1', '2.0.0-rc.1'),
    node('odd'),
  ]);
  assert.deepEqual(
    order.map((n) => n.name),
    ['a.v1.2.0', 'a.v1.10.0', 'a.v2.0.0-rc.1', 'a.v2.0.0', 'odd'],
  );
});

test('one column per version; bundles OLM never upgrades to sit on their own lane', () => {
  const pos = layoutChannel(
    [
      node('a.v1.0.0', '1.0.0'),
      node('a.v1.1.0', '1.1.0', { neverTarget: 'skipped by a.v1.2.0' }),
      node('a.v1.2.0', '1.2.0', { isHead: true }),
    ],
    { gapX: 100, laneY: 50 },
  );
  assert.deepEqual(pos.get('a.v1.0.0'), { x: 0, y: 0 });
  assert.deepEqual(pos.get('a.v1.1.0'), { x: 100, y: 50 });
  assert.deepEqual(pos.get('a.v1.2.0'), { x: 200, y: 0 });
});
