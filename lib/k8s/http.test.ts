// Connections to the API server: people who differ only by bearer token share kept-alive TLS
// connections (one handshake, not one per request), and each request still carries its own
// person's token; every copy of the module in the process (one per route bundle) shares them too.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { ensureServingCert } from '../sandbox/server/tls';
import { bundleCopy } from '../server/testing/bundle-copy';
import { kubeRequest } from './http';

/** An HTTPS server that counts its TLS handshakes and records each request's Authorization. */
async function countingServer() {
  const tls = ensureServingCert(mkdtempSync(join(tmpdir(), 'olm-http-test-')));
  const counts = { handshakes: 0 };
  const seen: string[] = [];
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.setHeader('content-type', 'application/json');
    res.end('{"kind":"Namespace"}');
  });
  server.on('secureConnection', () => counts.handshakes++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const person = (token: string) => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'c',
          server: `https://127.0.0.1:${port}`,
          caData: Buffer.from(tls.cert).toString('base64'),
          skipTLSVerify: false,
        },
      ],
      users: [{ name: 'u', token }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return kc;
  };
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { counts, seen, person, close };
}

test('two people on one cluster share kept-alive connections, each request with its own token', async () => {
  const { counts, seen, person, close } = await countingServer();
  try {
    const order = ['alice', 'bob', 'alice', 'bob', 'bob', 'alice'];
    for (const who of order) await kubeRequest(person(who), { method: 'GET', path: '/api/v1/namespaces/x' });
    assert.deepEqual(
      seen,
      order.map((who) => `Bearer ${who}`),
    );
    assert.equal(counts.handshakes, 1, 'one TLS handshake for six requests from two people');
  } finally {
    close();
  }
});

test("another route bundle's copy of the module uses the same kept-alive connections", async () => {
  const { counts, person, close } = await countingServer();
  try {
    const copy = await bundleCopy<typeof import('./http')>(join(import.meta.dirname, 'http.ts'));
    assert.notEqual(copy.kubeRequest, kubeRequest, 'two copies of the module');
    for (const request of [kubeRequest, copy.kubeRequest, kubeRequest, copy.kubeRequest])
      await request(person('alice'), { method: 'GET', path: '/api/v1/namespaces/x' });
    assert.equal(counts.handshakes, 1, 'one TLS handshake for both copies');
  } finally {
    close();
  }
});

test("a person's request never rides a connection that showed another identity's client certificate", async () => {
  const tls = ensureServingCert(mkdtempSync(join(tmpdir(), 'olm-http-test-')));
  const seen: { authorization: string; certificate: boolean }[] = [];
  // Asks every client for a certificate and takes any: what it records is which connections showed one.
  const server = createServer(
    { key: tls.key, cert: tls.cert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      seen.push({
        authorization: req.headers.authorization ?? '',
        certificate: !!peer && Object.keys(peer).length > 0,
      });
      res.setHeader('content-type', 'application/json');
      res.end('{"kind":"Namespace"}');
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const cluster = {
      name: 'c',
      server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      caData: Buffer.from(tls.cert).toString('base64'),
      skipTLSVerify: false,
    };
    const as = (user: { name: string; token?: string; certData?: string; keyData?: string }) => {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [cluster],
        users: [user],
        contexts: [{ name: 'x', cluster: 'c', user: user.name }],
        currentContext: 'x',
      });
      return kc;
    };
    // The console's own identity by client certificate (a kubeconfig's), a person by token.
    const console_ = as({
      name: 'console',
      certData: Buffer.from(tls.cert).toString('base64'),
      keyData: Buffer.from(tls.key).toString('base64'),
    });
    const person = as({ name: 'alice', token: 'alice-token' });
    for (const kc of [console_, person, console_, person])
      await kubeRequest(kc, { method: 'GET', path: '/api/v1/namespaces/x' });
    assert.deepEqual(seen, [
      { authorization: '', certificate: true },
      { authorization: 'Bearer alice-token', certificate: false },
      { authorization: '', certificate: true },
      { authorization: 'Bearer alice-token', certificate: false },
    ]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
