// Bundle images read from the real cluster's registry (go-containerregistry's, HTTPS with the
// cluster's CA; scripts/cluster-olm-v1.ts pushes there each bundle of each --catalog). Two
// ClusterCatalogs whose bundles the console knows only through their images:
// - the shared gatekeeper catalog, published that way (olm.csv.metadata, no olm.bundle.object; the
//   cluster's bundle images hold the objects derived from that metadata);
// - an image-only copy of two demo packages this test makes: each bundle's own objects (Deployments,
//   permissions, CRDs) pushed as a bundle image with the cluster's `registry push-bundle`, and a
//   catalog image naming them with no objects of its own, as published catalogs are.
// The OLM v1 install wizard runs as the admin with the console told to pull
// (OLM_CONSOLE_PULL_BUNDLE_IMAGES) and to trust the registry's CA and loopback address: its plan
// carries the installer's rules (no "not known"); an install granting exactly those reaches
// Installed=True on operator-controller v1.2.0, and those rules less one leave it Retrying in the
// API server's Forbidden words. A registry the console was not told about stays refused, and a
// second read comes from the cache folder. Skipped with the reason when the cluster's programs or
// the shared catalogs are missing.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../../k8s/core-kinds';
import { readFbcDir } from '../../olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '../../olm/fbc/types';
import type { PolicyRule } from '../../olm/resources/cluster-service-version';
import { sharedCatalog, sharedCatalogsMissing } from '../../testing/shared-catalogs';
import { clientAs, waitFor } from '../testing/cluster';
import { installV1AsPerson, planV1InstallAsPerson, type V1InstallBody } from '../olm-v1/install';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../olm-v1/resources';
import { readBundleImage } from './bundle-image';
import { forgetBundlesInMemory } from './bundle-cache';
import { pullSettings, type PullSettings } from './pull-settings';

const root = join(import.meta.dirname, '..', '..', '..');
const DEMO_DIR = join(root, 'lib', 'sandbox', 'demo-catalog', 'catalog');
const GATEKEEPER = sharedCatalog('gatekeeper-operator-product-v4.20');
const GATEKEEPER_CATALOG = 'gatekeeper-operator-product-v4-20';
const IMAGES_ONLY = 'demo-images-only';
/** The demo bundles copied by image only: one the wizard installs, one installed with a rule less. */
const COPIED = { pgpilot: 'pgpilot.v1.5.0', certwarden: '' };

type Blob = Record<string, unknown> & { schema?: string; name?: string; package?: string };

function registryProgram(): string {
  const r = spawnSync('bash', [join(root, 'cluster', 'build.sh'), 'paths'], { encoding: 'utf8' });
  const line = r.stdout.split('\n').find((l) => l.startsWith('registry='));
  if (!line) throw new Error(`cluster/build.sh paths names no registry: ${r.stderr}`);
  return line.slice('registry='.length);
}

/**
 * Pushes an image-only copy of the COPIED demo packages into the cluster's registry and adds it
 * as ClusterCatalog IMAGES_ONLY: each bundle's objects in a bundle image, the catalog's bundles
 * naming those images by digest, with no olm.bundle.object.
 */
async function pushImagesOnlyCatalog(admin: KubeClient, cluster: RealCluster, registry: string): Promise<void> {
  const work = join(cluster.dir, 'images-only');
  const program = registryProgram();
  const ca = join(cluster.dir, 'ca.crt');
  const blobs = readFbcDir(DEMO_DIR).blobs.map((b) => b.blob as Blob);
  const out: Blob[] = [];
  for (const pkg of Object.keys(COPIED) as (keyof typeof COPIED)[]) {
    const bundles = blobs.filter((b) => b.schema === SCHEMA_BUNDLE && b.package === pkg);
    const bundle = COPIED[pkg] ? bundles.find((b) => b.name === COPIED[pkg])! : bundles.at(-1)!;
    COPIED[pkg] = String(bundle.name);
    const props = (bundle.properties ?? []) as { type: string; value: { data?: string } }[];
    const dir = join(work, 'bundles', String(bundle.name));
    mkdirSync(join(dir, 'manifests'), { recursive: true });
    mkdirSync(join(dir, 'metadata'), { recursive: true });
    props
      .filter((p) => p.type === PROPERTY_BUNDLE_OBJECT)
      .forEach((p, i) =>
        writeFileSync(join(dir, 'manifests', `${i}.json`), Buffer.from(p.value.data!, 'base64').toString()),
      );
    writeFileSync(
      join(dir, 'metadata', 'annotations.yaml'),
      `annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n` +
        `  operators.operatorframework.io.bundle.package.v1: ${pkg}\n`,
    );
    const ref = `${registry}/images-only/${pkg}:${String(bundle.name)}`;
    const digest = execFileSync(program, ['push-bundle', '--ca', ca, dir, ref], { encoding: 'utf8' }).trim();
    out.push(
      { schema: 'olm.package', name: pkg, defaultChannel: 'stable' },
      { schema: 'olm.channel', package: pkg, name: 'stable', entries: [{ name: bundle.name }] },
      {
        ...bundle,
        image: `${registry}/images-only/${pkg}@${digest}`,
        properties: props.filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT),
      },
    );
  }
  const catalogDir = join(work, 'catalog');
  mkdirSync(catalogDir, { recursive: true });
  writeFileSync(join(catalogDir, 'catalog.json'), out.map((b) => JSON.stringify(b)).join('\n') + '\n');
  const catalogRef = `${registry}/catalogs/${IMAGES_ONLY}:latest`;
  execFileSync(program, ['push-catalog', '--ca', ca, catalogDir, catalogRef], { encoding: 'utf8' });
  await admin.create(CLUSTER_CATALOG_TYPE, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name: IMAGES_ONLY },
    spec: { source: { type: 'Image', image: { ref: catalogRef } } },
  });
  await waitFor(
    `ClusterCatalog ${IMAGES_ONLY} Serving`,
    async () => {
      const cc = await admin.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        CLUSTER_CATALOG_TYPE,
        IMAGES_ONLY,
      );
      return cc.status?.conditions?.some((c) => c.type === 'Serving' && c.status === 'True') ? true : undefined;
    },
    120_000,
  );
}

const wizard = (catalog: string, pkg: string, name: string, version?: string): V1InstallBody => ({
  catalog,
  packageName: pkg,
  name,
  namespace: `${name}-images`,
  serviceAccount: { name: `${name}-installer`, grant: true },
  ...(version ? { version } : {}),
  channels: [],
  onlyThisCatalog: true,
  upgradeConstraintPolicy: 'CatalogProvided',
});

const condition = async (admin: KubeClient, name: string, type: string) =>
  (await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name)).status?.conditions?.find((c) => c.type === type);

const installed = (admin: KubeClient, name: string) =>
  waitFor(
    `ClusterExtension ${name} Installed`,
    async () => ((await condition(admin, name, 'Installed'))?.status === 'True' ? true : undefined),
    180_000,
  );

const skip = clusterProgramsMissing() ?? (existsSync(GATEKEEPER) ? undefined : sharedCatalogsMissing);
if (skip) test('bundle images on the real cluster', (t) => t.skip(skip));
else
  describe('bundle images on the real cluster', () => {
    let cluster: RealCluster;
    let admin: KubeClient;
    let registry: string;
    const snapshots = mkdtempSync(join(tmpdir(), 'bundle-image-cluster-'));

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR, GATEKEEPER]);
      admin = clientAs(cluster, 'admin');
      const cc = await admin.get<{ spec: { source: { image: { ref: string } } } }>(
        CLUSTER_CATALOG_TYPE,
        GATEKEEPER_CATALOG,
      );
      registry = cc.spec.source.image.ref.split('/')[0]!;
      // As a person running the console would: docs/running.md, "Bundle images".
      process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
      process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(cluster.dir, 'ca.crt');
      process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = registry;
      process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR = snapshots;
      await pushImagesOnlyCatalog(admin, cluster, registry);
    });
    after(async () => {
      await cluster?.stop();
      rmSync(snapshots, { recursive: true, force: true });
    });

    test('a published image-only bundle (gatekeeper): the rules from its image install it', async () => {
      const body = wizard(GATEKEEPER_CATALOG, 'gatekeeper-operator-product', 'gatekeeper');
      const { plan } = await planV1InstallAsPerson(admin, body);
      assert.deepEqual(
        plan.warnings.filter((w) => w.code === 'rightsUnknown'),
        [],
      );
      assert.ok(plan.granted && plan.rbac.some((o) => o.kind === 'ClusterRole'), JSON.stringify(plan.rbac));
      await installV1AsPerson(admin, body);
      await installed(admin, 'gatekeeper');
      const cached = readdirSync(join(snapshots, 'bundle-images')).filter((n) => n.endsWith('.json'));
      assert.ok(cached.length >= 1, cached.join(', '));
    });

    test("a whole bundle given by image: the wizard's rules, exactly, install it", async () => {
      const body = wizard(IMAGES_ONLY, 'pgpilot', 'pgpilot');
      const { plan } = await planV1InstallAsPerson(admin, body);
      assert.deepEqual(
        plan.warnings.filter((w) => w.code === 'rightsUnknown'),
        [],
      );
      assert.deepEqual(plan.resolution, { bundle: COPIED.pgpilot, version: '1.5.0', catalog: IMAGES_ONLY });
      // The bundle's Deployment is named in the installer's rules: they came from the image.
      const rules = plan.rbac.flatMap((o) => (o as { rules?: PolicyRule[] }).rules ?? []);
      assert.ok(
        rules.some((r) => r.resources?.includes('deployments') && r.resourceNames?.length),
        JSON.stringify(rules),
      );
      await installV1AsPerson(admin, body);
      await installed(admin, 'pgpilot');
      const progressing = await condition(admin, 'pgpilot', 'Progressing');
      assert.deepEqual([progressing?.reason, progressing?.message], ['Succeeded', 'desired state reached']);
    });

    test('those rules less get on the Deployment leave v1 Retrying in Forbidden words', async () => {
      const body = wizard(IMAGES_ONLY, 'certwarden', 'certwarden');
      const { plan } = await planV1InstallAsPerson(admin, body);
      const ns = body.namespace;
      await admin.create(NAMESPACE_TYPE, { metadata: { name: ns } });
      await admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: body.serviceAccount.name, namespace: ns } });
      for (const o of plan.rbac) {
        const rules = (o as { rules?: PolicyRule[] }).rules;
        for (const r of rules ?? [])
          if (r.resources?.includes('deployments') && r.resourceNames) r.verbs = r.verbs.filter((v) => v !== 'get');
        await admin.create(rbacType(o.kind as 'Role'), o);
      }
      await admin.create(CLUSTER_EXTENSION_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterExtension',
        metadata: { name: 'certwarden' },
        spec: {
          namespace: ns,
          serviceAccount: { name: body.serviceAccount.name },
          source: {
            sourceType: 'Catalog',
            catalog: {
              packageName: 'certwarden',
              selector: { matchLabels: { 'olm.operatorframework.io/metadata.name': IMAGES_ONLY } },
            },
          },
        },
      });
      const retrying = await waitFor(
        'Progressing Retrying on the lookup',
        async () => {
          const c = await condition(admin, 'certwarden', 'Progressing');
          return c?.reason === 'Retrying' && c.message?.startsWith('Unable to continue') ? c : undefined;
        },
        180_000,
      );
      assert.match(
        retrying.message ?? '',
        new RegExp(
          `is forbidden: User "system:serviceaccount:${ns}:${body.serviceAccount.name}" cannot get resource ` +
            `"deployments" in API group "apps" in the namespace "${ns}"`,
        ),
      );
    });

    test('a second read of a bundle comes from the cache folder; an unnamed registry is refused', async () => {
      const settings = pullSettings() as PullSettings;
      const message = (await condition(admin, 'pgpilot', 'Installed'))?.message ?? '';
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
