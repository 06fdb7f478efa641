// What the console keeps of a person's token once their request is done: nothing. Their session
// cookie carries it (docs/security.md), and logging out or a revoked session must leave no copy in
// the server's memory for a later request to act with. In the built console the HTTP server and
// every Next.js route bundle load their own copy of lib/k8s; a copy that kept a KubeConfig per
// token held each person's token once per route bundle, however long ago they logged out.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { bundleCopy } from '../server/testing/bundle-copy';
import { collected } from '../server/testing/collected';
import * as first from './cluster-config';
import { KubeClient } from './client';
import { NAMESPACE_TYPE } from './core-kinds';

type Module = typeof first;

/** One request of alice's, as a route makes it; what is left of her KubeConfig afterwards. */
// A function of its own, so that the test's frame holds no reference to the config it made.
async function aliceAsks(copy: Module, access: Parameters<Module['kubeConfigForToken']>[0]): Promise<WeakRef<object>> {
  const kc = copy.kubeConfigForToken(access, 'alice-token');
  await new KubeClient(kc).get(NAMESPACE_TYPE, 'default');
  return new WeakRef(kc);
}

test("a person's token is kept by no copy of the module once their request is done", async (t) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'default' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const access = {
    mode: 'token',
    server: address,
    // Plain HTTP on loopback, which the client library allows only so marked.
    cluster: { name: 'c', server: address, skipTLSVerify: true },
    source: 'test',
  } as Parameters<Module['kubeConfigForToken']>[0];
  const second = await bundleCopy<Module>(new URL('./cluster-config.ts', import.meta.url).pathname);
  assert.notEqual(first.kubeConfigForToken, second.kubeConfigForToken, 'two copies of the module');

  // Alice's requests, through each copy as two routes would make them; each made its own config.
  const refs: WeakRef<object>[] = [];
  for (const copy of [first, second]) for (let i = 0; i < 2; i++) refs.push(await aliceAsks(copy, access));
  assert.deepEqual(seen, Array(4).fill('Bearer alice-token'), 'her requests were made with her token');
  assert.ok(await collected(refs), "no KubeConfig with alice's token is held after her requests");
});
