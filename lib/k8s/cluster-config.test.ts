// The catalogd address a KubeConfig was made with, as every copy of the module sees it. In the
// built console the HTTP server (through tsx) and each Next.js route bundle load their own copy of
// this module; the fleet's KubeConfigs are made by whichever copy routes a request first, and the
// content reader of another copy must still find that cluster's catalogd address (a sandbox
// fleet's staging cluster showed "not where catalogd serves this catalog" once it did not).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as first from './cluster-config';

type Module = typeof first;

test('a KubeConfig made by one copy of the module carries its catalogd address for another copy', async (t) => {
  // A second copy, as a bundler makes one: the same source at another path (the module imports
  // only packages, which resolve from the repository's node_modules as they do here).
  const dir = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'olm-console-tests');
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, `cluster-config-${process.pid}.ts`);
  copyFileSync(join(import.meta.dirname, 'cluster-config.ts'), copy);
  t.after(() => rmSync(copy, { force: true }));
  const second = (await import(pathToFileURL(copy).href)) as Module;
  assert.notEqual(first.catalogdAddressOf, second.catalogdAddressOf, 'two copies of the module');
  const access = {
    mode: 'token',
    server: 'https://127.0.0.1:6443',
    cluster: { name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: false },
    catalogd: 'https://127.0.0.1:7443',
  } as unknown as Parameters<Module['kubeConfigForToken']>[0];
  const kc = second.kubeConfigForToken(access, 'a-token');
  assert.equal(first.catalogdAddressOf(kc), 'https://127.0.0.1:7443');
});
