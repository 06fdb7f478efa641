// Stopping a sandbox server ends every connection to it, whatever state that connection is in.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { closingCuts } from './server-closing';
import { ensureServingCert } from './tls';

describe('closing a sandbox server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-closing-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  // The test's own timeout turns a stop that never ends into a failure rather than a hang.
  test('a connection still before its TLS handshake is cut, and the stop ends', { timeout: 20_000 }, async () => {
    const tls = ensureServingCert(dir);
    const server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end('ok'));
    const stop = closingCuts(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    // A client that connects and says nothing: HTTP never tracks it, as its handshake never ends.
    const accepted = once(server, 'connection');
    const quiet = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await Promise.all([once(quiet, 'connect'), accepted]);
    const closedByServer = once(quiet, 'close');
    await stop();
    await closedByServer;
    assert.equal(server.listening, false);
  });
});
