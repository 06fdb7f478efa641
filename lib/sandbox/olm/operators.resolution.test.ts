// The OLM flow against the sandbox over HTTPS with @kubernetes/client-node, as the console drives a
// cluster: resolution and requirements (dependencies installed with the operator, an unreachable
// catalog, a CSV waiting for its service account).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OLM, olmFlow, until } from './testing/olm-flow';

describe('OLM emulation: resolution and requirements', () => {
  const flow = olmFlow();
  const { get, list, create, ns, subscribe, phaseOf } = flow;

  test('dependencies are installed in the same InstallPlan, each with a Subscription OLM generates', async () => {
    await ns('deps');
    await create(
      'operatorgroups',
      'deps',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['deps'] },
      },
      'v1',
    );
    await subscribe('deps', 'secure');
    await until(async () => (await phaseOf('deps', 'secure.v2.0.0'))?.phase === 'Succeeded', 'secure Succeeded');
    assert.equal(
      (await phaseOf('deps', 'certs.v1.1.0'))?.phase,
      'Succeeded',
      'the provider of Certificate, at its channel head',
    );
    const plans = await list('installplans', 'deps');
    assert.equal(plans.length, 1);
    assert.deepEqual(plans[0]!.spec.clusterServiceVersionNames, ['secure.v2.0.0', 'certs.v1.1.0']);
    const generated = await get('subscriptions', 'deps', 'certs-stable-cat-v1-olm');
    assert.equal(generated.metadata.annotations?.['olm.generated-by'], plans[0]!.metadata.name);
    assert.equal(generated.metadata.labels?.['olm.managed'], 'true');
    assert.equal(generated.spec.startingCSV, 'certs.v1.1.0');

    await ns('ranged');
    await create(
      'operatorgroups',
      'ranged',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['ranged'] },
      },
      'v1',
    );
    await subscribe('ranged', 'tenant');
    await until(async () => (await phaseOf('ranged', 'tenant.v1.0.0'))?.phase === 'Succeeded', 'tenant Succeeded');
    assert.equal(
      (await phaseOf('ranged', 'certs.v1.0.0'))?.phase,
      'Succeeded',
      'the newest certs within >=1.0.0 <1.1.0',
    );
  });

  test('a new CSV passes Pending/RequirementsNotMet (its service account not yet made), as on a real cluster', async () => {
    await ns('history');
    await create(
      'operatorgroups',
      'history',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['history'] },
      },
      'v1',
    );
    await subscribe('history', 'webhook');
    await until(async () => (await phaseOf('history', 'webhook.v1.0.0'))?.phase === 'Succeeded', 'Succeeded');
    const st = (await get('clusterserviceversions', 'history', 'webhook.v1.0.0')).status as {
      conditions: { phase: string; reason: string }[];
      requirementStatus: { kind: string; name: string }[];
    };
    // The history real OLM v0.38.0 wrote for every fresh install (InstallWaiting comes and goes with the rollout).
    assert.deepEqual(
      st.conditions.map((c) => `${c.phase}/${c.reason}`).filter((h) => h !== 'Installing/InstallWaiting'),
      [
        'Pending/RequirementsUnknown',
        'Pending/RequirementsNotMet',
        'InstallReady/AllRequirementsMet',
        'Installing/InstallSucceeded',
        'Succeeded/InstallSucceeded',
      ],
    );
    // An account whose namespaced rules OLM granted is not listed, as real OLM lists them.
    assert.deepEqual(
      st.requirementStatus.map((r) => `${r.kind}/${r.name}`),
      ['CustomResourceDefinition/webhooks.webhook.example.com'],
    );
  });

  test("a catalog given by an address nothing answers on: healthy to the Subscription, resolution fails in gRPC's words", async () => {
    await ns('dead');
    await create(
      'operatorgroups',
      'dead',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['dead'] },
      },
      'v1',
    );
    await create('catalogsources', 'dead', {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'CatalogSource',
      metadata: { name: 'local' },
      spec: { sourceType: 'grpc', address: '127.0.0.1:1' },
    });
    await create('subscriptions', 'dead', {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: 'webhook' },
      spec: { name: 'webhook', source: 'local', sourceNamespace: 'dead', channel: 'stable' },
    });
    const conds = await until(async () => {
      const c = (
        (await get('subscriptions', 'dead', 'webhook')).status as
          { conditions?: { type: string; status: string; reason: string; message: string }[] } | undefined
      )?.conditions;
      return c?.some((x) => x.type === 'ResolutionFailed') ? c : undefined;
    }, 'ResolutionFailed');
    // Both as real OLM v0.38.0 wrote them for a namespaced CatalogSource at 127.0.0.1:1.
    assert.deepEqual(
      conds.find((c) => c.type === 'CatalogSourcesUnhealthy'),
      {
        ...conds.find((c) => c.type === 'CatalogSourcesUnhealthy'),
        status: 'False',
        reason: 'AllCatalogSourcesHealthy',
        message: 'all available catalogsources are healthy',
      },
    );
    const failed = conds.find((c) => c.type === 'ResolutionFailed')!;
    assert.equal(failed.reason, 'ErrorPreventedResolution');
    assert.equal(
      failed.message,
      'error using catalogsource dead/local: failed to list bundles: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:1: connect: connection refused"',
    );
  });
});
