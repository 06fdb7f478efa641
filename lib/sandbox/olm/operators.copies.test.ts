// The OLM flow against the sandbox over HTTPS with @kubernetes/client-node, as the console drives a
// cluster: one AllNamespaces operator from install to uninstall: its Copied CSVs, its upgrade on
// new catalog content, resolution failing for the whole namespace and an unhealthy catalog, the
// uninstall.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { CATALOG_DIR_ANNOTATION } from './catalog-sources';
import { merge, OLM, olmFlow, until, type FlowSandbox, type Obj } from './testing/olm-flow';

describe('OLM emulation: one operator for all namespaces, from install to uninstall', () => {
  const flow = olmFlow();
  let sb: FlowSandbox;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  before(() => {
    ({ sb, custom, core, apps } = flow);
  });
  const { get, list, ns, subscribe, phaseOf } = flow;

  test('AllNamespaces: Copied CSVs everywhere, also in later namespaces; disableCopiedCSVs removes them; re-enabled they return', async () => {
    await subscribe('operators', 'webhook');
    await until(async () => (await phaseOf('operators', 'webhook.v1.0.0'))?.phase === 'Succeeded', 'webhook Succeeded');
    const copy = await until(() => get('clusterserviceversions', 'team1', 'webhook.v1.0.0'), 'a copy in team1');
    assert.equal(copy.metadata.labels?.['olm.copiedFrom'], 'operators');
    assert.equal((copy.status as { reason: string }).reason, 'Copied');
    assert.equal(
      (copy.status as { message: string }).message,
      'The operator is running in operators but is managing this namespace',
    );
    assert.equal(copy.metadata.annotations?.['olm.targetNamespaces'], undefined);
    await ns('later');
    await until(() => get('clusterserviceversions', 'later', 'webhook.v1.0.0'), 'a copy in a namespace created later');

    await custom.patchClusterCustomObject(
      {
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
        body: { spec: { features: { disableCopiedCSVs: true } } },
      },
      merge,
    );
    await until(
      async () => (await list('clusterserviceversions', 'team1')).every((c) => c.metadata.name !== 'webhook.v1.0.0'),
      'copies gone',
    );
    const cfg = await until(async () => {
      const c = (await custom.getClusterCustomObject({
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
      })) as Obj;
      const cond = (
        c.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined
      )?.conditions?.find((x) => x.type === 'DisabledCopiedCSVs');
      return cond?.status === 'True' ? cond : undefined;
    }, 'DisabledCopiedCSVs=True on the OLMConfig');
    assert.equal(cfg.reason, 'CopiedCSVsDisabled');
    assert.equal((await phaseOf('operators', 'webhook.v1.0.0'))?.phase, 'Succeeded', 'the operator itself stays');
    const disabledEvents = async () =>
      (await core.listNamespacedEvent({ namespace: 'operators' })).items.filter(
        (e) => e.reason === 'DisabledCopiedCSVs' && e.involvedObject.name === 'webhook.v1.0.0',
      );
    const [warning] = await until(
      async () => ((await disabledEvents()).length ? disabledEvents() : undefined),
      'a DisabledCopiedCSVs event on the CSV',
    );
    assert.equal(warning!.type, 'Warning');
    assert.equal(warning!.message, 'CSV copying disabled for operators/webhook.v1.0.0');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await disabledEvents()).length, 1, 'one event per CSV, however many syncs');
    await custom.patchClusterCustomObject(
      {
        group: OLM,
        version: 'v1',
        plural: 'olmconfigs',
        name: 'cluster',
        body: { spec: { features: { disableCopiedCSVs: false } } },
      },
      merge,
    );
    await until(() => get('clusterserviceversions', 'team1', 'webhook.v1.0.0'), 'copies back');
    await until(async () => (await disabledEvents()).length === 0, 'the event removed once copying is back');
  });

  test('new catalog content drives an automatic upgrade', async () => {
    const cs = (await custom.getNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'olm',
      plural: 'catalogsources',
      name: 'cat-v1',
    })) as Obj;
    const newDir = cs.metadata.annotations![CATALOG_DIR_ANNOTATION]!.replace(/cat-v1$/, 'cat-v2');
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: 'olm',
        plural: 'catalogsources',
        name: 'cat-v1',
        body: { metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: newDir } } },
      },
      merge,
    );
    await until(
      async () => (await phaseOf('operators', 'webhook.v1.1.0'))?.phase === 'Succeeded',
      'webhook upgraded to 1.1.0',
    );
    await until(
      async () =>
        (await get('clusterserviceversions', 'team1', 'webhook.v1.1.0')).metadata.labels?.['olm.copiedFrom'] ===
        'operators',
      'the copies follow',
    );
    // back to the first content for the other tests
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1alpha1',
        namespace: 'olm',
        plural: 'catalogsources',
        name: 'cat-v1',
        body: {
          metadata: { annotations: { [CATALOG_DIR_ANNOTATION]: cs.metadata.annotations![CATALOG_DIR_ANNOTATION]! } },
        },
      },
      merge,
    );
  });

  test('a missing dependency is ResolutionFailed; an unhealthy catalog is CatalogSourcesUnhealthy', async () => {
    await subscribe('operators', 'needy');
    const cond = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'needy')).status as
            { conditions?: { type: string; reason: string; message: string }[] } | undefined
        )?.conditions?.find((c) => c.type === 'ResolutionFailed'),
      'ResolutionFailed',
    );
    assert.equal(cond.reason, 'ConstraintsNotSatisfiable');
    assert.match(
      cond.message,
      /^constraints not satisfiable: .*group: nowhere\.example\.com, version: v1, kind: Ghost/,
    );
    // Resolution is per namespace: while needy cannot be satisfied, nothing else in it resolves.
    const webhook = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'webhook')).status as
            { conditions?: { type: string; message: string }[] } | undefined
        )?.conditions?.find((c) => c.type === 'ResolutionFailed'),
      'the same failure on webhook',
    );
    assert.equal(webhook.message, cond.message);
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'subscriptions',
      name: 'needy',
    });

    sb.olm.catalogs.setBroken('olm', 'cat-v1', true);
    const unhealthy = await until(
      async () =>
        (
          (await get('subscriptions', 'operators', 'webhook')).status as {
            conditions: { type: string; status: string; reason: string; message: string }[];
          }
        ).conditions.find((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'True'),
      'CatalogSourcesUnhealthy',
    );
    assert.equal(unhealthy.reason, 'UnhealthyCatalogSourceFound');
    assert.equal(unhealthy.message, 'targeted catalogsource olm/cat-v1 unhealthy');
    sb.olm.catalogs.setBroken('olm', 'cat-v1', false);
  });

  test('uninstall: Subscription, then CSV: copies and deployments go, CRDs stay', async () => {
    const csvName = (await get('subscriptions', 'operators', 'webhook')).status!.installedCSV as string;
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'subscriptions',
      name: 'webhook',
    });
    assert.equal(
      (await phaseOf('operators', csvName))?.phase,
      'Succeeded',
      'deleting the Subscription uninstalls nothing',
    );
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1alpha1',
      namespace: 'operators',
      plural: 'clusterserviceversions',
      name: csvName,
    });
    await until(
      async () => !(await list('clusterserviceversions', 'operators')).some((c) => c.metadata.name === csvName),
      'the CSV gone',
    );
    await until(
      async () => !(await list('clusterserviceversions', 'team1')).some((c) => c.metadata.name === csvName),
      'its copies gone',
    );
    await until(
      async () =>
        !(await apps.listNamespacedDeployment({ namespace: 'operators' })).items.some(
          (d) => d.metadata?.name === 'webhook-operator',
        ),
      'its deployment gone',
    );
    const crd = await custom.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'webhooks.webhook.example.com',
    });
    assert.ok(crd, 'the CRD stays');
  });
});
