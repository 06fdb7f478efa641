// The warm-up is over (and the replica says it is ready) only once the catalog snapshots the server
// is loading are loaded, so its first person's read finds them; a load that does not end within the
// bound does not hold the replica back. The load is held up for real: the
// snapshot folder holds a named pipe under a snapshot's name, and reading it waits until the test
// writes to it (then it is refused as not a snapshot, as any bad file is).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sharedCatalogIndex } from '../../catalog/catalog-index';
import { warmUp } from './warm-up';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a warm-up while catalog snapshots are loading', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-warm-up-snapshots-'));
  const pipe = join(dir, '0123456789abcdef0123456789abcdef.catalog.gz');
  let server: Server;
  let port = 0;
  const asked: string[] = [];

  before(async () => {
    execFileSync('mkfifo', [pipe]);
    // The index loads the folder's snapshots when it is made, as the server's start makes it.
    process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR = dir;
    sharedCatalogIndex();
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    delete process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR;
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const target = () => ({ address: '127.0.0.1', port, host: `127.0.0.1:${port}`, mark: 'm1' });

  test('a load still under way after the bound: the warm-up ends anyway, with a warning', async () => {
    asked.length = 0;
    const { log, lines } = memoryLog();
    const started = performance.now();
    const steps = await warmUp(target(), log, ['/login'], 5_000, 300);
    assert.ok(performance.now() - started >= 290, 'it waited for the load, up to the bound');
    assert.deepEqual(
      steps.map((s) => [s.path, s.status]),
      [['/login', 200]],
    );
    assert.ok(lines.some((l) => l.msg === 'warm-up: catalog snapshots still loading; ready without them'));
  });

  test('the warm-up is not over until the snapshots are loaded', async () => {
    asked.length = 0;
    const { log, lines } = memoryLog();
    let loaded = false;
    void sharedCatalogIndex()
      .loaded()
      .then(() => (loaded = true));
    let over = false;
    const warming = warmUp(target(), log, ['/operatorhub', '/login'], 5_000, 30_000).finally(() => (over = true));
    await sleep(400);
    assert.deepEqual(asked, ['/operatorhub', '/login'], 'its own requests are made meanwhile');
    assert.equal(over, false, 'not over while the snapshot is still being read');
    // The snapshot's bytes arrive (none: it is refused and removed, as any file that is not one).
    const writer = await open(pipe, 'w');
    await writer.close();
    const steps = await warming;
    assert.equal(loaded, true, 'the load was over when the warm-up was');
    assert.deepEqual(
      steps.map((s) => s.status),
      [200, 200],
    );
    const done = lines.find((l) => l.msg === 'warmed up');
    assert.equal(typeof done?.snapshotsMs, 'number', 'the log says how long it waited for the snapshots');
    assert.equal(lines.filter((l) => (l.level as number) >= 40).length, 0, 'nothing to warn about');
  });
});
