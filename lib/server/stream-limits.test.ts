// Event-stream limits without a cluster: the defaults leave room for real pages, the environment
// can change them, and a stream counted out frees its place once, however often it is released.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_STREAM_LIMITS, StreamCounter, streamLimits } from './stream-limits';

describe('event-stream limits', () => {
  test('defaults: 8 streams a session, 16 a person, 16 watches a stream; the environment overrides them', () => {
    assert.deepEqual(streamLimits({}), { perSession: 8, perUser: 16, watchesPerStream: 16 });
    const env = { OLM_CONSOLE_MAX_STREAMS_PER_USER: '40', OLM_CONSOLE_MAX_STREAMS_PER_SESSION: '0' };
    const limits = streamLimits({ ...env, OLM_CONSOLE_MAX_WATCHES_PER_STREAM: 'lots' });
    assert.deepEqual(limits, { ...DEFAULT_STREAM_LIMITS, perUser: 40 }, 'nonsense keeps the default');
  });

  test("a session past its limit is refused, the same person's other session not; a released place frees once", () => {
    const c = new StreamCounter();
    const limits = { perSession: 2, perUser: 3, watchesPerStream: 16 };
    const a = { session: 's1', user: 'u' };
    const first = c.admit(a, limits);
    assert.ok(c.admit(a, limits).ok);
    const third = c.admit(a, limits);
    assert.equal(third.ok, false);
    assert.match(!third.ok ? third.message : '', /this browser has 2 event streams open/);
    assert.ok(c.admit({ session: 's2', user: 'u' }, limits).ok);
    const fourth = c.admit({ session: 's3', user: 'u' }, limits);
    assert.match(!fourth.ok ? fourth.message : '', /you have 3 event streams open/);
    assert.ok(first.ok);
    first.release();
    first.release();
    assert.deepEqual(c.count(a), { session: 1, user: 2 });
  });
});
