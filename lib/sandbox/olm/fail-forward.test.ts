// A Failed CSV and a newer one that replaces it, made by hand, as kubectl would: under the
// OperatorGroup's TechPreviewUnsafeFailForward the failed one goes Replacing and the newer one
// installs; under Default it stays Failed and holds its replacement back. Expected words and
// phases are OLM v0.38.0's (olm/operator.go syncClusterServiceVersion, case CSVPhaseFailed:
// "Fail Forward is enabled, allowing %s csv to be replaced by csv: %s", reason BeingReplaced).
// The Subscription side (UpgradeFailed) is compared with real OLM by the conformance suite.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { withSandbox } from '../testing/sandbox-fixture';

const OLM = 'operators.coreos.com';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

async function until<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
type Csv = { metadata: { name: string }; status?: { phase?: string; reason?: string; message?: string } };

function csv(name: string, replaces?: string) {
  return {
    apiVersion: `${OLM}/v1alpha1`,
    kind: 'ClusterServiceVersion',
    metadata: { name },
    spec: {
      displayName: name,
      version: name.replace(/^[^.]*\.v/, ''),
      ...(replaces ? { replaces } : {}),
      installModes: [
        { type: 'OwnNamespace', supported: true },
        { type: 'SingleNamespace', supported: true },
        { type: 'MultiNamespace', supported: false },
        { type: 'AllNamespaces', supported: false },
      ],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [
            {
              name: `${name}-manager`,
              spec: {
                replicas: 1,
                selector: { matchLabels: { app: name } },
                template: {
                  metadata: { labels: { app: name } },
                  spec: { containers: [{ name: 'manager', image: 'quay.example.com/ff:1' }] },
                },
              },
            },
          ],
        },
      },
    },
  };
}

describe('fail-forward upgrades of a Failed CSV', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let custom: CustomObjectsApi;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 3_600_000 });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  after(() => sb.close());

  const get = (ns: string, name: string) =>
    custom
      .getNamespacedCustomObject({
        group: OLM,
        version: 'v1alpha1',
        namespace: ns,
        plural: 'clusterserviceversions',
        name,
      })
      .then(
        (o) => o as Csv,
        () => undefined,
      );

  /**
   * ff.v1 made Failed by hand while its Deployment rolls out (the sandbox's rollout delay is set
   * past the test, so nothing becomes available and the Failed phase stays), then ff.v2
   * replacing it, in a namespace of its own.
   */
  async function failedThenReplaced(ns: string, upgradeStrategy: string): Promise<void> {
    sb.api.createObject(sb.api.resources.find('', 'v1', 'namespaces')!, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    await custom.createNamespacedCustomObject({
      group: OLM,
      version: 'v1',
      namespace: ns,
      plural: 'operatorgroups',
      body: {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: [ns], upgradeStrategy },
      },
    });
    await custom.createNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: ns,
      plural: 'clusterserviceversions',
      body: csv('ff.v1.0.0'),
    });
    await until(async () => (await get(ns, 'ff.v1.0.0'))?.status?.phase === 'Installing', 'ff.v1.0.0 Installing');
    await custom.patchNamespacedCustomObjectStatus(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: ns,
        plural: 'clusterserviceversions',
        name: 'ff.v1.0.0',
        body: { status: { phase: 'Failed', reason: 'InstallCheckFailed', message: 'install timeout' } },
      },
      merge,
    );
    await until(async () => (await get(ns, 'ff.v1.0.0'))?.status?.phase === 'Failed', 'ff.v1.0.0 Failed');
    await custom.createNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: ns,
      plural: 'clusterserviceversions',
      body: csv('ff.v2.0.0', 'ff.v1.0.0'),
    });
    await sb.olm.settled();
  }

  test("TechPreviewUnsafeFailForward: the Failed CSV is Replacing in OLM's words, and its replacement installs", async () => {
    await failedThenReplaced('ff-forward', 'TechPreviewUnsafeFailForward');
    const v1 = await until(async () => {
      const c = await get('ff-forward', 'ff.v1.0.0');
      return c?.status?.phase === 'Replacing' ? c : undefined;
    }, 'ff.v1.0.0 Replacing');
    assert.deepEqual(
      [v1.status?.reason, v1.status?.message],
      ['BeingReplaced', 'Fail Forward is enabled, allowing Failed csv to be replaced by csv: ff.v2.0.0'],
    );
    // The replacement goes on with its install (its Deployment never becomes available here).
    await until(
      async () => (await get('ff-forward', 'ff.v2.0.0'))?.status?.phase === 'Installing',
      'ff.v2.0.0 Installing',
    );
  });

  test('Default: the Failed CSV stays Failed and its replacement waits', async () => {
    await failedThenReplaced('ff-default', 'Default');
    await new Promise((r) => setTimeout(r, 300));
    await sb.olm.settled();
    assert.deepEqual(
      [(await get('ff-default', 'ff.v1.0.0'))?.status?.phase, (await get('ff-default', 'ff.v2.0.0'))?.status?.phase],
      ['Failed', 'Pending'],
    );
  });
});
