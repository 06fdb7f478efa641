// Deleting a CRD as kube-apiserver does it (apiextensions-apiserver v0.34: the CRD storage adds
// the customresourcecleanup finalizer on delete, the CRD finalizer controller deletes every
// instance and says so in the Terminating condition, then lets go): seen over HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { clientAs, waitFor } from '../../server/testing/cluster';
import { withSandbox } from '../testing/sandbox-fixture';

const CRDS = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const WIDGETS = { group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true, kind: 'Widget' };
type Crd = {
  metadata?: { deletionTimestamp?: string; finalizers?: string[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
};

describe('deleting a CRD', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  before(async () => {
    sb = await withSandbox({ demo: false });
    kube = clientAs(sb, 'admin');
    await kube.create(CRDS, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    await waitFor('served', async () =>
      (await kube.listAll(WIDGETS, { namespace: 'default' })).items.length === 0 ? true : undefined,
    );
    await kube.create(
      WIDGETS,
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'free', namespace: 'default' } },
      { namespace: 'default' },
    );
    await kube.create(
      WIDGETS,
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/hold'] },
      },
      { namespace: 'default' },
    );
  });
  after(() => sb.close());

  test('instances go first, a finalizer holds the CRD Terminating, and then it is gone', async () => {
    await kube.delete(CRDS, 'widgets.example.com');
    const crd = await waitFor('Terminating', async () => {
      const c = await kube.get<Crd>(CRDS, 'widgets.example.com');
      return c.status?.conditions?.some((x) => x.type === 'Terminating' && x.status === 'True') ? c : undefined;
    });
    assert.ok(crd.metadata?.deletionTimestamp);
    assert.ok(crd.metadata?.finalizers?.includes('customresourcecleanup.apiextensions.k8s.io'));
    assert.deepEqual(
      crd.status?.conditions?.find((x) => x.type === 'Terminating'),
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
        lastTransitionTime: crd.status?.conditions?.find((x) => x.type === 'Terminating')?.[
          'lastTransitionTime' as never
        ],
      },
    );
    await assert.rejects(
      kube.create(
        WIDGETS,
        { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'late', namespace: 'default' } },
        { namespace: 'default' },
      ),
      (err: unknown) =>
        isKubeError(err, 403) &&
        /widgets\.example\.com "late" is forbidden: create not allowed while custom resource definition is terminating/.test(
          (err as Error).message,
        ),
    );
    const items = (
      await kube.listAll<{ metadata?: { name?: string; deletionTimestamp?: string } }>(WIDGETS, {
        namespace: 'default',
      })
    ).items;
    assert.deepEqual(
      items.map((i) => [i.metadata?.name, !!i.metadata?.deletionTimestamp]),
      [['held', true]],
      'the free one is gone, the held one is being deleted',
    );
    await kube.patch(WIDGETS, 'held', { metadata: { finalizers: null } }, { namespace: 'default', type: 'merge' });
    await waitFor('the CRD gone', async () => {
      try {
        await kube.get(CRDS, 'widgets.example.com');
        return undefined;
      } catch (err) {
        return isKubeError(err, 404) ? true : undefined;
      }
    });
    await assert.rejects(
      kube.listAll(WIDGETS, { namespace: 'default' }),
      (err: unknown) => isKubeError(err, 404),
      'the API is no longer served',
    );
  });
});
