// What an upgrade changes when the catalog gives the new bundle as published catalogs do: an image
// and olm.csv.metadata, no olm.bundle.object (lib/server/testing/metadata-only-catalog.ts), and the
// plan's steps point at an unpack ConfigMap the console cannot read (gone here). The catalog's
// registry then answers with a CSV made from the metadata, with no rules, deployments or CRDs: the
// new bundle is read from its image instead, or said to be unknown. cachely is installed at 0.9.0
// from the demo catalog under Manual approval; its plan to 0.9.2 is rewritten to name the
// metadata-only catalog, as OLM writes it for a bundle it unpacks.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { InstallPlanChanges, PlanPartChanges } from '@/lib/api/upgrade-changes';
import { INSTALL_PLAN_TYPE, type InstallPlan, type Step } from '@/lib/olm/resources/install-plan';
import { METADATA_ONLY_BUNDLE, metadataOnlyCatalog } from '@/lib/server/testing/metadata-only-catalog';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { upgradeWaitingForApproval } from '@/lib/server/testing/upgrade-waiting';

const NS = 'cache-team';
const FROM = 'cachely.v0.9.0';
const TO = METADATA_ONLY_BUNDLE;

describe('what an upgrade to a bundle given by image and olm.csv.metadata changes', () => {
  const { dir, pulls } = metadataOnlyCatalog('changes-metadata-', [FROM, TO]);
  const sb = routeSandbox({ deploymentDelayMs: 0, demo: true, catalogs: [dir] });
  let GET: Handler;
  let plan: InstallPlan;

  const part = async (): Promise<PlanPartChanges> => {
    const name = plan.metadata!.name!;
    const r = await sb.call<InstallPlanChanges & ErrorBody>(GET, `/api/installplans/${NS}/${name}/changes`, {
      params: { namespace: NS, name },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const p = r.body.parts.find((x) => x.csv === TO);
    assert.ok(p, JSON.stringify(r.body));
    return p;
  };

  before(async () => {
    ({ GET } = (await import('./route')) as unknown as { GET: Handler });
    plan = await upgradeWaitingForApproval(sb.admin, {
      namespace: NS,
      package: 'cachely',
      channel: 'alpha',
      from: FROM,
      to: TO,
    });
    const ref = JSON.stringify({
      kind: 'ConfigMap',
      name: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee0',
      namespace: 'olm',
      catalogSourceName: 'metadata-only',
      catalogSourceNamespace: 'olm',
      replaces: FROM,
      properties: '',
    });
    const steps: Step[] = plan.status!.plan!.map((s) =>
      s.resolving === TO ? { ...s, resource: { ...s.resource, manifest: ref } } : s,
    );
    plan = await sb.admin.patch<InstallPlan>(
      INSTALL_PLAN_TYPE,
      plan.metadata!.name!,
      { status: { plan: steps } },
      { namespace: NS, type: 'merge', subresource: 'status' },
    );
  });
  test('pulling, the new bundle is its image: no rule is said to go', async () => {
    pulls(true);
    const p = await part();
    assert.ok(p.target && !('unknown' in p.target), JSON.stringify(p.target));
    assert.equal(p.target.source, 'image');
    const c = p.changes;
    assert.ok(c && !('unknown' in c), JSON.stringify(c));
    assert.deepEqual([c.rulesDropped.length, c.rulesAdded.length], [0, 0], JSON.stringify(c));
  });

  test('not pulling, the new bundle is unknown, and why', async () => {
    pulls(false);
    const p = await part();
    assert.ok(p.target && 'unknown' in p.target, JSON.stringify(p.target));
    assert.match(p.target.unknown, new RegExp(`bundle ${TO.replaceAll('.', '\\.')} by image only`));
  });
});
