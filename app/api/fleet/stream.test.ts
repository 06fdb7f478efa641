// The fleet routes sent cluster by cluster (`Accept: application/x-ndjson`), read as a browser
// reads them, line by line as the bytes arrive: the names of every cluster first, then each
// cluster's own answer as it settles, so a cluster 10 s late holds back only its own row. Three
// sandbox clusters in one process (lib/sandbox/fleet.ts), per-user-token mode.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ClusterSummary, FleetOperatorsResponse, FleetStreamLine, PerCluster } from '@/lib/api/fleet';
import { fleetOperatorRows, type ClusterInstalls } from '@/lib/api/fleet-operator-rows';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';

type Get = (req: Request) => Promise<Response>;
interface Arrival<T> {
  ms: number;
  line: FleetStreamLine<T>;
}

/** Each line of the answer with the time it reached the client, from when the request was sent. */
async function readAsItArrives<T>(handler: Get, req: Request): Promise<{ res: Response; lines: Arrival<T>[] }> {
  const start = performance.now();
  const res = await handler(req);
  const lines: Arrival<T>[] = [];
  if (!res.body) return { res, lines };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += value;
    for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
      lines.push({ ms: performance.now() - start, line: JSON.parse(rest.slice(0, nl)) as FleetStreamLine<T> });
      rest = rest.slice(nl + 1);
    }
  }
  return { res, lines };
}

function withAccept(req: Request, accept: string): Request {
  const headers = new Headers(req.headers);
  headers.set('accept', accept);
  return new Request(req, { headers });
}

const answersOf = <T>(lines: Arrival<T>[]) =>
  lines.flatMap((a) => ('cluster' in a.line ? [{ ms: a.ms, answer: a.line.cluster }] : []));

describe('the fleet routes, cluster by cluster', () => {
  const sb = fleetSandbox(3);
  let clusters: Get;
  let operators: Get;
  before(async () => {
    clusters = (await import('./clusters/route')).GET;
    operators = (await import('./operators/route')).GET;
  });
  const ndjson = (path: string, user: string) => withAccept(sb.request(path, { user }), 'application/x-ndjson');

  test('the names come first, then each cluster once with its own answer', async () => {
    const { res, lines } = await readAsItArrives<ClusterSummary>(clusters, ndjson('/api/fleet/clusters', 'admin'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
    const first = lines[0]!.line;
    assert.ok('clusters' in first);
    assert.deepEqual(
      first.clusters.map((c) => [c.name, c.server]),
      sb.fleet.clusters.map((c) => [c.name, c.sandbox.url]),
    );
    const answers = answersOf(lines);
    assert.deepEqual(answers.map((a) => a.answer.name).sort(), ['prod-east', 'prod-west', 'staging']);
    for (const { answer } of answers) {
      assert.ok(answer.ok, JSON.stringify(answer));
      assert.equal(answer.server, sb.fleet.clusters.find((c) => c.name === answer.name)!.sandbox.url);
      assert.equal(answer.value.kubernetesVersion, 'v1.32.0-olm-sandbox');
    }
  });

  test('operators sent cluster by cluster make the same rows as the whole answer', async () => {
    const { lines } = await readAsItArrives<ClusterInstalls>(operators, ndjson('/api/fleet/operators', 'admin'));
    const streamed = answersOf(lines).map((a) => a.answer);
    const whole = (await sb.call<FleetOperatorsResponse>(operators, '/api/fleet/operators')).body;
    const order = whole.clusters.map((c) => c.name);
    streamed.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    assert.deepEqual(fleetOperatorRows(streamed), whole.operators);
    assert.ok(whole.operators.some((o) => o.package === 'certwarden'));
  });

  test("a cluster 10 s late does not hold back the others' rows; its own says it timed out", async () => {
    const late = sb.fleet.clusters[1]!;
    late.sandbox.faults.apply({ latencyMs: 10_000 });
    try {
      // alice has nothing cached in this file, so every cluster is asked now.
      const { lines } = await readAsItArrives<ClusterSummary>(clusters, ndjson('/api/fleet/clusters', 'alice'));
      const answers = answersOf(lines);
      const byName = new Map<string, { ms: number; answer: PerCluster<ClusterSummary> }>(
        answers.map((a) => [a.answer.name, a]),
      );
      for (const name of ['prod-east', 'staging']) {
        const a = byName.get(name)!;
        assert.ok(a.answer.ok, JSON.stringify(a.answer));
        assert.ok(a.ms < 3_000, `${name} reached the client after ${a.ms.toFixed(0)} ms`);
      }
      const slow = byName.get(late.name)!;
      assert.ok(!slow.answer.ok);
      assert.equal(slow.answer.error.reason, 'Timeout');
      assert.ok(slow.ms >= 7_900, `the late cluster's row came after ${slow.ms.toFixed(0)} ms`);
      assert.equal(answers.at(-1)!.answer.name, late.name);
    } finally {
      late.sandbox.faults.apply({ latencyMs: 0 });
    }
  });
});
