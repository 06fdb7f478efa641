import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChannelEntry } from '../fbc/types';
import { buildChannelGraph, type GraphBundleFacts } from './channel-graph';
import {
  acceptsInstalled,
  channelSwitch,
  freshInstallTarget,
  nextUpdate,
  nextUpdateAcrossChannels,
  startingCsvChoices,
  updatePath,
} from './update-path';

function graph(channelName: string, entries: ChannelEntry[], versions: Record<string, string>, legacy: string[] = []) {
  const bundles = new Map<string, GraphBundleFacts>(
    Object.entries(versions).map(([name, version]) => [name, { version, legacyDeprecated: legacy.includes(name) }]),
  );
  return buildChannelGraph({ packageName: 'pkg', channelName, entries, bundles });
}

const steps = (p: ReturnType<typeof updatePath>) => p.steps.map((s) => s.to);

describe('the documented examples (docs/olm/upgrade-graphs.md#update-paths)', () => {
  test('0.1.1 → 0.1.2 → 0.1.3: one replaces edge per InstallPlan', () => {
    const g = graph(
      'alpha',
      [
        { name: 'op.v0.1.3', replaces: 'op.v0.1.2' },
        { name: 'op.v0.1.2', replaces: 'op.v0.1.1' },
        { name: 'op.v0.1.1' },
      ],
      { 'op.v0.1.1': '0.1.1', 'op.v0.1.2': '0.1.2', 'op.v0.1.3': '0.1.3' },
    );
    const next = nextUpdate(g, { name: 'op.v0.1.1', version: '0.1.1' });
    assert.equal(next.kind === 'update' && next.step.to, 'op.v0.1.2', 'not the head: 0.1.3 does not replace 0.1.1');
    const path = updatePath(g, { name: 'op.v0.1.1', version: '0.1.1' });
    assert.deepEqual(steps(path), ['op.v0.1.2', 'op.v0.1.3']);
    assert.equal(path.reachesHead, true);
  });

  test('etcdoperator.v0.9.0 updates straight to v0.9.2, which skips v0.9.1', () => {
    const g = graph(
      'alpha',
      [
        { name: 'etcdoperator.v0.9.0' },
        { name: 'etcdoperator.v0.9.1', replaces: 'etcdoperator.v0.9.0' },
        { name: 'etcdoperator.v0.9.2', replaces: 'etcdoperator.v0.9.0', skips: ['etcdoperator.v0.9.1'] },
      ],
      { 'etcdoperator.v0.9.0': '0.9.0', 'etcdoperator.v0.9.1': '0.9.1', 'etcdoperator.v0.9.2': '0.9.2' },
    );
    assert.deepEqual(steps(updatePath(g, { name: 'etcdoperator.v0.9.0', version: '0.9.0' })), ['etcdoperator.v0.9.2']);
    const from091 = nextUpdate(g, { name: 'etcdoperator.v0.9.1', version: '0.9.1' });
    assert.ok(from091.kind === 'update');
    assert.equal(from091.step.to, 'etcdoperator.v0.9.2');
    assert.deepEqual(from091.step.via, ['skips']);
  });

  test('a skipRange head takes every version in its range in one step', () => {
    const entries = [
      { name: 'op.v1.4.0', replaces: 'op.v1.3.0', skipRange: '>=1.0.0 <1.4.0' },
      { name: 'op.v1.3.0', replaces: 'op.v1.2.0' },
      { name: 'op.v1.2.0', replaces: 'op.v1.1.0' },
      { name: 'op.v1.1.0' },
    ];
    const g = graph('stable', entries, {
      'op.v1.4.0': '1.4.0',
      'op.v1.3.0': '1.3.0',
      'op.v1.2.0': '1.2.0',
      'op.v1.1.0': '1.1.0',
    });
    for (const [name, version] of [
      ['op.v1.1.0', '1.1.0'],
      ['op.v1.2.0', '1.2.0'],
      ['op.v1.3.0', '1.3.0'],
      ['op.v1.0.5', '1.0.5'],
    ] as const) {
      const p = updatePath(g, { name, version });
      assert.deepEqual(steps(p), ['op.v1.4.0'], `${name} goes to the head in one step`);
    }
    // v1.2.0 is also replaced by v1.3.0, but the entry nearest the head wins
    const n = nextUpdate(g, { name: 'op.v1.3.0', version: '1.3.0' });
    assert.ok(n.kind === 'update');
    assert.deepEqual(n.step.via, ['replaces', 'skipRange']);
  });
});

describe('nextUpdate', () => {
  const entries = [
    { name: 'a.v3', replaces: 'a.v2', skipRange: 'not a range' },
    { name: 'a.v2', replaces: 'a.v1' },
    { name: 'a.v1' },
  ];
  const versions = { 'a.v3': '3.0.0', 'a.v2': '2.0.0', 'a.v1': '1.0.0' };

  test('an invalid skipRange is ignored, silently, as OLM does', () => {
    const g = graph('c', entries, versions);
    assert.deepEqual(steps(updatePath(g, { name: 'a.v1', version: '1.0.0' })), ['a.v2', 'a.v3']);
    assert.deepEqual(acceptsInstalled({ skipRange: '>=1.0 <2.0.0' }, { name: 'x', version: '1.5.0' }), []);
  });

  test('the head has nothing newer', () => {
    assert.deepEqual(nextUpdate(graph('c', entries, versions), { name: 'a.v3', version: '3.0.0' }), { kind: 'none' });
  });

  test('a CSV no entry replaces, skips or covers stays where it is (stranded in this channel)', () => {
    const p = updatePath(graph('c', entries, versions), { name: 'other.v9', version: '9.0.0' });
    assert.deepEqual(p.steps, []);
    assert.equal(p.reachesHead, false);
  });

  test('installed versions are read tolerantly (v prefix), as OLM reads spec.version', () => {
    const g = graph('c', [{ name: 'b.v2', skipRange: '<2.0.0' }], { 'b.v2': '2.0.0' });
    const n = nextUpdate(g, { name: 'b.v1', version: 'v1.5' });
    assert.equal(n.kind === 'update' && n.step.to, 'b.v2');
  });

  test('a legacy olm.deprecated entry is passed over for the next candidate', () => {
    const g = graph(
      'c',
      [{ name: 'd.v3', replaces: 'd.v2', skipRange: '<3.0.0' }, { name: 'd.v2', replaces: 'd.v1' }, { name: 'd.v1' }],
      { 'd.v3': '3.0.0', 'd.v2': '2.0.0', 'd.v1': '1.0.0' },
      ['d.v3'],
    );
    const n = nextUpdate(g, { name: 'd.v1', version: '1.0.0' });
    assert.equal(n.kind === 'update' && n.step.to, 'd.v2');
  });

  test('a channel with two heads reports the resolver error', () => {
    const g = graph('c', [{ name: 'x.v2', replaces: 'x.v1' }, { name: 'x.v1' }, { name: 'y.v1' }], {
      'x.v2': '2.0.0',
      'x.v1': '1.0.0',
      'y.v1': '1.0.0',
    });
    const n = nextUpdate(g, { name: 'x.v1', version: '1.0.0' });
    assert.equal(n.kind, 'error');
    assert.match(n.kind === 'error' ? n.message : '', /replacement chains were found in channel "c"/);
  });

  test('pre-release versions sit inside ranges (blang, unlike npm)', () => {
    const g = graph('c', [{ name: 'p.v2', skipRange: '<2.0.0' }], { 'p.v2': '2.0.0' });
    assert.equal(nextUpdate(g, { name: 'p.v2-rc1', version: '2.0.0-rc.1' }).kind, 'update');
  });
});

describe('nextUpdateAcrossChannels (spec.channel empty)', () => {
  const stable = graph('stable', [{ name: 's.v2', skipRange: '<2.0.0' }], { 's.v2': '2.0.0' });
  const alpha = graph('alpha', [{ name: 's.v3-alpha', skipRange: '<3.0.0' }], { 's.v3-alpha': '3.0.0-alpha' });
  const beta = graph('beta', [{ name: 's.v2-beta', skipRange: '<2.0.0' }], { 's.v2-beta': '2.0.0-beta' });

  test('the default channel is tried first', () => {
    const n = nextUpdateAcrossChannels([alpha, beta, stable], 'stable', { name: 's.v1', version: '1.0.0' });
    assert.equal(n.kind === 'update' && n.step.channel, 'stable');
  });

  test('then the others by name', () => {
    const n = nextUpdateAcrossChannels([beta, alpha], 'stable', { name: 's.v1', version: '1.0.0' });
    assert.equal(n.kind === 'update' && n.step.channel, 'alpha');
  });
});

describe('fresh installs', () => {
  const g = graph(
    'c',
    [{ name: 'f.v3', replaces: 'f.v2' }, { name: 'f.v2', replaces: 'f.v1', skips: ['f.v1'] }, { name: 'f.v1' }],
    { 'f.v3': '3.0.0', 'f.v2': '2.0.0', 'f.v1': '1.0.0' },
  );

  test('without startingCSV OLM installs the head', () => {
    assert.deepEqual(freshInstallTarget(g), { name: 'f.v3' });
  });

  test('startingCSV may name any entry, even a skipped one, and the walk goes on from there', () => {
    assert.deepEqual(
      startingCsvChoices(g)
        .map((n) => n.name)
        .sort(),
      ['f.v1', 'f.v2', 'f.v3'],
    );
    assert.deepEqual(steps(updatePath(g, { name: 'f.v1', version: '1.0.0' })), ['f.v2', 'f.v3']);
  });
});

test('channel switches: the installed CSV in the channel, an upgrade from it, or nothing', () => {
  const bundles = new Map([
    ['a.v1', { version: '1.0.0' }],
    ['a.v2', { version: '2.0.0' }],
    ['a.v3', { version: '3.0.0' }],
  ]);
  const stable = buildChannelGraph({
    packageName: 'a',
    channelName: 'stable',
    entries: [{ name: 'a.v1' }, { name: 'a.v2', replaces: 'a.v1' }],
    bundles,
  });
  const fast = buildChannelGraph({
    packageName: 'a',
    channelName: 'fast',
    entries: [{ name: 'a.v3', skipRange: '>=1.0.0 <3.0.0' }],
    bundles,
  });
  const island = buildChannelGraph({ packageName: 'a', channelName: 'island', entries: [{ name: 'a.v3' }], bundles });
  assert.deepEqual(channelSwitch(stable, { name: 'a.v1', version: '1.0.0' }), {
    ok: true,
    via: 'member',
    next: 'a.v2',
  });
  assert.deepEqual(channelSwitch(stable, { name: 'a.v2', version: '2.0.0' }), { ok: true, via: 'member' });
  assert.deepEqual(channelSwitch(fast, { name: 'a.v1', version: '1.0.0' }), { ok: true, via: 'update', next: 'a.v3' });
  const no = channelSwitch(island, { name: 'a.v1', version: '1.0.0' });
  assert.equal(no.ok, false);
  assert.match((no as { message: string }).message, /neither contains a\.v1/);
});
