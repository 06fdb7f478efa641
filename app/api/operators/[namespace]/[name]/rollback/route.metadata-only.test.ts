// A rollback's CRD check when the catalog gives the earlier bundle as published catalogs do: an
// image and olm.csv.metadata, no olm.bundle.object (lib/server/testing/metadata-only-catalog.ts).
// The registry's GetBundle answers with a CSV made from the metadata and no CRD: the plan must not
// say the earlier bundle ships no CRD. cachely 0.9.2 is installed, its Subscription naming that
// catalog; going back to 0.9.1, the CRDs are compared with the image's, or said not to be comparable.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { RollbackView } from '@/lib/server/rollback';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { METADATA_ONLY_BUNDLE, metadataOnlyCatalog } from '@/lib/server/testing/metadata-only-catalog';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const EARLIER = 'cachely.v0.9.1';

describe('rolling back to a bundle given by image and olm.csv.metadata', () => {
  const { dir, pulls } = metadataOnlyCatalog('rollback-metadata-', ['cachely.v0.9.0', EARLIER, METADATA_ONLY_BUNDLE]);
  const sb = routeSandbox({ deploymentDelayMs: 0, demo: true, catalogs: [dir] });
  let PLAN: Handler;
  before(async () => {
    ({ POST: PLAN } = await import('./plan/route'));
    // The sandbox's OLM resolves a bundle whose image is in a registry of the test's own, but cannot
    // pull that image (install-steps.ts unpacksFromImage): it installs from the catalog's metadata,
    // a CRD without schema, and "no field lost" would compare nothing. So cachely is installed from
    // the demo catalog, which carries the objects the test registry's images hold, then its
    // Subscription names the metadata-only one, as after the catalog is republished image-only.
    await subscribe(sb.admin, {
      namespace: 'cache-team',
      package: 'cachely',
      channel: 'alpha',
      targets: ['cache-team'],
    });
    await waitForCsv(sb.admin, 'cache-team', METADATA_ONLY_BUNDLE);
    await waitFor('the Subscription to name the installed CSV', async () => {
      const sub = await sb.admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'cache-team');
      return sub.status?.installedCSV === METADATA_ONLY_BUNDLE ? true : undefined;
    });
    await sb.admin.patch(
      SUBSCRIPTION_TYPE,
      'cachely',
      { spec: { source: 'metadata-only' } },
      { namespace: 'cache-team', type: 'merge' },
    );
  });
  const crdRisks = async () => {
    const { status, body } = await sb.call<RollbackView & { error?: { message: string } }>(
      PLAN,
      `/api/operators/cache-team/${METADATA_ONLY_BUNDLE}/rollback/plan`,
      { method: 'POST', body: { to: EARLIER }, params: { namespace: 'cache-team', name: METADATA_ONLY_BUNDLE } },
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.plan!.risks.map((r) => r.message).filter((m) => /CRD|cacheclusters/.test(m));
  };

  test("pulling, the cluster's CRD is compared with the one the earlier image ships", async () => {
    pulls(true);
    assert.deepEqual(await crdRisks(), [
      "0.9.1's CRDs (cacheclusters.cachely.example.com) compared with the cluster's: no stored version dropped, " +
        'no field lost',
    ]);
  });

  test('not pulling, the CRDs are said not to be comparable, and why', async () => {
    pulls(false);
    const risks = await crdRisks();
    assert.equal(risks.length, 1, JSON.stringify(risks));
    assert.match(risks[0]!, /^0\.9\.1's CRDs cannot be compared: its bundle is the image .*cachely.*by image only/);
  });
});
