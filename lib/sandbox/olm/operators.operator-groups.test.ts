// The OLM flow against the sandbox over HTTPS with @kubernetes/client-node, as the console drives a
// cluster: what OperatorGroups refuse (too many, an unsupported mode, the same API provided twice).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { merge, OLM, olmFlow, until } from './testing/olm-flow';

describe('OLM emulation: OperatorGroups', () => {
  const flow = olmFlow();
  let custom: CustomObjectsApi;
  before(() => {
    ({ custom } = flow);
  });
  const { get, list, create, ns, subscribe, phaseOf } = flow;

  test('two OperatorGroups: nothing resolves, an installed CSV fails TooManyOperatorGroups; an unsupported mode: UnsupportedOperatorGroup, recovering when fixed', async () => {
    await ns('crowded');
    for (const n of ['a', 'b'])
      await create(
        'operatorgroups',
        'crowded',
        {
          apiVersion: `${OLM}/v1`,
          kind: 'OperatorGroup',
          metadata: { name: n },
          spec: { targetNamespaces: ['crowded'] },
        },
        'v1',
      );
    await subscribe('crowded', 'ladder');
    // OLM's resolver stops at "found 2 operatorGroups, expected 1" (resolver/fail_forward.go):
    // the Subscription gets its catalog health and nothing else.
    const seen = await until(
      async () =>
        ((await get('subscriptions', 'crowded', 'ladder')).status as { catalogHealth?: unknown[] } | undefined)
          ?.catalogHealth && (await get('subscriptions', 'crowded', 'ladder')),
      'catalog health',
    );
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await list('installplans', 'crowded'), []);
    assert.deepEqual(
      ((seen.status as { conditions?: { type: string }[] }).conditions ?? []).map((c) => c.type),
      ['CatalogSourcesUnhealthy'],
    );
    await custom.deleteNamespacedCustomObject({
      group: OLM,
      version: 'v1',
      namespace: 'crowded',
      plural: 'operatorgroups',
      name: 'b',
    });
    await until(
      async () => (await phaseOf('crowded', 'ladder.v1.2.0'))?.phase === 'Succeeded',
      'installed once one group is left',
    );
    await create(
      'operatorgroups',
      'crowded',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'b' },
        spec: { targetNamespaces: ['crowded'] },
      },
      'v1',
    );
    await until(
      async () => (await phaseOf('crowded', 'ladder.v1.2.0'))?.reason === 'TooManyOperatorGroups',
      'TooManyOperatorGroups',
    );

    await ns('own');
    await create(
      'operatorgroups',
      'own',
      { apiVersion: `${OLM}/v1`, kind: 'OperatorGroup', metadata: { name: 'all' }, spec: {} },
      'v1',
    );
    await subscribe('own', 'ownonly');
    const st = await until(async () => {
      const s = await phaseOf('own', 'ownonly.v1.0.0');
      return s?.reason === 'UnsupportedOperatorGroup' ? s : undefined;
    }, 'UnsupportedOperatorGroup');
    assert.equal(
      (st as { message?: string }).message,
      'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces',
    );
    await custom.patchNamespacedCustomObject(
      {
        group: OLM,
        version: 'v1',
        namespace: 'own',
        plural: 'operatorgroups',
        name: 'all',
        body: { spec: { targetNamespaces: ['own'] } },
      },
      merge,
    );
    await until(async () => (await phaseOf('own', 'ownonly.v1.0.0'))?.phase === 'Succeeded', 'recovered to Succeeded');
  });

  test('intersecting OperatorGroups providing the same API: InterOperatorGroupOwnerConflict', async () => {
    await subscribe('operators', 'gw-a');
    await until(async () => (await phaseOf('operators', 'gw-a.v1.0.0'))?.phase === 'Succeeded', 'gw-a Succeeded');
    const global = await get('operatorgroups', 'operators', 'global-operators', 'v1');
    assert.equal(global.metadata.annotations?.['olm.providedAPIs'], 'Gateway.v1.net.example.com');
    await ns('gwns');
    await create(
      'operatorgroups',
      'gwns',
      {
        apiVersion: `${OLM}/v1`,
        kind: 'OperatorGroup',
        metadata: { name: 'og' },
        spec: { targetNamespaces: ['gwns'] },
      },
      'v1',
    );
    await subscribe('gwns', 'gw-b');
    const st = await until(async () => {
      const s = await phaseOf('gwns', 'gw-b.v1.0.0');
      return s?.reason === 'InterOperatorGroupOwnerConflict' ? s : undefined;
    }, 'InterOperatorGroupOwnerConflict');
    assert.equal(st.phase, 'Failed');
    assert.equal((st as { message?: string }).message, 'intersecting operatorgroups provide the same apis');
  });
});
