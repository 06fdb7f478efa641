// What an upgrade waiting for approval changes, through the route, against the sandbox: pgpilot
// installed at 1.2.0 under Manual approval in team1, its upgrade plan to 1.4.0 waiting. The plan's
// steps hold the objects (the sandbox inlines bundles, as OLM does for a bundle served without an
// image); rewritten into the form OLM v0.38.0 writes for a bundle it unpacked from its image
// (catalog operator.go unpackBundles: every manifest a reference to the unpack ConfigMap, which the
// unpack Job fills gzip+base64, opm `bundle extract -z`), the ConfigMap is read for whoever may
// read it, and alice (admin of team1 only) gets the bundle from the catalog, told why.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import type { InstallPlanChanges, PlanPartChanges } from '@/lib/api/upgrade-changes';
import { CONFIG_MAP_TYPE } from '@/lib/k8s/core-kinds';
import type { KubeObject } from '@/lib/olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan, type Step } from '@/lib/olm/resources/install-plan';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { PGPILOT_UPGRADE_IMAGES, upgradeWaitingForApproval } from '@/lib/server/testing/upgrade-waiting';

const NS = 'team1';
type CsvLike = { spec: { install: { spec: { clusterPermissions: unknown[] } } } };
type CrdLike = { metadata: { name: string }; spec: { versions: { name: string }[] } };
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';

describe('GET /api/installplans/<ns>/<name>/changes', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let plan: InstallPlan;

  const changes = (user: string, name = plan.metadata!.name!) =>
    sb.call<InstallPlanChanges & ErrorBody>(GET, `/api/installplans/${NS}/${name}/changes`, {
      user,
      bearer: true,
      params: { namespace: NS, name },
    });
  const part = (body: InstallPlanChanges): PlanPartChanges => {
    const p = body.parts.find((x) => x.csv === TO);
    assert.ok(p, JSON.stringify(body));
    return p;
  };

  before(async () => {
    ({ GET } = (await import('./route')) as unknown as { GET: Handler });
    plan = await upgradeWaitingForApproval(sb.admin, {
      namespace: NS,
      package: 'pgpilot',
      channel: 'stable',
      from: FROM,
      to: TO,
    });
  });

  test('an upgrade compares the installed bundle from the cluster with the objects in the plan', async () => {
    const res = await changes('admin');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = part(res.body);
    assert.equal(p.change, 'upgrade');
    assert.equal(p.from, FROM);
    assert.deepEqual(p.installed, { bundle: FROM, source: 'cluster', gaps: [] });
    assert.deepEqual(p.target, { bundle: TO, source: 'plan', gaps: [] });
    // The demo catalog's 1.4.0 runs another image than 1.2.0, with the same rules and CRDs.
    const c = p.changes;
    assert.ok(c && !('unknown' in c), JSON.stringify(c));
    assert.deepEqual(c.images, PGPILOT_UPGRADE_IMAGES);
    assert.deepEqual([c.rulesAdded, c.rulesDropped, c.crds], [[], [], []]);
    assert.equal(c.unchanged, false);
  });

  test('a person who may not read the plan is refused with the cluster’s reason', async () => {
    const res = await sb.call<ErrorBody>(GET, `/api/installplans/pg/x/changes`, {
      user: 'alice',
      bearer: true,
      params: { namespace: 'pg', name: plan.metadata!.name! },
    });
    assert.equal(res.status, 403);
    assert.match(res.body.error.message, /alice/);
    const bad = await sb.call<ErrorBody>(GET, `/api/installplans/NS/x/changes`, {
      params: { namespace: 'NS', name: 'x' },
    });
    assert.equal(bad.status, 400);
  });

  describe('a plan whose steps point at the unpack ConfigMap', () => {
    const CM = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee0';
    before(async () => {
      const steps = plan.status!.plan!;
      const own = steps.filter((s) => s.resolving === TO);
      const object = (kind: string) =>
        own
          .filter((s) => s.resource.kind === kind)
          .map((s) => JSON.parse(s.resource.manifest!) as { metadata: { name: string } });
      // The unpack Job's ConfigMap: one key per manifests/ file, gzip then base64 in binaryData.
      // What the image holds differs from the catalog's inline copy, so the test sees which was read:
      // one more cluster-wide rule (reading every Secret), and postgresclusters served as v2 only.
      const csv = object('ClusterServiceVersion')[0] as unknown as CsvLike;
      csv.spec.install.spec.clusterPermissions.push({
        serviceAccountName: 'pgpilot-controller',
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
      });
      const files: Record<string, unknown> = { 'pgpilot.clusterserviceversion.yaml': csv };
      for (const crd of object('CustomResourceDefinition') as unknown as CrdLike[]) {
        if (crd.metadata.name === 'postgresclusters.pgpilot.example.com')
          crd.spec.versions = crd.spec.versions.map((v) => ({ ...v, name: 'v2' }));
        files[`${crd.metadata.name}.crd.yaml`] = crd;
      }
      const binaryData = Object.fromEntries(
        Object.entries(files).map(([k, v]) => [
          k,
          Buffer.from(gzipSync(JSON.stringify(v)).toString('base64')).toString('base64'),
        ]),
      );
      await sb.admin.create(
        CONFIG_MAP_TYPE,
        {
          metadata: { name: CM, namespace: 'olm', annotations: { 'olm.contentEncoding': 'gzip+base64' } },
          binaryData,
        },
        { namespace: 'olm' },
      );
      const ref = JSON.stringify({
        kind: 'ConfigMap',
        name: CM,
        namespace: 'olm',
        catalogSourceName: 'olm-console-demo',
        catalogSourceNamespace: 'olm',
        replaces: FROM,
        properties: '',
      });
      const rewritten: Step[] = steps.map((s) =>
        s.resolving === TO ? { ...s, resource: { ...s.resource, manifest: ref } } : s,
      );
      plan = await sb.admin.patch<InstallPlan>(
        INSTALL_PLAN_TYPE,
        plan.metadata!.name!,
        { status: { plan: rewritten } },
        { namespace: NS, type: 'merge', subresource: 'status' },
      );
    });

    test('whoever may read the ConfigMap gets the bundle from it', async () => {
      for (const user of ['admin', 'bob']) {
        const res = await changes(user);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const p = part(res.body);
        assert.deepEqual(p.target, { bundle: TO, source: 'unpack-configmap', gaps: [] }, user);
        const c = p.changes;
        assert.ok(c && !('unknown' in c), JSON.stringify(c));
        assert.deepEqual(
          c.rulesAdded.map((r) => [r.scope, r.serviceAccount, r.rule.resources, r.rule.verbs]),
          [['clusterWide', 'pgpilot-controller', ['secrets'], ['get', 'list', 'watch']]],
        );
        assert.ok(c.rulesAdded[0]!.rule.notable.some((n) => n.code === 'secrets'));
        // v1 is stored (the installed CRD lists it in status.storedVersions): dropping it is refused.
        const crd = c.crds.find((x) => x.name === 'postgresclusters.pgpilot.example.com');
        assert.deepEqual(crd?.versionsRemoved, ['v1']);
        assert.deepEqual(crd?.storedDropped, [{ version: 'v1', why: 'storedVersions' }]);
        assert.equal(c.dropsStoredVersion, true);
      }
    });

    test('alice, who may not read it nor the CatalogSource, is told why it is unknown', async () => {
      const res = await changes('alice');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { target } = part(res.body);
      assert.ok(target && 'unknown' in target, JSON.stringify(target));
      assert.match(target.unknown, new RegExp(`ConfigMap olm/${CM}.*you may not read`));
      assert.match(target.unknown, /only through its PackageManifests/);
      assert.ok(res.body.parts.find((x) => x.csv === TO)?.changes, 'the change is there');
      assert.match((part(res.body).changes as { unknown: string }).unknown, /^the new bundle cannot be read: /);
    });

    test('once the catalog has been read by someone who may, alice gets the bundle from it, told why', async () => {
      const pkg = (await import('@/app/api/catalog/packages/[namespace]/[catalog]/[package]/route')) as unknown as {
        GET: Handler;
      };
      const seen = await sb.call(pkg.GET, '/api/catalog/packages/olm/olm-console-demo/pgpilot', {
        params: { namespace: 'olm', catalog: 'olm-console-demo', package: 'pgpilot' },
      });
      assert.equal(seen.status, 200);
      const res = await changes('alice');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { target, installed } = part(res.body);
      assert.ok(target && !('unknown' in target), JSON.stringify(target));
      assert.equal(target.source, 'catalog');
      assert.match(target.fallback ?? '', new RegExp(`ConfigMap olm/${CM}.*you may not read`));
      // CRDs are cluster-wide: alice cannot read them, and the answer names each.
      assert.ok(installed && !('unknown' in installed), JSON.stringify(installed));
      assert.equal(installed.source, 'cluster');
      assert.ok(
        installed.gaps.length > 0 && installed.gaps.every((g) => /CustomResourceDefinition .* cannot be read/.test(g)),
      );
      // The catalog's copy: the image changes, no rule is added; without the installed CRDs' stored
      // versions only the storage version counts as stored, and it stays.
      const c = part(res.body).changes;
      assert.ok(c && !('unknown' in c), JSON.stringify(c));
      assert.deepEqual([c.images.added.length, c.rulesAdded.length, c.dropsStoredVersion], [1, 0, false]);
    });

    test('a ConfigMap that expands past any bundle is not read: the catalog is, and the answer says why', async () => {
      // 40 MiB of zeros, 40 KB gzipped: inert, and passed over.
      const bomb = Buffer.from(gzipSync(Buffer.alloc(40 * 1024 * 1024)).toString('base64')).toString('base64');
      const cm = await sb.admin.get<KubeObject & { binaryData: Record<string, string> }>(CONFIG_MAP_TYPE, CM, 'olm');
      const kept = cm.binaryData;
      await sb.admin.replace(CONFIG_MAP_TYPE, { ...cm, binaryData: { ...kept, 'zz-bomb.yaml': bomb } });
      try {
        const res = await changes('admin');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const { target } = part(res.body);
        assert.ok(target && !('unknown' in target), JSON.stringify(target));
        assert.equal(target.source, 'catalog');
        assert.match(target.fallback ?? '', /its files expand past 32 MiB/);
      } finally {
        const now = await sb.admin.get<KubeObject>(CONFIG_MAP_TYPE, CM, 'olm');
        await sb.admin.replace(CONFIG_MAP_TYPE, { ...now, binaryData: kept });
      }
    });
  });
});
