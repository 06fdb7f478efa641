import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { errorFromNetwork, errorFromResponse } from './errors';

describe('errorFromResponse', () => {
  test('a Status body is passed on with its code, reason and message', () => {
    const e = errorFromResponse(
      409,
      {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: 409,
        reason: 'AlreadyExists',
        message: 'subscriptions.operators.coreos.com "etcd" already exists',
        details: { name: 'etcd', kind: 'subscriptions' },
      },
      'create subscription',
    );
    assert.equal(e.code, 409);
    assert.equal(e.reason, 'AlreadyExists');
    assert.equal(e.message, 'subscriptions.operators.coreos.com "etcd" already exists');
    assert.deepEqual(e.toJSON().details, { name: 'etcd', kind: 'subscriptions' });
  });

  test('a body that is not a Status still keeps the HTTP code and says what failed', () => {
    const e = errorFromResponse(502, '<html>bad gateway</html>', 'list namespaces');
    assert.equal(e.code, 502);
    assert.match(e.message, /^list namespaces: <html>bad gateway/);
    const f = errorFromResponse(403, undefined, 'get csv');
    assert.equal(f.reason, 'Forbidden');
    assert.equal(f.message, 'get csv: HTTP 403');
  });
});

describe('errorFromNetwork', () => {
  test('a refused connection is 503 naming the server', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const e = errorFromNetwork(err, 'https://127.0.0.1:1');
    assert.equal(e.code, 503);
    assert.equal(e.message, 'cannot reach the cluster at https://127.0.0.1:1 (ECONNREFUSED)');
  });

  test('a timeout is 504, a TLS failure 502', () => {
    assert.equal(errorFromNetwork(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), 's').code, 504);
    const tls = errorFromNetwork(
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      's',
    );
    assert.equal(tls.code, 502);
    assert.match(tls.message, /TLS/);
  });
});

describe('a KubeError from another copy of the module', () => {
  test('is still a KubeError (Next.js may load lib/k8s once per route bundle)', async () => {
    const mine = await import('./errors');
    // A second bundle's copy: the same source loaded from another file.
    const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
    copyFileSync(new URL('./errors.ts', import.meta.url), join(dir, 'errors.ts'));
    const other = (await import(pathToFileURL(join(dir, 'errors.ts')).href)) as typeof mine;
    assert.notEqual(other.KubeError, mine.KubeError, 'two copies of the class');
    const e = other.errorFromResponse(403, { kind: 'Status', code: 403, reason: 'Forbidden', message: 'no' }, 'get x');
    assert.ok(mine.isKubeError(e, 403));
    assert.ok(e instanceof mine.KubeError);
    assert.equal(new Error('x') instanceof mine.KubeError, false);
  });
});
