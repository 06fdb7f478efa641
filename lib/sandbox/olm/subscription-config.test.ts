// The sandbox writes a Subscription's `spec.config` into the operator's Deployment as OLM does, and
// writes the Deployment again when the config or the cluster proxy changes: OLM's check of the
// Deployment's spec hash sends the Succeeded CSV back to InstallReady ("deployment changed old
// hash=…"), it installs again and succeeds (olm/operator.go updateInstallStatus, v0.38.0).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import type { ResourceType } from '../../olm/resources/common';
import type { DeploymentSpec } from '../../olm/resources/subscription-config';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { clientAs, waitFor, waitForCsv } from '../../server/testing/cluster';
import { withSandbox } from '../testing/sandbox-fixture';

const DEPLOYMENT: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  namespaced: true,
  kind: 'Deployment',
};
const PROXY: ResourceType = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'proxies',
  namespaced: false,
  kind: 'Proxy',
};
type Deployment = {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: DeploymentSpec;
};

describe('Subscription config in the sandbox (OpenShift flavour, with its cluster Proxy)', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  let csvName = '';
  let deploymentName = '';
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 200, flavor: 'openshift' });
    kube = clientAs(sb, 'admin');
  });
  after(() => sb.close());

  const deployment = () => kube.get<Deployment>(DEPLOYMENT, deploymentName, 'openshift-operators');
  const manager = (d: Deployment) => d.spec.template!.spec!.containers![0]!;

  test('the config is in the Deployment OLM writes', async () => {
    await kube.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: 'certwarden', namespace: 'openshift-operators' },
      spec: {
        name: 'certwarden',
        source: 'olm-console-demo',
        sourceNamespace: 'openshift-marketplace',
        channel: 'stable',
        installPlanApproval: 'Automatic',
        config: {
          nodeSelector: { 'node-role.kubernetes.io/infra': '' },
          tolerations: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' }],
          env: [{ name: 'LOG_LEVEL', value: 'debug' }],
          resources: { limits: { memory: '512Mi' } },
          annotations: { 'team.example.com/owner': 'platform' },
        },
      },
    });
    csvName = await waitFor(
      'certwarden resolved',
      async () =>
        (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'openshift-operators')).status?.currentCSV,
    );
    await waitForCsv(kube, 'openshift-operators', csvName);
    const csv = await kube.get<ClusterServiceVersion>(CSV_TYPE, csvName, 'openshift-operators');
    deploymentName = (csv.spec as { install: { spec: { deployments: { name: string }[] } } }).install.spec
      .deployments[0]!.name;
    const d = await deployment();
    assert.deepEqual(d.spec.template!.spec!.nodeSelector, { 'node-role.kubernetes.io/infra': '' });
    assert.deepEqual(d.spec.template!.spec!.tolerations, [
      { key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    // OLM adds OPERATOR_CONDITION_NAME after the config (install/deployment.go deploymentForSpec).
    assert.deepEqual(manager(d).env, [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'OPERATOR_CONDITION_NAME', value: csvName },
    ]);
    assert.equal(d.spec.revisionHistoryLimit, 1);
    assert.equal(
      d.spec.template!.metadata!.annotations?.['olm.operatorGroup'],
      'global-operators',
      "the CSV's annotations are on the pods",
    );
    assert.deepEqual(manager(d).resources, { limits: { memory: '512Mi' } });
    assert.equal(d.metadata.annotations?.['team.example.com/owner'], 'platform');
    assert.equal(d.spec.template!.metadata!.annotations?.['team.example.com/owner'], 'platform');
    assert.ok(d.metadata.labels?.['olm.deployment-spec-hash'], 'the Deployment carries the hash of what OLM wrote');
  });

  test('a cluster proxy reaches the Deployment; the CSV goes back to InstallReady and succeeds again', async () => {
    const before = (await deployment()).metadata.labels?.['olm.deployment-spec-hash'];
    await kube.patch(
      PROXY,
      'cluster',
      { status: { httpProxy: 'http://proxy.example.com:3128', httpsProxy: '', noProxy: '.cluster.local' } },
      { type: 'merge', subresource: 'status' },
    );
    const env = await waitFor('the proxy in the Deployment', async () => {
      const e = manager(await deployment()).env ?? [];
      return e.some((v) => v.name === 'HTTP_PROXY') ? e : undefined;
    });
    assert.deepEqual(env, [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'HTTP_PROXY', value: 'http://proxy.example.com:3128' },
      { name: 'NO_PROXY', value: '.cluster.local' },
      { name: 'OPERATOR_CONDITION_NAME', value: csvName },
    ]);
    await waitForCsv(kube, 'openshift-operators', csvName);
    const csv = await kube.get<ClusterServiceVersion>(CSV_TYPE, csvName, 'openshift-operators');
    const back = (csv.status?.conditions ?? []).find(
      (c) => c.phase === 'InstallReady' && c.reason === 'ComponentUnhealthy',
    );
    assert.ok(back, `the CSV went back to InstallReady: ${JSON.stringify(csv.status?.conditions)}`);
    assert.match(back.message ?? '', new RegExp(`^installing: deployment changed old hash=${before}, new hash=\\w+$`));
  });

  test("a proxy variable in the config replaces the cluster's three", async () => {
    await kube.patch(
      SUBSCRIPTION_TYPE,
      'certwarden',
      {
        spec: {
          config: {
            env: [
              { name: 'LOG_LEVEL', value: 'debug' },
              { name: 'NO_PROXY', value: '*' },
            ],
          },
        },
      },
      { namespace: 'openshift-operators', type: 'merge' },
    );
    const env = await waitFor("the config's env alone", async () => {
      const e = manager(await deployment()).env ?? [];
      return e.some((v) => v.name === 'HTTP_PROXY') ? undefined : e;
    });
    assert.deepEqual(env, [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'NO_PROXY', value: '*' },
      { name: 'OPERATOR_CONDITION_NAME', value: csvName },
    ]);
    await waitForCsv(kube, 'openshift-operators', csvName);
  });
});
