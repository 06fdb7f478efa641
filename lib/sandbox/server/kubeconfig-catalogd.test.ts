// The sandbox's kubeconfig tells the console where its catalogd serves ClusterCatalog content (the
// only place the console reads content from), and a sandbox started again on the same kubeconfig
// (npm start's supervisor after a crash) serves content at the same address, which a console that
// read the kubeconfig once still trusts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { catalogdAddressOf, resolveClusterAccess } from '../../k8s/cluster-config';
import { startSandbox } from './sandbox';

test("the kubeconfig names catalogd's content address, and a restart serves content there again", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-sandbox-catalogd-'));
  const opts = { port: 0, kubeconfigPath: join(dir, 'kubeconfig'), dataFile: join(dir, 'data.jsonl') };
  try {
    const first = await startSandbox(opts);
    const told = () => catalogdAddressOf(resolveClusterAccess({ kubeconfig: opts.kubeconfigPath }, {}).shared!);
    assert.equal(told(), first.olmV1.contentUrl);
    await first.stop();
    const second = await startSandbox(opts);
    try {
      assert.equal(second.olmV1.contentUrl, first.olmV1.contentUrl);
      assert.equal(told(), second.olmV1.contentUrl);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
