import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { replacementChain } from './replacement-chain';

describe('replacementChain (the resolver order)', () => {
  test('walks replaces from the head and leaves skipped entries out', () => {
    const r = replacementChain('etcd', 'alpha', [
      { name: 'etcdoperator.v0.9.0' },
      { name: 'etcdoperator.v0.9.1', replaces: 'etcdoperator.v0.9.0' },
      { name: 'etcdoperator.v0.9.2', replaces: 'etcdoperator.v0.9.0', skips: ['etcdoperator.v0.9.1'] },
    ]);
    assert.deepEqual(r, { order: ['etcdoperator.v0.9.2', 'etcdoperator.v0.9.0'] });
  });

  test('a skipped entry on the chain is walked through, not listed', () => {
    const r = replacementChain('p', 'c', [
      { name: 'v3', replaces: 'v2', skips: ['v2'] },
      { name: 'v2', replaces: 'v1' },
      { name: 'v1' },
    ]);
    assert.deepEqual(r, { order: ['v3', 'v1'] });
  });

  test('two heads are an error naming both chains', () => {
    const r = replacementChain('p', 'c', [{ name: 'a2', replaces: 'a1' }, { name: 'a1' }, { name: 'b1' }]);
    assert.ok('error' in r);
    assert.match(r.error, /a unique replacement chain within a channel is required/);
    assert.match(r.error, /2 replacement chains were found in channel "c" of package "p": a2\.\.\.a1, b1/);
  });

  test('no head is an error', () => {
    const r = replacementChain('p', 'c', [
      { name: 'a', replaces: 'b' },
      { name: 'b', replaces: 'a' },
    ]);
    assert.ok('error' in r);
    assert.match(r.error, /no channel heads/);
  });

  test('a cycle below the head is an error', () => {
    const r = replacementChain('p', 'c', [
      { name: 'h', replaces: 'a' },
      { name: 'a', replaces: 'b' },
      { name: 'b', replaces: 'a' },
    ]);
    assert.ok('error' in r);
    assert.match(r.error, /cycle/);
  });

  test('replaces naming a bundle outside the channel ends the chain', () => {
    assert.deepEqual(
      replacementChain('p', 'c', [
        { name: 'v2', replaces: 'v1' },
        { name: 'v1', replaces: 'v0' },
      ]),
      { order: ['v2', 'v1'] },
    );
  });
});
