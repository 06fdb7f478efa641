// Refreshing a Subscription whose bundle failed to unpack, through the route, against the sandbox
// with bundle images: gpu-forge subscribed through a copy of the demo CatalogSource that lists no
// pull secret, with a two-second unpack timeout on the OperatorGroup, ends in BundleUnpackFailed
// and no InstallPlan (OLM v0.38.0 writes none when unpacking fails). The refresh's plan names the
// unpack Job and ConfigMap OLM made for the bundle (in the catalog's namespace, named by sha256 of
// the image reference), and applied once the secret is on the CatalogSource, OLM unpacks the
// bundle and plans its install.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CONFIG_MAP_TYPE, JOB_TYPE } from '@/lib/k8s/core-kinds';
import type { RefreshPlan } from '@/lib/olm/install/refresh';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '@/lib/olm/resources/catalog-source';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { ensureNamespace, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const NO_SECRET = 'demo-without-pull-secret';
type Job = {
  metadata?: { name?: string };
  spec?: { template?: { spec?: { initContainers?: { name?: string; image?: string }[] } } };
};

describe('/api/subscriptions/<ns>/<name>/refresh after a failed bundle unpack', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, bundleImages: true });
  let PLAN: Handler;
  let POST: Handler;
  let admin: KubeClient;
  let image = '';
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    const demo = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'olm-console-demo', 'olm');
    const spec = { ...demo.spec };
    delete spec.secrets;
    await admin.create<CatalogSource>(CATALOG_SOURCE_TYPE, {
      metadata: { name: NO_SECRET, namespace: 'olm', annotations: demo.metadata?.annotations },
      spec,
    });
    await waitFor('the copy served', async () =>
      (await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, NO_SECRET, 'olm')).status?.connectionState
        ?.lastObservedState === 'READY'
        ? true
        : undefined,
    );
    await ensureNamespace(admin, 'forge');
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: {
        name: 'forge',
        namespace: 'forge',
        annotations: { 'operatorframework.io/bundle-unpack-timeout': '2s' },
      },
      spec: {},
    });
    await admin.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: 'gpu-forge', namespace: 'forge' },
      spec: { name: 'gpu-forge', source: NO_SECRET, sourceNamespace: 'olm', channel: 'stable' },
    });
    await waitFor(
      'BundleUnpackFailed',
      async () =>
        (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'gpu-forge', 'forge')).status?.conditions?.some(
          (c) => c.type === 'BundleUnpackFailed' && c.status === 'True',
        )
          ? true
          : undefined,
      30_000,
    );
    const jobs = (await admin.listAll<Job>(JOB_TYPE, { namespace: 'olm' })).items;
    image =
      jobs
        .flatMap((j) => j.spec?.template?.spec?.initContainers ?? [])
        .find((c) => c.name === 'pull' && /gpu-forge-bundle@sha256:/.test(c.image ?? ''))?.image ?? '';
    assert.ok(image, 'the unpack Job pulls the gpu-forge bundle image');
  });

  const call = (h: Handler) =>
    sb.call<{ plan?: RefreshPlan; steps?: { step: string; outcome: string }[]; error?: { message: string } }>(
      h,
      `/api/subscriptions/forge/gpu-forge/refresh${h === PLAN ? '/plan' : ''}`,
      { method: 'POST', user: 'admin', params: { namespace: 'forge', name: 'gpu-forge' } },
    );

  test('the plan names the unpack Job and ConfigMap OLM made for the bundle; no plan exists', async () => {
    assert.deepEqual((await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'forge' })).items, []);
    const { status, body } = await call(PLAN);
    assert.equal(status, 200, JSON.stringify(body));
    const hash = createHash('sha256').update(image).digest('hex').slice(0, 63);
    assert.ok(
      body.plan!.failing.some((f) => /^BundleUnpackFailed .*Job was active longer than specified deadline/.test(f)),
      JSON.stringify(body.plan!.failing),
    );
    assert.deepEqual(
      body.plan!.steps.map((s) => `${s.action} ${s.kind} ${s.namespace}/${s.name}`),
      [
        'delete Subscription forge/gpu-forge',
        `delete Job olm/${hash}`,
        `delete ConfigMap olm/${hash}`,
        'create Subscription forge/gpu-forge',
      ],
    );
    assert.deepEqual(body.plan!.blockers, []);
  });

  test('applied with the secret then on the CatalogSource: the Job and ConfigMap go, OLM unpacks and plans', async () => {
    const hash = createHash('sha256').update(image).digest('hex').slice(0, 63);
    const cs = await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, NO_SECRET, 'olm');
    await admin.replace(CATALOG_SOURCE_TYPE, {
      ...cs,
      spec: { ...cs.spec, secrets: ['sandbox-registry-pull-secret'] },
    });
    const res = await call(POST);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(
      res.body.steps!.every((s) => s.outcome === 'done' || s.outcome === 'already gone'),
      JSON.stringify(res.body.steps),
    );
    const plan = await waitFor(
      'an InstallPlan with the unpacked bundle',
      async () => (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'forge' })).items[0],
      30_000,
    );
    assert.deepEqual(
      plan.status?.bundleLookups?.map((b) => b.path),
      [image],
    );
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'gpu-forge', 'forge');
    assert.ok(!sub.status?.conditions?.some((c) => c.type === 'BundleUnpackFailed' && c.status === 'True'));
    const cm = await admin.get<{ binaryData?: Record<string, string> }>(CONFIG_MAP_TYPE, hash, 'olm');
    assert.ok(Object.keys(cm.binaryData ?? {}).length, 'the new ConfigMap holds the unpacked bundle');
  });
});
