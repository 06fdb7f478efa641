import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KubeError } from '../k8s/errors';
import { route, type RouteContext } from './route';

const req = new Request('http://console.test/api/example');

describe('route', () => {
  test("a handler's answer passes through untouched", async () => {
    const res = await route(async () => new Response('made', { status: 201 }))(req);
    assert.equal(res.status, 201);
    assert.equal(await res.text(), 'made');
  });

  test('a Kubernetes error thrown by a handler keeps its code and reason, never cached', async () => {
    const handler = route(async () => {
      throw new KubeError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
    });
    const res = await handler(req);
    assert.equal(res.status, 409);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await res.json(), {
      error: { code: 409, reason: 'Conflict', message: 'the object has been modified' },
    });
  });

  test('a bug becomes a 500 that says what failed, without a stack', async () => {
    const res = await route(async () => JSON.parse('{'))(req);
    assert.equal(res.status, 500);
    const body = (await res.json()) as { error: { reason: string; message: string } };
    assert.equal(body.error.reason, 'InternalError');
    assert.match(body.error.message, /^the console failed: /);
    assert.doesNotMatch(body.error.message, /\n\s+at /);
  });

  test('a path handler is given the path segments Next.js routed', async () => {
    const handler = route(async (_req: Request, ctx: RouteContext) => Response.json(await ctx.params));
    const res = await handler(req, { params: Promise.resolve({ namespace: 'team1' }) });
    assert.deepEqual(await res.json(), { namespace: 'team1' });
  });
});
