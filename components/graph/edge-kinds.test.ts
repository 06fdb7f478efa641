import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addCounts, hiddenKinds, shownParam, startsHidden } from './edge-kinds';

test('a channel with up to 50 skip edges shows every kind; past 50 the skip kinds it has start hidden', () => {
  assert.deepEqual(startsHidden({ replaces: 80, skips: 30, skipRange: 20 }), []);
  assert.deepEqual(startsHidden({ replaces: 81, skips: 400, skipRange: 17 }), ['skips', 'skipRange']);
  assert.deepEqual(startsHidden({ replaces: 81, skips: 0, skipRange: 51 }), ['skipRange'], 'no empty kind to hide');
});

test("the person's choice in the URL wins over the default, and goes back into the URL unchanged", () => {
  const many = { replaces: 81, skips: 400, skipRange: 17 };
  assert.deepEqual(hiddenKinds(null, many), ['skips', 'skipRange']);
  assert.deepEqual(hiddenKinds('replaces,skips,skipRange', many), []);
  assert.deepEqual(hiddenKinds('skips,bogus', many), ['replaces', 'skipRange']);
  assert.deepEqual(hiddenKinds('none', many), ['replaces', 'skips', 'skipRange']);
  assert.equal(shownParam(['replaces', 'skips', 'skipRange']), 'none');
  assert.deepEqual(hiddenKinds(shownParam(['skipRange']), many), ['skipRange']);
});

test('overlaid channels count together', () => {
  assert.deepEqual(
    addCounts([
      { replaces: 1, skips: 30, skipRange: 0 },
      { replaces: 2, skips: 30, skipRange: 4 },
    ]),
    { replaces: 3, skips: 60, skipRange: 4 },
  );
});
