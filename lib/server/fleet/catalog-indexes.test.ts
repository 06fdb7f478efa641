// Which registry addresses another cluster's catalog index may dial from the console: only the
// console's own loopback, and only for a cluster whose API server is there too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLoopback } from './catalog-indexes';

test('loopback addresses, with ports, brackets or a URL around them, are loopback', () => {
  for (const a of ['127.0.0.1:50051', '127.1.2.3', 'localhost:8443', '[::1]:50051', 'https://127.0.0.1:6443'])
    assert.equal(isLoopback(a), true, a);
});

test("a cluster's service names, pod addresses and other hosts are not", () => {
  for (const a of [
    'operatorhubio-catalog.olm.svc:50051',
    '10.96.0.12:50051',
    'localhost.example.com:443',
    '127.0.0.1.nip.io:50051',
    'https://api.prod.example.com:6443',
  ])
    assert.equal(isLoopback(a), false, a);
});
