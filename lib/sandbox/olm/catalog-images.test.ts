// Image-backed CatalogSources in the sandbox (--catalog-image IMAGE=DIR): served from the mapped
// folder, polled as OLM polls an image (operator-framework/api's CatalogSource.Poll/Update,
// OLM's ensureUpdatePod writing latestImageRegistryPoll), the interval read as OLM reads it.
// Seen over HTTPS with the admin's client, as kubectl would.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../../olm/resources/catalog-source';
import { clientAs, waitFor } from '../../server/testing/cluster';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { withSandbox } from '../testing/sandbox-fixture';

const PM = {
  group: 'packages.operators.coreos.com',
  version: 'v1',
  plural: 'packagemanifests',
  namespaced: true,
  kind: 'PackageManifest',
};
type Manifest = { status?: { catalogSource?: string; channels?: { currentCSV: string }[] } };
type Status = {
  connectionState?: { lastObservedState?: string };
  latestImageRegistryPoll?: string;
  reason?: string;
  message?: string;
};

describe('image-backed CatalogSources (--catalog-image)', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-catalog-image-'));
  const dir = join(root, 'acme');
  const IMAGE = 'quay.example.com/acme/catalog:latest';
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;

  const source = (name: string, spec: Record<string, unknown>) =>
    kube.create<CatalogSource>(
      CATALOG_SOURCE_TYPE,
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name, namespace: 'olm' },
        spec: { sourceType: 'grpc', displayName: name, ...spec },
      } as CatalogSource,
      { namespace: 'olm' },
    );
  const status = async (name: string) =>
    (await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, 'olm')).status as Status | undefined;
  const head = async (pkg: string) => {
    try {
      return (await kube.get<Manifest>(PM, pkg, 'olm')).status?.channels?.[0]?.currentCSV;
    } catch {
      return undefined;
    }
  };

  before(async () => {
    writeFixtureCatalog(dir, [{ name: 'anvil', bundles: [{ version: '1.0.0' }] }]);
    sb = await withSandbox({ demo: false, catalogImages: { [IMAGE]: dir } });
    kube = clientAs(sb, 'admin');
  });
  after(async () => {
    await sb?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a CatalogSource naming a mapped image is READY and its packages are PackageManifests', async () => {
    await source('acme', { image: IMAGE, updateStrategy: { registryPoll: { interval: '2s' } } });
    await waitFor('acme READY', async () =>
      (await status('acme'))?.connectionState?.lastObservedState === 'READY' ? true : undefined,
    );
    assert.equal(await waitFor('anvil listed', () => head('anvil')), 'anvil.v1.0.0');
  });

  test('each poll writes latestImageRegistryPoll, and new content in the folder is served', async () => {
    const first = await waitFor('a first poll', async () => (await status('acme'))?.latestImageRegistryPoll);
    writeFixtureCatalog(dir, [
      { name: 'anvil', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
    ]);
    await waitFor(
      'the new head after a poll',
      async () => ((await head('anvil')) === 'anvil.v1.1.0' ? true : undefined),
      15_000,
    );
    const later = await waitFor(
      'a later poll',
      async () => {
        const t = (await status('acme'))?.latestImageRegistryPoll;
        return t && t > first ? t : undefined;
      },
      15_000,
    );
    assert.ok(Date.parse(later) > Date.parse(first));
  });

  test('an image the sandbox was not given fails with the way out', async () => {
    await source('unknown', { image: 'quay.example.com/nobody/catalog:1' });
    const st = await waitFor('TRANSIENT_FAILURE', async () => {
      const s = await status('unknown');
      return s?.connectionState?.lastObservedState === 'TRANSIENT_FAILURE' ? s : undefined;
    });
    assert.match(
      st.message ?? '',
      /quay\.example\.com\/nobody\/catalog:1 is not one it was started with \(--catalog-image IMAGE=DIR\)/,
    );
  });

  test("an interval OLM cannot parse is InvalidIntervalError with OLM's message, and the catalog is still served", async () => {
    await source('badpoll', { image: IMAGE, updateStrategy: { registryPoll: { interval: '19mError Code' } } });
    const st = await waitFor('the error', async () => {
      const s = await status('badpoll');
      return s?.reason === 'InvalidIntervalError' ? s : undefined;
    });
    assert.equal(
      st.message,
      'error parsing spec.updateStrategy.registryPoll.interval. Using the default value of 15m0s instead. Error: time: unknown unit "mError Code" in duration "19mError Code"',
    );
    assert.equal(st.connectionState?.lastObservedState, 'READY');
  });
});
