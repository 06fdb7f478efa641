import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { KubeError } from '../k8s/errors';
import { ApiError, dnsLabel, errorResponse, readJson, readQuery } from './api-error';

describe('errorResponse', () => {
  test('a Kubernetes error keeps its code, reason and message', async () => {
    const res = errorResponse(
      new KubeError({
        code: 403,
        reason: 'Forbidden',
        message: 'subscriptions is forbidden: User "bob" cannot create',
      }),
    );
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), {
      error: { code: 403, reason: 'Forbidden', message: 'subscriptions is forbidden: User "bob" cannot create' },
    });
  });

  test('an error answer is never stored by a browser or a proxy', () => {
    for (const err of [
      new ApiError(401, 'Unauthorized', 'log in'),
      new ApiError(403, 'Forbidden', 'no'),
      new Error('x'),
    ]) {
      assert.equal(errorResponse(err).headers.get('cache-control'), 'no-store');
    }
  });

  test('an unexpected error is a 500 that says what failed', async () => {
    const res = errorResponse(new TypeError('x is undefined'));
    assert.equal(res.status, 500);
    assert.match((await res.json()).error.message, /x is undefined/);
  });
});

describe('readJson', () => {
  const schema = z.object({ namespace: dnsLabel, channel: z.string() });

  test('a body that fits is returned typed', async () => {
    const req = new Request('http://x/api', {
      method: 'POST',
      body: JSON.stringify({ namespace: 'team1', channel: 'stable' }),
    });
    assert.deepEqual(await readJson(req, schema), { namespace: 'team1', channel: 'stable' });
  });

  test('a body nested 400,000 deep is a 400 that says so, not a stack overflow', async () => {
    const deep = '['.repeat(400_000) + ']'.repeat(400_000);
    const req = new Request('http://x/api', { method: 'POST', body: deep });
    await assert.rejects(
      readJson(req, z.unknown()),
      (e: unknown) => e instanceof ApiError && e.code === 400 && /nests deeper than 256/.test(e.message),
    );
    const fine = `{"a":${'['.repeat(200)}1${']'.repeat(200)}}`;
    assert.ok(
      await readJson(new Request('http://x/api', { method: 'POST', body: fine }), z.object({ a: z.unknown() })),
    );
  });

  test('a bad field is a 400 naming the field', async () => {
    const req = new Request('http://x/api', {
      method: 'POST',
      body: JSON.stringify({ namespace: 'Team_1', channel: 'stable' }),
    });
    const err = await readJson(req, schema).catch((e: unknown) => e);
    const res = errorResponse(err);
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.match(body.error.message, /^namespace: must be lowercase/);
  });

  test('a body that is not JSON is a 400', async () => {
    const err = await readJson(new Request('http://x', { method: 'POST', body: '{nope' }), schema).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 400);
  });
});

describe('readQuery', () => {
  test('repeated parameters become lists', () => {
    const q = readQuery(
      'http://x/api?catalog=a&catalog=b&q=redis',
      z.object({ catalog: z.union([z.string(), z.array(z.string())]), q: z.string() }),
    );
    assert.deepEqual(q, { catalog: ['a', 'b'], q: 'redis' });
  });
});
