import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { decodeResume, encodeResume, parseWatchSpecs } from './watch-stream';

test('watch specs: id:kind[:namespace[:name]], each part checked', () => {
  assert.deepEqual(
    parseWatchSpecs(['subs:subscriptions:team1', 'csv:clusterserviceversions:team1:pg.v1', 'ns:namespaces']),
    [
      { id: 'subs', kind: 'subscriptions', namespace: 'team1' },
      { id: 'csv', kind: 'clusterserviceversions', namespace: 'team1', name: 'pg.v1' },
      { id: 'ns', kind: 'namespaces' },
    ],
  );
  const bad = (specs: string[], message: RegExp) =>
    assert.throws(
      () => parseWatchSpecs(specs),
      (e: unknown) => e instanceof z.ZodError && message.test(e.issues[0]!.message),
    );
  bad([], /at least one watch/);
  bad(['a:secrets'], /kind must be one of/);
  bad(['A:subscriptions'], /the id must be/);
  bad(['a:subscriptions', 'a:installplans'], /used twice/);
  bad(['a:subscriptions:Bad_NS'], /namespace is not a valid name/);
  bad(['a:namespaces:x'], /namespaces are not namespaced/);
  bad(['a:subscriptions:x:y:z'], /too many parts/);
  bad(
    Array.from({ length: 17 }, (_, i) => `w${i}:subscriptions`),
    /at most 16 watches per stream/,
  );
  assert.equal(
    parseWatchSpecs(
      Array.from({ length: 17 }, (_, i) => `w${i}:subscriptions`),
      17,
    ).length,
    17,
  );
});

test('resume tokens round-trip; anything odd means start over', () => {
  const m = new Map([
    ['subs', '123'],
    ['csv', '456'],
  ]);
  assert.deepEqual(decodeResume(encodeResume(m)), m);
  assert.equal(decodeResume('not base64 json').size, 0);
  assert.equal(decodeResume(Buffer.from('{"a":"1; rm"}').toString('base64url')).size, 0);
  assert.equal(decodeResume(null).size, 0);
});

test('against the sandbox: heartbeats while idle, and every watch stopped when the tab goes', async () => {
  const { withSandbox } = await import('../sandbox/testing/sandbox-fixture');
  const { clientAs } = await import('./testing/cluster');
  const { sseReader } = await import('./testing/sse-reader');
  const { openWatchStream: open } = await import('./watch-stream');
  const sb = await withSandbox({ demo: false });
  try {
    const abort = new AbortController();
    const open_: number[] = [];
    const stream = open(clientAs(sb, 'admin'), parseWatchSpecs(['a:subscriptions:default', 'b:namespaces']), {
      heartbeatMs: 50,
      signal: abort.signal,
      onInformers: (n) => open_.push(n),
    });
    const ev = sseReader(new Response(stream));
    await ev.next((e) => e.event === 'snapshot' && e.data?.watch === 'b');
    const beat = await ev.next((e) => e.event === 'comment');
    assert.match(beat.comment!, /^heartbeat /);
    assert.equal(open_.at(-1), 2);
    abort.abort();
    assert.equal(open_.at(-1), 0, 'no watch outlives its stream');
  } finally {
    await sb.close();
  }
});
