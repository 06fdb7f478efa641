// Bundle images read from the real cluster's registry (go-containerregistry's, HTTPS with the
// cluster's CA; scripts/cluster-olm-v1.ts pushes each bundle of each --catalog there and the
// ClusterCatalog names them by digest). The shared gatekeeper catalog gives all its bundles by
// image only (olm.csv.metadata, no olm.bundle.object), so its ClusterCatalog is one whose bundles
// the console knows only through their images. The OLM v1 install wizard, as the admin, with the
// console told to pull (OLM_CONSOLE_PULL_BUNDLE_IMAGES) and to trust the registry's CA and
// loopback address: its plan carries the installer's rules for the bundle (no "not known"),
// and the install made with exactly those rules reaches Installed=True on operator-controller
// v1.2.0. A registry the console was not told about stays refused, and a second read comes from
// the cache folder. Skipped with the reason when the cluster's programs or the shared catalogs
// are missing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { sharedCatalog, sharedCatalogsMissing } from '../../testing/shared-catalogs';
import { clientAs, waitFor } from '../testing/cluster';
import { installV1AsPerson, planV1InstallAsPerson } from '../olm-v1/install';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../olm-v1/resources';
import { readBundleImage } from './bundle-image';
import { forgetBundlesInMemory } from './bundle-cache';
import { pullSettings, type PullSettings } from './pull-settings';

const GATEKEEPER = sharedCatalog('gatekeeper-operator-product-v4.20');
const CATALOG = 'gatekeeper-operator-product-v4-20';
const PACKAGE = 'gatekeeper-operator-product';

const skip = clusterProgramsMissing() ?? (existsSync(GATEKEEPER) ? undefined : sharedCatalogsMissing);
if (skip) test('bundle images on the real cluster', (t) => t.skip(skip));
else
  describe('bundle images on the real cluster', () => {
    let cluster: RealCluster;
    let admin: KubeClient;
    let registry: string;
    const snapshots = mkdtempSync(join(tmpdir(), 'bundle-image-cluster-'));
    const body = {
      catalog: CATALOG,
      packageName: PACKAGE,
      name: 'gatekeeper',
      namespace: 'gatekeeper-images',
      serviceAccount: { name: 'gatekeeper-installer', grant: true },
      channels: [],
      onlyThisCatalog: true,
      upgradeConstraintPolicy: 'CatalogProvided' as const,
    };

    before(async () => {
      cluster = await startRealCluster([GATEKEEPER]);
      admin = clientAs(cluster, 'admin');
      const cc = await admin.get<{ spec: { source: { image: { ref: string } } } }>(CLUSTER_CATALOG_TYPE, CATALOG);
      registry = cc.spec.source.image.ref.split('/')[0]!;
      // As a person running the console would: docs/running.md, "Bundle images".
      process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
      process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(cluster.dir, 'ca.crt');
      process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = registry;
      process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR = snapshots;
    });
    after(async () => {
      await cluster?.stop();
      rmSync(snapshots, { recursive: true, force: true });
    });

    test("the wizard's plan carries the installer's rules read from the bundle image", async () => {
      const { plan } = await planV1InstallAsPerson(admin, body);
      assert.deepEqual(
        plan.warnings.filter((w) => w.code === 'rightsUnknown'),
        [],
      );
      assert.ok('bundle' in plan.resolution, JSON.stringify(plan.resolution));
      const kinds = plan.rbac.map((o) => o.kind).sort();
      assert.deepEqual(kinds, ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
      const cached = readdirSync(join(snapshots, 'bundle-images')).filter((n) => n.endsWith('.json'));
      assert.equal(cached.length, 1, cached.join(', '));
    });

    test('an install with exactly those rules reaches Installed on operator-controller v1.2.0', async () => {
      const answer = await installV1AsPerson(admin, body);
      assert.equal(answer.name, 'gatekeeper');
      const installed = await waitFor(
        'ClusterExtension gatekeeper Installed',
        async () => {
          const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'gatekeeper');
          const c = ce.status?.conditions?.find((x) => x.type === 'Installed');
          return c?.status === 'True' ? ce : undefined;
        },
        180_000,
      );
      assert.match(installed.status?.install?.bundle?.name ?? '', /^gatekeeper-operator-product\.v/);
    });

    test('a second read of a bundle comes from the cache folder; an unnamed registry is refused', async () => {
      const settings = pullSettings() as PullSettings;
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'gatekeeper');
      const message = ce.status?.conditions?.find((x) => x.type === 'Installed')?.message ?? '';
      const image = /^Installed bundle (\S+) successfully$/.exec(message)?.[1];
      assert.ok(image, message);
      forgetBundlesInMemory();
      const read = await readBundleImage(image, settings);
      assert.ok([...read.files.keys()].includes('metadata/annotations.yaml'));
      assert.ok(readdirSync(join(snapshots, 'bundle-images')).includes(`${read.digest.replace(':', '-')}.json`));
      forgetBundlesInMemory();
      await assert.rejects(
        () => readBundleImage(image, { ...settings, cacheDir: undefined, privateRegistries: new Set<string>() }),
        /a loopback, private or link-local address, which the console dials only for registries named in/,
      );
    });
  });
