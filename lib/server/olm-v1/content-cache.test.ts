// One catalog's address the console will not read (an object's status can say anything) is that
// catalog's "not read", with the reason, and never a failure of the whole list.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, mock, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { bundleCopy } from '../testing/bundle-copy';
import { catalogContent } from './content-cache';

describe('catalog content, by address', () => {
  test('an address that is not HTTPS is not read, and says why', async () => {
    const index = await catalogContent(new KubeConfig(), 'http://169.254.169.254/catalogs/a', 'r@sha256:1', 't');
    assert.deepEqual(index.summary, {
      read: false,
      why: 'status.urls.base is http; the console reads content over HTTPS only',
    });
  });

  test('a content server that does not answer is named in the reason', async () => {
    const index = await catalogContent(new KubeConfig(), 'https://127.0.0.1:1/catalogs/a', 'r@sha256:2', 't');
    assert.equal(index.summary.read, false);
    if (!index.summary.read) assert.match(index.summary.why, /content server at 127\.0\.0\.1:1 could not be read/);
  });

  test('a refused address is not asked again; an unreachable server is, after a while', async () => {
    mock.timers.enable({ apis: ['Date'] });
    try {
      const refused = () => catalogContent(new KubeConfig(), 'http://catalogd.example/catalogs/b', 'r@sha256:3', 't');
      const unreachable = () => catalogContent(new KubeConfig(), 'https://127.0.0.1:1/catalogs/b', 'r@sha256:4', 't');
      const [r1, u1] = [refused(), unreachable()];
      await Promise.all([r1, u1]);
      mock.timers.tick(16_000);
      assert.equal(refused(), r1);
      assert.notEqual(unreachable(), u1);
    } finally {
      mock.timers.reset();
    }
  });

  test('a second copy of the module, as each route bundle loads, answers from the same cache', async () => {
    const copy = await bundleCopy<typeof import('./content-cache')>(join(import.meta.dirname, 'content-cache.ts'));
    assert.notEqual(copy.catalogContent, catalogContent, 'two copies of the module');
    const args = ['http://catalogd.example/catalogs/shared', 'r@sha256:5', 't'] as const;
    const first = catalogContent(new KubeConfig(), ...args);
    assert.equal(copy.catalogContent(new KubeConfig(), ...args), first, 'not read a second time');
  });
});
