// The retry policy: which failures are sent again for which requests, how long it waits
// (backoff, Retry-After, caps), when it stops; then the same through http.ts and client.ts
// against a scripted HTTP server (lost answers, resets, AlreadyExists after a lost create, 404
// after a lost delete).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type ResourceType } from './client';
import { errorFromNetwork, errorFromResponse, isKubeError, KubeError } from './errors';
import { kubeRequest } from './http';
import {
  backoffMs,
  classifyFailure,
  DEFAULT_RETRY_POLICY,
  isObjectWeSent,
  parseRetryAfter,
  retryModeFor,
  setRetryPolicy,
  withRetry,
  type RetryMode,
  type RetryPolicy,
} from './retry';

const status = (code: number, reason: string, message = `${reason} happened`, details?: unknown) =>
  errorFromResponse(code, { kind: 'Status', code, reason, message, details }, 'x');
const net = (code: string) => errorFromNetwork(Object.assign(new Error(code), { code }), 'https://cluster');

/** Runs withRetry over scripted outcomes with a fake clock: attempts made, waits asked for, result. */
async function run(mode: RetryMode, outcomes: (KubeError | Error | 'ok')[], policy: Partial<RetryPolicy> = {}) {
  let t = 0;
  const waits: number[] = [];
  let attempts = 0;
  const p = { ...DEFAULT_RETRY_POLICY, ...policy };
  const result = await withRetry(
    async () => {
      const o = outcomes[attempts++] ?? 'ok';
      if (o !== 'ok') throw o;
      return 'done';
    },
    { mode, policy: p, now: () => t, random: () => 1, sleep: async (ms) => void (waits.push(ms), (t += ms)) },
  ).catch((e: unknown) => e);
  return { attempts, waits, result };
}

describe('withRetry', () => {
  test('reads are sent again after 429, 5xx and lost connections, with growing waits', async () => {
    const r = await run('idempotent', [
      status(500, 'InternalError'),
      status(503, 'ServiceUnavailable'),
      net('ECONNRESET'),
      status(429, 'TooManyRequests'),
      net('ECONNREFUSED'),
      'ok',
    ]);
    assert.equal(r.result, 'done');
    assert.equal(r.attempts, 6);
    assert.deepEqual(r.waits, [100, 200, 400, 800, 1600]);
    for (const code of [502, 504]) assert.equal((await run('idempotent', [status(code, 'X'), 'ok'])).attempts, 2);
  });

  test('Retry-After is waited for instead of the backoff; one longer than the cap fails at once', async () => {
    const asked = Object.assign(status(429, 'TooManyRequests'), { retryAfterMs: 1500 });
    const r = await run('idempotent', [asked, 'ok']);
    assert.deepEqual(r.waits, [1500]);
    const tooLong = Object.assign(status(429, 'TooManyRequests'), { retryAfterMs: 60_000 });
    const s = await run('idempotent', [tooLong, 'ok']);
    assert.equal(s.attempts, 1);
    assert.equal(s.result, tooLong);
    // Retry-After: 0 falls back to the backoff rather than hammering the server.
    assert.deepEqual(
      (await run('idempotent', [Object.assign(status(503, 'ServiceUnavailable'), { retryAfterMs: 0 }), 'ok'])).waits,
      [100],
    );
  });

  test('a 4xx other than 429 is the answer: never sent again', async () => {
    for (const [code, reason] of [
      [400, 'BadRequest'],
      [401, 'Unauthorized'],
      [403, 'Forbidden'],
      [404, 'NotFound'],
      [409, 'Conflict'],
      [410, 'Expired'],
      [422, 'Invalid'],
    ] as const) {
      const err = status(code, reason);
      const r = await run('idempotent', [err, 'ok']);
      assert.equal(r.attempts, 1, `${code}`);
      assert.equal(r.result, err);
      assert.equal(err.message, `${reason} happened`, 'the message is left as the server wrote it');
    }
    // A TLS failure or a bug is not transient either.
    assert.equal((await run('idempotent', [net('DEPTH_ZERO_SELF_SIGNED_CERT'), 'ok'])).attempts, 1);
    assert.equal((await run('idempotent', [new TypeError('bug'), 'ok'])).attempts, 1);
  });

  test('gives up after maxAttempts, keeping the code, reason and message and saying how often it tried', async () => {
    const errs = Array.from({ length: 10 }, () => status(500, 'InternalError', 'Internal error occurred: etcd'));
    const r = await run('idempotent', errs);
    assert.equal(r.attempts, 6);
    const e = r.result as KubeError;
    assert.equal(e, errs[5]);
    assert.equal(e.code, 500);
    assert.equal(e.reason, 'InternalError');
    assert.equal(e.message, 'Internal error occurred: etcd (tried 6 times in 3.1 s)');
    assert.equal(e.attempts, 6);
    assert.deepEqual(e.toJSON(), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: etcd (tried 6 times in 3.1 s)',
    });
  });

  test('no retry starts past the time budget', async () => {
    const errs = Array.from({ length: 10 }, () =>
      Object.assign(status(429, 'TooManyRequests'), { retryAfterMs: 4000 }),
    );
    const r = await run('idempotent', errs, { budgetMs: 10_000 });
    assert.deepEqual(r.waits, [4000, 4000], 'a third wait would end past 10 s');
    assert.equal(r.attempts, 3);
  });

  test('waits are jittered within [d/2, d] and capped', () => {
    assert.equal(
      backoffMs(1, DEFAULT_RETRY_POLICY, () => 0),
      50,
    );
    assert.equal(
      backoffMs(1, DEFAULT_RETRY_POLICY, () => 1),
      100,
    );
    assert.equal(
      backoffMs(3, DEFAULT_RETRY_POLICY, () => 0.5),
      300,
    );
    assert.equal(
      backoffMs(20, DEFAULT_RETRY_POLICY, () => 1),
      2000,
    );
  });

  test('unsafe writes are sent again only when the server did not process them', async () => {
    assert.equal((await run('unsafe', [status(429, 'TooManyRequests'), net('ECONNREFUSED'), 'ok'])).result, 'done');
    for (const err of [
      status(500, 'InternalError'),
      status(503, 'ServiceUnavailable'),
      status(504, 'Timeout'),
      net('ECONNRESET'),
      net('ETIMEDOUT'),
    ]) {
      const r = await run('unsafe', [err, 'ok']);
      assert.equal(r.attempts, 1, err.message);
    }
    assert.equal((await run('none', [status(429, 'TooManyRequests'), 'ok'])).attempts, 1);
  });

  test('a 409 after an attempt whose answer was lost is marked for the caller; after a 429 it is not', async () => {
    const lost = await run('create', [status(500, 'InternalError'), status(409, 'AlreadyExists')]);
    assert.equal(lost.attempts, 2);
    assert.equal((lost.result as KubeError).earlierAttemptUncertain, true);
    const throttled = await run('create', [status(429, 'TooManyRequests'), status(409, 'AlreadyExists')]);
    assert.equal((throttled.result as KubeError).earlierAttemptUncertain, undefined);
  });

  test('an aborted request stops retrying', async () => {
    const ac = new AbortController();
    let n = 0;
    const err = await withRetry(
      async () => {
        n++;
        ac.abort();
        throw status(503, 'ServiceUnavailable');
      },
      { mode: 'idempotent', signal: ac.signal, sleep: async () => {} },
    ).catch((e: unknown) => e);
    assert.equal(n, 1);
    assert.ok(err instanceof KubeError);
  });
});

describe('classification and helpers', () => {
  test('what the method says', () => {
    assert.deepEqual(
      ['GET', 'PUT', 'DELETE', 'POST'].map((m) => retryModeFor(m)),
      ['idempotent', 'idempotent', 'idempotent', 'unsafe'],
    );
    assert.equal(retryModeFor('PATCH', 'application/merge-patch+json'), 'idempotent');
    assert.equal(retryModeFor('PATCH', 'application/strategic-merge-patch+json'), 'idempotent');
    assert.equal(retryModeFor('PATCH', 'application/json-patch+json'), 'unsafe');
  });

  test('failures: processed or maybe, transient or not', () => {
    assert.deepEqual(classifyFailure(net('ECONNREFUSED')), { transient: true, processed: 'no' });
    assert.deepEqual(classifyFailure(net('ECONNRESET')), { transient: true, processed: 'maybe' });
    assert.deepEqual(classifyFailure(net('ETIMEDOUT')), { transient: true, processed: 'maybe' });
    assert.deepEqual(classifyFailure(net('ENOTFOUND')), { transient: false });
    assert.deepEqual(classifyFailure(status(429, 'TooManyRequests')), { transient: true, processed: 'no' });
    assert.deepEqual(classifyFailure(status(504, 'Timeout')), { transient: true, processed: 'maybe' });
    assert.deepEqual(classifyFailure(status(501, 'NotImplemented')), { transient: false });
  });

  test('Retry-After: seconds, an HTTP date, or nothing usable; also from a Status', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(['2']), 2000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
    assert.equal(status(500, 'ServerTimeout', 'm', { retryAfterSeconds: 2 }).retryAfterMs, 2000);
  });

  test('the object found after AlreadyExists is ours when it holds what we sent', () => {
    const sent = {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'a', labels: { l: '1' } },
      spec: { channel: 'stable', targets: ['a'] },
    };
    const found = {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'a', uid: 'u', resourceVersion: '7', labels: { l: '1', added: 'by-server' } },
      spec: { channel: 'stable', targets: ['a'], defaulted: true },
      status: {},
    };
    assert.equal(isObjectWeSent(sent, found), true);
    assert.equal(isObjectWeSent(sent, { ...found, spec: { channel: 'fast', targets: ['a'] } }), false);
    assert.equal(isObjectWeSent(sent, { ...found, spec: { channel: 'stable', targets: ['a', 'b'] } }), false);
    assert.equal(isObjectWeSent(sent, { ...found, metadata: { name: 'a', labels: { l: '2' } } }), false);
    assert.equal(isObjectWeSent(sent, { ...found, metadata: { ...found.metadata, deletionTimestamp: 'now' } }), false);
    assert.equal(
      isObjectWeSent({ metadata: { name: 'ns' } }, { metadata: { name: 'ns' }, spec: { finalizers: ['kubernetes'] } }),
      true,
    );
  });
});

// http.ts and client.ts against a server whose answers are scripted per request.
type Script = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

describe('kubeRequest and KubeClient over HTTP', () => {
  let server: http.Server;
  let script: Script[] = [];
  const seen: string[] = [];
  let kc: KubeConfig;
  let previous: RetryPolicy;
  const CM: ResourceType = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };
  const send = (res: http.ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const fail =
    (code: number, reason: string, headers: Record<string, string> = {}): Script =>
    (_q, _b, res) =>
      send(res, code, { kind: 'Status', code, reason, message: `${reason} (scripted)` }, headers);
  const reset: Script = (req) => req.socket.destroy();

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += String(c)));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`);
        const next = script.shift();
        if (next) next(req, body, res);
        else send(res, 500, { kind: 'Status', code: 500, reason: 'InternalError', message: 'script ran out' });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        { name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
      ],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    previous = setRetryPolicy({ baseDelayMs: 5, maxDelayMs: 20 });
  });
  after(() => {
    setRetryPolicy(previous);
    server.close();
  });
  const given = (...steps: Script[]) => {
    script = steps;
    seen.length = 0;
  };

  test('a read survives a 503, a reset and a 429 with Retry-After, which is waited for', async () => {
    given(fail(503, 'ServiceUnavailable'), reset, fail(429, 'TooManyRequests', { 'Retry-After': '1' }), (_q, _b, res) =>
      send(res, 200, { kind: 'ConfigMap', data: { a: '1' } }),
    );
    const t0 = Date.now();
    const cm = await new KubeClient(kc).get<{ data: { a: string } }>(CM, 'c', 'ns');
    assert.equal(cm.data.a, '1');
    assert.equal(seen.length, 4);
    assert.ok(Date.now() - t0 >= 1000, 'waited the second the server asked for');
  });

  test('a 403 is passed on after one attempt, as the server said it', async () => {
    given(fail(403, 'Forbidden'), fail(403, 'Forbidden'));
    const err = await new KubeClient(kc).get(CM, 'c', 'ns').catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 403 && err.message === 'Forbidden (scripted)');
    assert.equal(seen.length, 1);
  });

  test('a create whose answer was lost: the retry finds it AlreadyExists, reads it, and takes it as ours', async () => {
    const stored = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
      data: { a: '1' },
    };
    given(fail(504, 'Timeout'), fail(409, 'AlreadyExists'), (_q, _b, res) => send(res, 200, stored));
    const made = await new KubeClient(kc).create(
      CM,
      { metadata: { name: 'c' }, data: { a: '1' } },
      { namespace: 'ns' },
    );
    assert.deepEqual(made, stored);
    assert.deepEqual(seen, [
      'POST /api/v1/namespaces/ns/configmaps',
      'POST /api/v1/namespaces/ns/configmaps',
      'GET /api/v1/namespaces/ns/configmaps/c',
    ]);
  });

  test('… but not when the object there is someone else’s: the 409 is passed on, saying so', async () => {
    given(reset, fail(409, 'AlreadyExists'), (_q, _b, res) =>
      send(res, 200, { kind: 'ConfigMap', metadata: { name: 'c', uid: 'u2' }, data: { a: 'theirs' } }),
    );
    const err = await new KubeClient(kc)
      .create(CM, { metadata: { name: 'c' }, data: { a: '1' } }, { namespace: 'ns' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof KubeError);
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'AlreadyExists');
    assert.match(
      err.message,
      /^AlreadyExists \(scripted\) \(tried 2 times in .* s\) \(an earlier attempt of this create got no clear answer; the object there is not the one sent\)$/,
    );
  });

  test('a create that got a plain 409 on its first attempt is not read back', async () => {
    given(fail(409, 'AlreadyExists'));
    const err = await new KubeClient(kc)
      .create(CM, { metadata: { name: 'c' }, data: { a: '1' } }, { namespace: 'ns' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 409);
    assert.equal(seen.length, 1);
  });

  test('generateName creates are not sent again after a 500 (that could make two), only after a 429', async () => {
    given(fail(500, 'InternalError'), (_q, _b, res) => send(res, 201, {}));
    const err = await new KubeClient(kc)
      .create(CM, { metadata: { generateName: 'c-' } }, { namespace: 'ns' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 500);
    assert.equal(seen.length, 1);
    given(fail(429, 'TooManyRequests'), (_q, _b, res) => send(res, 201, { metadata: { name: 'c-x' } }));
    assert.deepEqual(await new KubeClient(kc).create(CM, { metadata: { generateName: 'c-' } }, { namespace: 'ns' }), {
      metadata: { name: 'c-x' },
    });
  });

  test('reviews store nothing: sent again after a 500', async () => {
    const SSAR: ResourceType = {
      group: 'authorization.k8s.io',
      version: 'v1',
      plural: 'selfsubjectaccessreviews',
      namespaced: false,
      kind: 'SelfSubjectAccessReview',
    };
    given(fail(500, 'InternalError'), (_q, _b, res) => send(res, 201, { status: { allowed: true } }));
    assert.deepEqual(await new KubeClient(kc).create(SSAR, { spec: {} }), { status: { allowed: true } });
  });

  test('a delete whose answer was lost: the retry’s 404 means it is done; a plain 404 is passed on', async () => {
    given(fail(503, 'ServiceUnavailable'), fail(404, 'NotFound'));
    await new KubeClient(kc).delete(CM, 'c', { namespace: 'ns', uid: 'u1' });
    assert.equal(seen.length, 2);
    given(fail(404, 'NotFound'));
    const err = await new KubeClient(kc).delete(CM, 'c', { namespace: 'ns' }).catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 404);
  });

  test('an update whose answer was lost: the retry’s 409 Conflict is checked against what is there', async () => {
    const sent = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'ns', resourceVersion: '5' },
      data: { a: '2' },
    };
    given(fail(500, 'InternalError'), fail(409, 'Conflict'), (_q, _b, res) =>
      send(res, 200, { ...sent, metadata: { ...sent.metadata, resourceVersion: '6' } }),
    );
    assert.equal(
      (await new KubeClient(kc).replace(CM, sent)).metadata.resourceVersion,
      '6',
      'our first copy was applied',
    );
    given(fail(500, 'InternalError'), fail(409, 'Conflict'), (_q, _b, res) =>
      send(res, 200, { ...sent, metadata: { ...sent.metadata, resourceVersion: '6' }, data: { a: 'theirs' } }),
    );
    const err = await new KubeClient(kc).replace(CM, sent).catch((e: unknown) => e);
    assert.ok(
      err instanceof KubeError && err.code === 409 && err.reason === 'Conflict',
      'someone else changed it: a real conflict',
    );
    given(fail(409, 'Conflict'));
    assert.ok(isKubeError(await new KubeClient(kc).replace(CM, sent).catch((e: unknown) => e), 409));
    assert.equal(seen.length, 1, 'a first-attempt conflict is not read back');
  });

  test('a JSON patch is not sent again after a reset; a merge patch is', async () => {
    given(reset, (_q, _b, res) => send(res, 200, {}));
    const err = await new KubeClient(kc)
      .patch(CM, 'c', [{ op: 'add', path: '/data/x', value: '1' }], { namespace: 'ns', type: 'json' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 503 && err.network === 'ECONNRESET', String(err));
    given(reset, (_q, _b, res) => send(res, 200, { ok: true }));
    assert.deepEqual(await new KubeClient(kc).patch(CM, 'c', { data: { x: '1' } }, { namespace: 'ns' }), { ok: true });
  });

  test('retry "none" sends once', async () => {
    given(fail(503, 'ServiceUnavailable'), (_q, _b, res) => send(res, 200, {}));
    const err = await kubeRequest(kc, { method: 'GET', path: '/version', retry: 'none' }).catch((e: unknown) => e);
    assert.ok(err instanceof KubeError && err.code === 503);
    assert.equal(seen.length, 1);
  });
});
