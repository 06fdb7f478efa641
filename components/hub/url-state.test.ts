import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readViewState, toggle, writeViewState } from './url-state';

test('the view state goes through the URL and back unchanged', () => {
  const params = new URLSearchParams(
    'q=post&category=Database&category=Security&installMode=OwnNamespace&sort=provider&namespace=team1',
  );
  const state = readViewState(params);
  assert.equal(state.q, 'post');
  assert.deepEqual(state.filters.category, ['Database', 'Security']);
  assert.equal(state.sort, 'provider');
  const back = writeViewState(state, params);
  assert.equal(
    back.toString(),
    'namespace=team1&q=post&category=Database&category=Security&installMode=OwnNamespace&sort=provider',
  );
});

test('unknown sorts are ignored; toggling adds and removes a value', () => {
  const state = readViewState(new URLSearchParams('sort=price'));
  assert.equal(state.sort, undefined);
  const on = toggle(state, 'capability', 'Auto Pilot');
  assert.deepEqual(on.filters.capability, ['Auto Pilot']);
  assert.deepEqual(toggle(on, 'capability', 'Auto Pilot').filters.capability, []);
});
