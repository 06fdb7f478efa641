// The OpenShift flavour's marketplace operator, seen through the API as a client sees OpenShift:
// OperatorHub `cluster` served (with discovery) and reported on in status.sources ("Success";
// "Error" / "Not present in the default definitions" for other names, as operator-marketplace's
// pkg/operatorhub writes it); a disabled default's CatalogSource deleted, an enabled one created
// again, annotated operatorframework.io/managed-by=marketplace-operator, its spec put back after an
// edit and the object after a deletion (pkg/defaults, the catalogsource controller); upstream has no
// OperatorHub at all.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { OPERATOR_HUB_TYPE, type OperatorHub } from '../../olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../../olm/resources/catalog-source';
import { clientAs, waitFor } from '../../server/testing/cluster';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { startSandbox } from '../server/sandbox';
import { withSandbox } from '../testing/sandbox-fixture';

const NS = 'openshift-marketplace';

describe('the marketplace operator (OpenShift flavour)', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-marketplace-'));
  writeFixtureCatalog(join(root, 'redhat-operators'), [{ name: 'red', bundles: [{ version: '1.0.0' }] }]);
  writeFixtureCatalog(join(root, 'community-operators'), [{ name: 'comm', bundles: [{ version: '1.0.0' }] }]);
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  before(async () => {
    sb = await withSandbox({
      flavor: 'openshift',
      catalogs: [join(root, 'redhat-operators'), join(root, 'community-operators')],
    });
    kube = clientAs(sb, 'admin');
  });
  after(async () => {
    await sb.close();
    rmSync(root, { recursive: true, force: true });
  });

  const hub = () => kube.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster');
  const source = async (name: string) => {
    try {
      return await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, NS);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  };
  const setSpec = async (spec: object) => {
    const cur = await hub();
    await kube.replace(OPERATOR_HUB_TYPE, { ...cur, spec });
  };
  const statusOf = async (name: string) => (await hub()).status?.sources?.find((s) => s.name === name);

  test('OperatorHub cluster is served and discoverable, and reports each default as applied', async () => {
    assert.equal(await kube.serves(OPERATOR_HUB_TYPE), true);
    const h = await waitFor('status written', async () =>
      (await hub()).status?.sources?.length === 2 ? hub() : undefined,
    );
    assert.deepEqual(h.spec, {});
    assert.deepEqual(h.status?.sources, [
      { name: 'community-operators', disabled: false, status: 'Success' },
      { name: 'redhat-operators', disabled: false, status: 'Success' },
    ]);
    const cs = await waitFor('READY', async () =>
      (await source('redhat-operators'))?.status?.connectionState?.lastObservedState === 'READY'
        ? source('redhat-operators')
        : undefined,
    );
    assert.equal(cs?.metadata?.annotations?.['operatorframework.io/managed-by'], 'marketplace-operator');
  });

  test('disabling a default deletes its CatalogSource; enabling it creates it again, READY', async () => {
    await setSpec({ sources: [{ name: 'redhat-operators', disabled: true }] });
    await waitFor('redhat-operators deleted', async () => ((await source('redhat-operators')) ? undefined : true));
    await waitFor('status disabled', async () =>
      (await statusOf('redhat-operators'))?.disabled === true ? true : undefined,
    );
    assert.ok(await source('community-operators'));
    await setSpec({ sources: [{ name: 'redhat-operators', disabled: false }] });
    await waitFor('redhat-operators READY again', async () =>
      (await source('redhat-operators'))?.status?.connectionState?.lastObservedState === 'READY' ? true : undefined,
    );
    assert.equal((await statusOf('redhat-operators'))?.status, 'Success');
  });

  test('disableAllDefaultSources removes every default but one its own entry enables', async () => {
    await setSpec({ disableAllDefaultSources: true, sources: [{ name: 'community-operators', disabled: false }] });
    await waitFor('redhat-operators deleted', async () => ((await source('redhat-operators')) ? undefined : true));
    assert.ok(await source('community-operators'));
    await setSpec({});
    await waitFor('back', async () => ((await source('redhat-operators')) ? true : undefined));
  });

  test('a name that is no default source is reported as an error, and nothing is done to it', async () => {
    await setSpec({ sources: [{ name: 'my-catalog', disabled: true }] });
    const s = await waitFor('status for my-catalog', () => statusOf('my-catalog'));
    assert.deepEqual(s, {
      name: 'my-catalog',
      disabled: true,
      status: 'Error',
      message: 'Not present in the default definitions',
    });
    await setSpec({});
  });

  test('an enabled default is put back: its spec after an edit, the object after a deletion', async () => {
    await kube.patch(CATALOG_SOURCE_TYPE, 'community-operators', { spec: { priority: 42 } }, { namespace: NS });
    await waitFor('priority reverted', async () =>
      (await source('community-operators'))?.spec.priority === undefined ? true : undefined,
    );
    const uid = (await source('community-operators'))?.metadata?.uid;
    await kube.delete(CATALOG_SOURCE_TYPE, 'community-operators', { namespace: NS });
    await waitFor('created again', async () => {
      const cs = await source('community-operators');
      return cs && cs.metadata?.uid !== uid ? true : undefined;
    });
  });

  test("a CatalogSource of a disabled default's name that someone else made stays; enabling takes it over", async () => {
    await setSpec({ sources: [{ name: 'community-operators', disabled: true }] });
    await waitFor('deleted', async () => ((await source('community-operators')) ? undefined : true));
    await kube.create(
      CATALOG_SOURCE_TYPE,
      {
        metadata: { name: 'community-operators', namespace: NS },
        spec: { sourceType: 'grpc', image: 'quay.example.com/mine/index:1', displayName: 'Mine' },
      },
      { namespace: NS },
    );
    await kube.patch(CATALOG_SOURCE_TYPE, 'community-operators', { spec: { priority: 5 } }, { namespace: NS });
    await sb.olm.settled();
    assert.equal((await source('community-operators'))?.spec.displayName, 'Mine');
    await setSpec({});
    await waitFor('spec and annotation put back', async () => {
      const cs = await source('community-operators');
      return cs?.metadata?.annotations?.['operatorframework.io/managed-by'] === 'marketplace-operator' &&
        cs.spec.image === undefined &&
        cs.spec.displayName === 'community-operators'
        ? true
        : undefined;
    });
  });

  test('alice and bob may not change it', async () => {
    for (const user of ['alice', 'bob']) {
      await assert.rejects(
        clientAs(sb, user).patch(OPERATOR_HUB_TYPE, 'cluster', { spec: { disableAllDefaultSources: true } }),
        (err) => isKubeError(err, 403),
      );
    }
  });
});

test('upstream has no OperatorHub: the API is not served and the object is a 404', async () => {
  const sb = await withSandbox({ demo: false });
  try {
    const kube = clientAs(sb, 'admin');
    assert.equal(await kube.serves(OPERATOR_HUB_TYPE), false);
    await assert.rejects(kube.get(OPERATOR_HUB_TYPE, 'cluster'), (err) => isKubeError(err, 404));
  } finally {
    await sb.close();
  }
});

test('a disabled default stays gone when the sandbox starts again on its data file', async () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-marketplace-restart-'));
  writeFixtureCatalog(join(root, 'redhat-operators'), [{ name: 'red', bundles: [{ version: '1.0.0' }] }]);
  const opts = {
    port: 0,
    flavor: 'openshift' as const,
    dataFile: join(root, 'data.jsonl'),
    kubeconfigPath: join(root, 'kubeconfig'),
    catalogs: [join(root, 'redhat-operators')],
  };
  try {
    const first = await startSandbox(opts);
    const kube = clientAs(first, 'admin');
    const hub = await kube.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster');
    await kube.replace(OPERATOR_HUB_TYPE, { ...hub, spec: { disableAllDefaultSources: true } });
    await waitFor('deleted', async () =>
      (await kube.listAll(CATALOG_SOURCE_TYPE, { namespace: NS })).items.length === 0 ? true : undefined,
    );
    await first.stop();
    const second = await startSandbox(opts);
    try {
      await second.olm.settled();
      assert.deepEqual((await clientAs(second, 'admin').listAll(CATALOG_SOURCE_TYPE, { namespace: NS })).items, []);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
