// Deprecation conditions on a Subscription, from the demo catalog's olm.deprecations blob
// (flagpole: the package, the legacy channel and bundle 1.0.0 are deprecated).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { withSandbox } from '../testing/sandbox-fixture';

const OLM = 'operators.coreos.com';

describe('deprecation conditions', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 10 });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  after(() => sb.close());

  type Cond = { type: string; status: string; reason?: string; message?: string };
  const conditions = async () =>
    (
      (await custom.getNamespacedCustomObject({
        group: OLM,
        version: 'v1alpha1',
        namespace: 'operators',
        plural: 'subscriptions',
        name: 'flagpole',
      })) as { status?: { conditions?: Cond[]; installedCSV?: string } }
    ).status ?? {};

  test('an installed deprecated bundle of a deprecated package shows each condition and the roll-up', async () => {
    await custom.createNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'subscriptions',
      body: {
        apiVersion: `${OLM}/v1alpha1`,
        kind: 'Subscription',
        metadata: { name: 'flagpole' },
        spec: {
          name: 'flagpole',
          source: 'olm-console-demo',
          sourceNamespace: 'olm',
          channel: 'stable',
          startingCSV: 'flagpole.v1.0.0',
          installPlanApproval: 'Manual',
        },
      },
    });
    const end = Date.now() + 10_000;
    let plan: string | undefined;
    while (!plan && Date.now() < end) {
      const list = (await custom.listNamespacedCustomObject({
        group: OLM,
        version: 'v1alpha1',
        namespace: 'operators',
        plural: 'installplans',
      })) as { items: { metadata: { name: string }; status?: { phase?: string } }[] };
      plan = list.items.find((p) => p.status?.phase === 'RequiresApproval')?.metadata.name;
      if (!plan) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(plan, 'an InstallPlan to approve');
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: 'operators',
        plural: 'installplans',
        name: plan,
        body: { spec: { approved: true } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    let st = await conditions();
    while (!st.conditions?.some((c) => c.type === 'Deprecated') && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      st = await conditions();
    }
    assert.equal(st.installedCSV, 'flagpole.v1.0.0');
    const byType = new Map((st.conditions ?? []).map((c) => [c.type, c]));
    assert.match(
      byType.get('PackageDeprecated')?.message ?? '',
      /^olm\.package\/flagpole: Flagpole is no longer maintained/,
    );
    assert.match(byType.get('BundleDeprecated')?.message ?? '', /^olm\.bundle\/flagpole\.v1\.0\.0: .*FP-2026-3/);
    assert.equal(byType.get('ChannelDeprecated'), undefined, 'the stable channel is not deprecated');
    assert.equal(
      byType.get('Deprecated')?.message,
      `${byType.get('PackageDeprecated')?.message}; ${byType.get('BundleDeprecated')?.message}`,
    );
    assert.equal(byType.get('Deprecated')?.reason, undefined, 'deprecation conditions carry no reason');
  });
});
