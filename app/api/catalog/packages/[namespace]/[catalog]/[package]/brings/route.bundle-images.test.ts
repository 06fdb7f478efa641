// What the demo's cachely brings on a sandbox whose catalogs give bundles as published catalogs do
// (`bundleImages`, the default of `npm start`): olm.csv.metadata and an image in the sandbox's own
// registry, which the console pulls with the environment `npm start` gives it
// (scripts/start-options.ts sandboxRegistryEnv). The registry's GetBundle answers with a CSV made
// from the metadata, without rules: the page's answer is the image's, with cachely-controller's
// cluster-wide rule, not "from the catalog" with none.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BundleBrings } from '@/lib/olm/bundle/brings';
import { forgetBundlesInMemory } from '@/lib/server/bundle-images/bundle-cache';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { sandboxRegistryEnv } from '@/scripts/start-options';

type Answer = PackageBrings & ErrorBody & { brings?: BundleBrings; from?: string; unknown?: string };

describe("GET …/brings on a sandbox whose demo catalog gives bundles by image, as npm start's does", () => {
  const work = mkdtempSync(join(tmpdir(), 'v0-brings-sandbox-images-'));
  const sb = routeSandbox({ bundleImages: true });
  let GET: Handler;
  const set: string[] = [];
  before(async () => {
    ({ GET } = await import('./route'));
    const caFile = join(work, 'ca.crt');
    writeFileSync(caFile, sb.sandbox.caPem);
    const { env } = sandboxRegistryEnv(readFileSync(sb.kubeconfigPath, 'utf8'), caFile, {});
    assert.equal(env.OLM_CONSOLE_PULL_BUNDLE_IMAGES, 'true');
    for (const [k, v] of Object.entries(env)) {
      process.env[k] = v;
      set.push(k);
    }
    forgetBundlesInMemory();
  });
  after(() => {
    for (const k of set) delete process.env[k];
    rmSync(work, { recursive: true, force: true });
  });

  test("cachely's rules are its image's, cluster-wide ones included", async () => {
    const a = await waitFor('the brings of cachely', async () => {
      const r = await sb.call<Answer>(GET, '/api/catalog/packages/olm/olm-console-demo/cachely/brings', {
        user: 'bob',
        bearer: true,
        params: { namespace: 'olm', catalog: 'olm-console-demo', package: 'cachely' },
      });
      return r.status === 200 ? r.body : undefined;
    });
    assert.equal(a.from, 'image', JSON.stringify(a));
    assert.deepEqual(
      a.brings!.clusterWide.map((p) => [p.serviceAccount, p.rules.map((r) => r.resources)]),
      [['cachely-controller', [['namespaces']]]],
    );
  });
});
