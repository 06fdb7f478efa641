// The rights a scoped install's plan grants its service account when the catalog gives the bundle
// as published catalogs do: an image and olm.csv.metadata, no olm.bundle.object
// (lib/server/testing/metadata-only-catalog.ts). The registry's GetBundle answers with a CSV made
// from the metadata, without the bundle's permissions: rights computed from it would lack the
// operator's own rules, and OLM would retry the Forbidden install for ever. The plan takes the
// rules from the image, as for the same bundle given inline; not pulling, it says they are unknown.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { waitFor } from '@/lib/server/testing/cluster';
import { METADATA_ONLY_BUNDLE, metadataOnlyCatalog } from '@/lib/server/testing/metadata-only-catalog';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

type Rules = { kind?: string; rules?: unknown[] }[];

describe('a scoped install of a bundle given by image and olm.csv.metadata', () => {
  const { dir, pulls } = metadataOnlyCatalog('scoped-metadata-');
  const sb = routeSandbox({ demo: true, catalogs: [dir] });
  let plan: Handler;
  before(async () => {
    plan = (await import('./plan/route')).POST;
  });
  const planOf = (catalog: string) =>
    waitFor(`a plan from ${catalog}`, async () => {
      const r = await sb.call<InstallPlanResult & ErrorBody>(plan, '/api/install/plan', {
        method: 'POST',
        body: {
          catalog: { namespace: 'olm', name: catalog },
          approval: 'Manual',
          package: 'cachely',
          channel: 'alpha',
          version: METADATA_ONLY_BUNDLE,
          namespace: 'cache-team',
          installMode: 'OwnNamespace',
          serviceAccount: { name: 'installer', grant: true },
        },
      });
      return r.status === 200 ? r.body : undefined;
    });
  const rulesOf = (p: InstallPlanResult) =>
    (p.scoped?.rbac.objects as Rules).filter((o) => o.rules).map((o) => ({ kind: o.kind, rules: o.rules }));

  test("pulling, the account is granted the image's rules, as for the same bundle given inline", async () => {
    pulls(true);
    const p = await planOf('metadata-only');
    assert.deepEqual(p.blockers, []);
    assert.equal(p.scoped?.rbac.unknownRules, undefined);
    const inline = await planOf('olm-console-demo');
    assert.deepEqual(rulesOf(p), rulesOf(inline));
    const cluster = rulesOf(p).find((o) => o.kind === 'ClusterRole');
    assert.ok(
      cluster?.rules?.some(
        (r) => JSON.stringify(r) === '{"apiGroups":[""],"resources":["namespaces"],"verbs":["get","list","watch"]}',
      ),
      JSON.stringify(cluster),
    );
  });

  test('not pulling, the plan says the operator’s own rules are not known, and why', async () => {
    pulls(false);
    const p = await planOf('metadata-only');
    assert.match(
      p.scoped?.rbac.unknownRules ?? '',
      new RegExp(`bundle ${METADATA_ONLY_BUNDLE.replaceAll('.', '\\.')} by image only, and this console does not pull`),
    );
  });
});
