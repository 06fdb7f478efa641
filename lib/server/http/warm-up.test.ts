// The warm-up a new replica makes before it says it is ready, against a server that answers some
// paths, fails one and leaves one unanswered: every path is asked, what failed is logged, and the
// warm-up ends (the replica becomes ready and serves) instead of failing the start.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { localAddress, warmUp, warmUpWanted } from './warm-up';

/** A log kept in memory: what an operator would read. */
function memoryLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { log, lines };
}

describe('warming up a new replica', () => {
  let server: Server;
  let port = 0;
  const asked: { path: string; host: string | undefined; mark: string | string[] | undefined }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      asked.push({ path: req.url ?? '', host: req.headers.host, mark: req.headers['x-olm-console-warm-up'] });
      if (req.url === '/broken') req.socket.destroy();
      else if (req.url === '/silent')
        return; // never answers
      else if (req.url === '/failing') res.writeHead(500).end('boom');
      else res.writeHead(req.url === '/api/catalog/packages' ? 401 : 200).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const target = () => ({ address: '127.0.0.1', port, host: `127.0.0.1:${port}`, mark: 'm1' });

  test('every path is asked in turn, under a Host the server answers to, with nothing of a person', async () => {
    asked.length = 0;
    const { log, lines } = memoryLog();
    const steps = await warmUp(target(), log);
    assert.deepEqual(
      steps.map((s) => [s.path, s.status]),
      [
        ['/operatorhub', 200],
        ['/api/catalog/packages', 401],
        ['/login', 200],
      ],
    );
    assert.deepEqual(
      asked.map((a) => [a.host, a.mark]),
      Array(3).fill([`127.0.0.1:${port}`, 'm1']),
      'the Host the server answers to, and the mark of its own requests',
    );
    const done = lines.find((l) => l.msg === 'warmed up');
    assert.ok(done, 'the warm-up says it is over');
    assert.equal(lines.filter((l) => (l.level as number) >= 40).length, 0, 'nothing to warn about');
  });

  test('a path that fails, breaks or does not answer is logged; the others are still asked and it ends', async () => {
    asked.length = 0;
    const { log, lines } = memoryLog();
    const steps = await warmUp(target(), log, ['/failing', '/broken', '/silent', '/login'], 300);
    assert.deepEqual(
      asked.map((a) => a.path),
      ['/failing', '/broken', '/silent', '/login'],
    );
    assert.equal(steps[0]!.status, 500);
    assert.ok(steps[1]!.problem, 'a broken connection is a problem');
    assert.match(steps[2]!.problem ?? '', /no answer within 300 ms/);
    assert.equal(steps[3]!.status, 200);
    const warned = lines.filter((l) => (l.level as number) === 40).map((l) => l.path);
    assert.deepEqual(warned, ['/failing', '/broken', '/silent']);
    assert.ok(lines.some((l) => l.msg === 'warmed up'));
  });

  test('a server that is gone: the warm-up ends with the problem logged instead of failing the start', async () => {
    const { log, lines } = memoryLog();
    const gone = { address: '127.0.0.1', port: 1, host: '127.0.0.1:1', mark: 'm1' };
    const steps = await warmUp(gone, log, ['/login'], 300);
    assert.equal(steps.length, 1);
    assert.match(steps[0]!.problem ?? '', /ECONNREFUSED/);
    assert.ok(lines.some((l) => l.msg === 'warm-up: no answer; serving without it'));
  });

  test('OLM_CONSOLE_WARM_UP=false turns it off; a server on every address is reached on loopback', () => {
    assert.equal(warmUpWanted({}), true);
    assert.equal(warmUpWanted({ OLM_CONSOLE_WARM_UP: 'false' }), false);
    assert.equal(localAddress('0.0.0.0'), '127.0.0.1');
    assert.equal(localAddress('::'), '::1');
    assert.equal(localAddress('10.0.0.5'), '10.0.0.5');
  });

  test('what the start left unreachable is collected before the replica says it is ready', async () => {
    // A loaded snapshot's leftovers, as the start leaves them: nothing refers to them any more.
    let leftover: number[][] | undefined = Array.from({ length: 1_000 }, (_, i) => [i, i + 1, i + 2]);
    const ref = new WeakRef(leftover);
    leftover = undefined;
    // A WeakRef holds its object until the task that made it ends.
    await new Promise((r) => setImmediate(r));
    const { log, lines } = memoryLog();
    await warmUp(target(), log, ['/login'], 1_000, 0);
    assert.equal(ref.deref(), undefined);
    assert.equal(typeof lines.find((l) => l.msg === 'warmed up')?.gcMs, 'number');
  });
});
