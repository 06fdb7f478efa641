import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { channelHeads, findChannelProblems } from './channel-problems';

describe('channelHeads', () => {
  test('the entry nobody replaces or skips is the head; skipRange makes no incoming edge', () => {
    const entries = [
      { name: 'a.v3', replaces: 'a.v2', skipRange: '<3.0.0' },
      { name: 'a.v2', replaces: 'a.v1' },
      { name: 'a.v1' },
    ];
    assert.deepEqual(channelHeads(entries), ['a.v3']);
  });

  test('a skipped entry is not a head', () => {
    assert.deepEqual(channelHeads([{ name: 'b', skips: ['a'] }, { name: 'a' }]), ['b']);
  });
});

describe('findChannelProblems', () => {
  test('a healthy channel has none, even when the tail replaces a bundle not in the channel', () => {
    assert.deepEqual(
      findChannelProblems([
        { name: 'x.v2', replaces: 'x.v1' },
        { name: 'x.v1', replaces: 'x.v0' },
      ]),
      [],
    );
  });

  test('an empty channel', () => {
    assert.equal(findChannelProblems([])[0]?.kind, 'empty');
  });

  test('several heads are named, sorted, in opm words', () => {
    const [p] = findChannelProblems([{ name: 'b.v1' }, { name: 'a.v1' }]);
    assert.equal(p?.kind, 'multiple-heads');
    assert.equal(p?.message, 'multiple channel heads found in graph: a.v1, b.v1');
    assert.deepEqual(p?.bundles, ['a.v1', 'b.v1']);
  });

  test('no head at all when every entry is replaced', () => {
    const [p] = findChannelProblems([
      { name: 'a', replaces: 'b' },
      { name: 'b', replaces: 'a' },
    ]);
    assert.equal(p?.kind, 'no-head');
    assert.equal(p?.message, 'no channel head found in graph');
  });

  test('a cycle below the head is reported with its path', () => {
    const [p] = findChannelProblems([
      { name: 'h', replaces: 'a' },
      { name: 'a', replaces: 'b' },
      { name: 'b', replaces: 'a' },
    ]);
    assert.equal(p?.kind, 'cycle');
    assert.match(p?.message ?? '', /cycle/);
    assert.match(p?.message ?? '', /a -> b -> a/);
  });

  test('skipRange alone attaches no bundle: it is a second head, or stranded', () => {
    const [p] = findChannelProblems([{ name: 'v2', skipRange: '<2.0.0' }, { name: 'v1' }]);
    // v1 is not replaced or skipped by anyone, so it is a second head rather than stranded
    assert.equal(p?.kind, 'multiple-heads');
    const [q] = findChannelProblems([
      { name: 'v3', replaces: 'v2', skips: ['v1'] },
      { name: 'v2' },
      { name: 'v1', replaces: 'v0' },
      { name: 'v0', skipRange: '<0.0.1' },
    ]);
    // the head walks v3 -> v2; v1 is skipped (fine); v0 is replaced by v1 only, which the walk never follows
    assert.equal(q?.kind, 'stranded');
    assert.equal(q?.message, 'channel contains one or more stranded bundles: v0');
  });

  test('the walk stops at a replaces target that some entry skips', () => {
    // v2 replaces v1, v3 skips v1: v1 is not walked, and is not stranded either (it is skipped)
    assert.deepEqual(
      findChannelProblems([
        { name: 'v3', replaces: 'v2', skips: ['v1'] },
        { name: 'v2', replaces: 'v1' },
        { name: 'v1' },
      ]),
      [],
    );
  });
});
