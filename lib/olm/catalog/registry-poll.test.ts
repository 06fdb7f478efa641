// Expectations from operator-framework/api v0.36.0 (catalogsource_types.go and its types_test.go)
// and Go's time.ParseDuration documentation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGoDuration, pollDue, registryPoll } from './registry-poll';

test('Go durations: units, fractions, sequences, a bare 0', () => {
  assert.equal(parseGoDuration('10m'), 600_000);
  assert.equal(parseGoDuration('1h30m'), 5_400_000);
  assert.equal(parseGoDuration('1.5s'), 1500);
  assert.equal(parseGoDuration('300ms'), 300);
  assert.equal(parseGoDuration('0'), 0);
});

test("bad durations fail with Go's words", () => {
  assert.throws(() => parseGoDuration('19mError Code'), {
    message: 'time: unknown unit "mError Code" in duration "19mError Code"',
  });
  assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
  assert.throws(() => parseGoDuration('10'), { message: 'time: missing unit in duration "10"' });
});

const source = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => ({
  metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
  spec,
  status,
});

test('only a grpc source with an image and registryPoll is polled', () => {
  const poll = { registryPoll: { interval: '10m' } };
  assert.deepEqual(registryPoll(source({ sourceType: 'grpc', image: 'quay.io/x/cat:latest', updateStrategy: poll })), {
    intervalMs: 600_000,
  });
  assert.equal(
    registryPoll(source({ sourceType: 'grpc', address: '1.2.3.4:50051', updateStrategy: poll })),
    undefined,
    'no image',
  );
  assert.equal(
    registryPoll(source({ sourceType: 'grpc', image: 'quay.io/x/cat:latest' })),
    undefined,
    'no updateStrategy',
  );
  assert.equal(
    registryPoll(source({ sourceType: 'configmap', image: 'quay.io/x/cat:latest', updateStrategy: poll })),
    undefined,
    'not grpc',
  );
});

test("an unparsable interval polls every 15 minutes, with OLM's message", () => {
  const p = registryPoll(
    source({ sourceType: 'grpc', image: 'i', updateStrategy: { registryPoll: { interval: '19mError Code' } } }),
  );
  assert.equal(p?.intervalMs, 15 * 60_000);
  assert.equal(
    p?.parsingError,
    'error parsing spec.updateStrategy.registryPoll.interval. Using the default value of 15m0s instead. Error: time: unknown unit "mError Code" in duration "19mError Code"',
  );
});

test('due once the last poll, or the creation before any, plus the interval is past', () => {
  const spec = { sourceType: 'grpc', image: 'i', updateStrategy: { registryPoll: { interval: '10m' } } };
  const created = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(pollDue(source(spec), created + 9 * 60_000), false);
  assert.equal(pollDue(source(spec), created + 11 * 60_000), true);
  const polled = source(spec, { latestImageRegistryPoll: '2026-01-01T00:20:00Z' });
  assert.equal(pollDue(polled, created + 25 * 60_000), false);
  assert.equal(pollDue(polled, created + 31 * 60_000), true);
});
