// The move from OLM v0 to OLM v1 when the ClusterCatalog gives the bundles by image only, proved on
// the real cluster: real OLM v0.38.0 installed cachely, certwarden and pgpilot (in team2) from the
// demo catalog served image-only (`--v0-bundles image`: every bundle olm.csv.metadata and an image
// in the cluster's registry, scripts/cluster-image-catalogs.ts), each bundle unpacked by OLM's own
// Job, whose pod the cluster's stand-in for a kubelet runs (scripts/cluster-unpack.ts); the same
// bundles are pushed as images to the cluster's registry (its `registry push-bundle`), and a
// ClusterCatalog of priority 10 names them by image only, with
// olm.csv.metadata in place of their objects, as published catalogs do: cachely by a tag, and a
// certwarden.v1.1.0 whose image also ships team2's CRD and a ClusterRole named like OLM's shared
// aggregate-olm-edit. The console pulls (OLM_CONSOLE_PULL_BUNDLE_IMAGES, trusting the registry's
// CA and loopback address, docs/running.md). certwarden's move is refused naming both objects,
// which keep their marks; cachely's plan names the image and digest it read, and the move reaches
// Installed=True on operator-controller v1.2.0, which pulled the image itself, with the Deployment
// OLM v0 made now the ClusterExtension's. Skipped with the reason where the cluster's programs are
// not built.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { CONFIG_MAP_TYPE, CRD_TYPE, DEPLOYMENT_TYPE, JOB_TYPE, rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE } from '../../olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { catalogSourceName } from '../../sandbox/olm/catalog-sources';
import { ApiError } from '../api-error';
import { clientAs, csvPhase, subscribe, waitFor } from '../testing/cluster';
import { FOREIGN_CRD, SHARED_ROLE } from '../testing/foreign-bundle-catalog';
import {
  demoDocs,
  foreignObjects,
  objectsOf,
  onlyByImage,
  type BundleObject,
  type CatalogDoc,
} from '../testing/image-only-bundles';
import { analyseMigration } from './migration';
import { applyMigration } from './migration-apply';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const root = join(import.meta.dirname, '..', '..', '..');
const DEMO_DIR = join(root, 'lib', 'sandbox', 'demo-catalog', 'catalog');
const CATALOG = 'move-images-only';
const CACHELY = 'cachely.v0.9.2';
const CERTWARDEN = 'certwarden.v1.1.0';
const WAIT = 240_000;

type Meta = {
  metadata: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
};

function registryProgram(): string {
  const r = spawnSync('bash', [join(root, 'cluster', 'build.sh'), 'paths'], { encoding: 'utf8' });
  const line = r.stdout.split('\n').find((l) => l.startsWith('registry='));
  if (!line) throw new Error(`cluster/build.sh paths names no registry: ${r.stderr}`);
  return line.slice('registry='.length);
}

/** The last lines of a cluster program's log that match `match`, for a failure to say what it did. */
function logLines(cluster: RealCluster, program: string, match: RegExp, n = 15): string {
  try {
    const lines = readFileSync(join(cluster.dir, 'logs', `${program}.log`), 'utf8').split('\n');
    return lines
      .filter((l) => match.test(l))
      .slice(-n)
      .map((l) => l.slice(0, 400))
      .join('\n');
  } catch (err) {
    return `(its log could not be read: ${(err as Error).message})`;
  }
}

/** Pushes the objects as a registry+v1 bundle image to `ref`; answers the image's digest. */
function pushBundle(cluster: RealCluster, pkg: string, objects: readonly BundleObject[], ref: string): string {
  const dir = join(cluster.dir, 'move-images', 'bundles', pkg);
  mkdirSync(join(dir, 'manifests'), { recursive: true });
  mkdirSync(join(dir, 'metadata'), { recursive: true });
  objects.forEach((o, i) => writeFileSync(join(dir, 'manifests', `${i}.json`), JSON.stringify(o)));
  writeFileSync(
    join(dir, 'metadata', 'annotations.yaml'),
    'annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n' +
      `  operators.operatorframework.io.bundle.package.v1: ${pkg}\n`,
  );
  const ca = join(cluster.dir, 'ca.crt');
  return execFileSync(registryProgram(), ['push-bundle', '--ca', ca, dir, ref], { encoding: 'utf8' }).trim();
}

/** Pushes the catalog image and adds it as ClusterCatalog CATALOG of priority 10, once Serving. */
async function addCatalog(admin: KubeClient, cluster: RealCluster, registry: string, docs: CatalogDoc[]) {
  const dir = join(cluster.dir, 'move-images', 'catalog');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const ref = `${registry}/catalogs/${CATALOG}:latest`;
  const ca = join(cluster.dir, 'ca.crt');
  execFileSync(registryProgram(), ['push-catalog', '--ca', ca, dir, ref], { encoding: 'utf8' });
  await admin.create(CLUSTER_CATALOG_TYPE, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name: CATALOG },
    spec: { priority: 10, source: { type: 'Image', image: { ref } } },
  });
  await waitFor(
    `ClusterCatalog ${CATALOG} Serving`,
    async () => {
      const cc = await admin.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        CLUSTER_CATALOG_TYPE,
        CATALOG,
      );
      return cc.status?.conditions?.some((c) => c.type === 'Serving' && c.status === 'True') ? true : undefined;
    },
    WAIT,
  );
}

const skip = clusterProgramsMissing();
if (skip) test('moving an operator to OLM v1 from an image-only catalog on the real cluster', (t) => t.skip(skip));
else
  describe('moving an operator to OLM v1 from an image-only catalog on the real cluster', () => {
    let cluster: RealCluster;
    let admin: KubeClient;
    let cachelyRef: string;
    let cachelyDigest: string;
    const source = catalogSourceName(DEMO_DIR);
    const succeeded = (ns: string, csv: string) =>
      waitFor(
        `${csv} Succeeded`,
        async () => ((await csvPhase(admin, ns, csv)) === 'Succeeded' ? true : undefined),
        WAIT,
      );

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR], 240_000, ['--v0-bundles', 'image']);
      admin = clientAs(cluster, 'admin');
      await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha', source });
      await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable', source });
      await subscribe(admin, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'], source });

      const demoCatalog = (await admin.listAll<{ spec: { source: { image: { ref: string } } } }>(CLUSTER_CATALOG_TYPE))
        .items[0]!;
      const registry = demoCatalog.spec.source.image.ref.split('/')[0]!;
      // As a person running the console would: docs/running.md, "Bundle images".
      process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
      process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(cluster.dir, 'ca.crt');
      process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = registry;

      const cachely = demoDocs('cachely');
      const certwarden = demoDocs('certwarden');
      cachelyRef = `${registry}/move-images/cachely:v0.9.2`;
      cachelyDigest = pushBundle(cluster, 'cachely', objectsOf(cachely.find((d) => d.name === CACHELY)!), cachelyRef);
      const certwardenDigest = pushBundle(
        cluster,
        'certwarden',
        [...objectsOf(certwarden.find((d) => d.name === CERTWARDEN)!), ...foreignObjects()],
        `${registry}/move-images/certwarden:v1.1.0`,
      );
      await addCatalog(admin, cluster, registry, [
        ...onlyByImage(cachely, CACHELY, cachelyRef),
        ...onlyByImage(certwarden, CERTWARDEN, `${registry}/move-images/certwarden@${certwardenDigest}`),
      ]);

      await succeeded('operators', CACHELY);
      await succeeded('operators', CERTWARDEN);
      await succeeded('team2', 'pgpilot.v1.4.0');
      // OLM records the installed CSV on the Subscription after the CSV succeeds; the move reads
      // the channel from there.
      for (const [sub, csv] of <const>[
        ['cachely', CACHELY],
        ['certwarden', CERTWARDEN],
      ])
        await waitFor(
          `Subscription ${sub} naming ${csv}`,
          async () =>
            (await admin.get<Subscription>(SUBSCRIPTION_TYPE, sub, 'operators')).status?.installedCSV === csv
              ? true
              : undefined,
          WAIT,
        );
    });
    after(() => cluster?.stop());

    test('OLM v0 unpacked each bundle from its image in a Job, into the ConfigMap it installed from', async () => {
      type Unpack = Meta & { status?: { conditions?: { type: string; status: string }[] } };
      const jobs = (await admin.list<Unpack>(JOB_TYPE, { namespace: 'olm' })).items;
      const sources: string[] = [];
      for (const job of jobs) {
        const name = (job as { metadata: { name?: string } }).metadata.name!;
        assert.ok(
          job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'),
          JSON.stringify(job.status),
        );
        const cm = await admin.get<Meta & { binaryData?: Record<string, string> }>(CONFIG_MAP_TYPE, name, 'olm');
        assert.equal(cm.metadata.annotations?.['olm.contentEncoding'], 'gzip+base64');
        assert.ok(Object.keys(cm.binaryData ?? {}).length > 0, `ConfigMap ${name} is empty`);
        sources.push(cm.metadata.annotations?.['olm.sourceImage'] ?? '');
      }
      // One unpack per bundle installed, each from its image in the cluster's registry, by digest.
      assert.deepEqual(
        sources.map((s) => s.replace(/^[^/]+\/bundles\//, '').replace(/@sha256:[0-9a-f]{64}$/, '@digest')).sort(),
        ['cachely@digest', 'certwarden@digest', 'pgpilot@digest'],
        JSON.stringify(sources),
      );
    });

    test('an image shipping team2’s CRD and OLM’s shared role is refused; both keep their marks', async () => {
      const marks = async () =>
        (
          await Promise.all([
            admin.get<Meta>(CRD_TYPE, FOREIGN_CRD),
            admin.get<Meta>(rbacType('ClusterRole'), SHARED_ROLE),
          ])
        ).map((o) => ({ labels: o.metadata.labels ?? {}, annotations: o.metadata.annotations ?? {} }));
      // OLM v0 labels team2's CRD as a component of pgpilot on its own schedule.
      await waitFor(
        `${FOREIGN_CRD} labelled as pgpilot's`,
        async () => {
          const crd = await admin.get<Meta>(CRD_TYPE, FOREIGN_CRD);
          return crd.metadata.labels?.['operators.coreos.com/pgpilot.team2'] !== undefined ? true : undefined;
        },
        WAIT,
      );
      const before = await marks();
      const plan = await analyseMigration(admin, 'operators', CERTWARDEN);
      assert.deepEqual(
        plan.view.reasons.map((r) => [r.code, r.object?.kind, r.object?.name]),
        [
          ['not-installed-by-v0', 'CustomResourceDefinition', FOREIGN_CRD],
          ['shared-role', 'ClusterRole', SHARED_ROLE],
        ],
        JSON.stringify(plan.view.reasons),
      );
      assert.equal(plan.view.source?.from, 'image');
      await assert.rejects(
        applyMigration(admin, 'operators', CERTWARDEN, { waitMs: WAIT }),
        (e) => e instanceof ApiError && e.code === 409 && e.message.includes(FOREIGN_CRD),
      );
      assert.deepEqual(await marks(), before);
      await admin.get(CSV_TYPE, CERTWARDEN, 'operators');
      await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'certwarden'), (e) => isKubeError(e, 404));
    });

    test('read from its image, the operator moves and OLM v1 reports it Installed', async () => {
      const plan = await analyseMigration(admin, 'operators', CACHELY);
      assert.equal(plan.view.canMove, true, JSON.stringify(plan.view.reasons));
      assert.equal(plan.view.catalog, CATALOG);
      assert.deepEqual(plan.view.source, { from: 'image', image: cachelyRef, digest: cachelyDigest });
      const fates = new Map(plan.view.objects!.map((o) => [`${o.kind}/${o.name}`, o.fate]));
      assert.equal(fates.get('Deployment/cachely-controller-manager'), 'adopt');
      assert.equal(fates.get('CustomResourceDefinition/cacheclusters.cachely.example.com'), 'adopt');

      // This cluster is minutes old: the garbage collector starts watching a new kind only at its
      // next 30-second resync and its REST mapper lags behind new CRDs (seen in its log, "unable to
      // get REST mapping for operators.coreos.com/v2/OperatorCondition"), and its retries back off,
      // so the CSV's orphan finalizer may outlast the move's minute under load; a mature cluster's
      // does not.
      const result = await applyMigration(admin, 'operators', CACHELY, {
        waitMs: WAIT,
        csvWaitMs: WAIT,
        bundleDigest: cachelyDigest,
      });
      // A move that fails here says what OLM v0 and the garbage collector logged about the CSV: a
      // CI run once found it still there 60 s after its deletion, which never happened locally.
      assert.equal(
        result.ok,
        true,
        result.ok
          ? ''
          : `${JSON.stringify(result)}\nolm-operator:\n${logLines(cluster, 'olm-operator', /cachely\.v0\.9\.2/)}` +
              `\nkube-controller-manager:\n${logLines(cluster, 'kube-controller-manager', /cachely|garbage/)}`,
      );
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
      const installed = ce.status?.conditions?.find((c) => c.type === 'Installed');
      assert.equal(installed?.status, 'True', JSON.stringify(ce.status));
      // operator-controller pulled the very image the catalog names.
      assert.equal(installed?.message, `Installed bundle ${cachelyRef} successfully`);
      assert.deepEqual(ce.status?.install?.bundle, { name: CACHELY, version: '0.9.2' });
      const dep = await admin.get<Meta>(DEPLOYMENT_TYPE, 'cachely-controller-manager', 'operators');
      assert.equal(
        dep.metadata.labels?.['olm.operatorframework.io/owner-name'],
        'cachely',
        JSON.stringify([dep.metadata, result]),
      );
      assert.ok(
        dep.metadata.ownerReferences?.some(
          (r) => r.kind === 'ClusterExtension' && r.name === 'cachely' && r.controller,
        ),
        JSON.stringify(dep.metadata.ownerReferences),
      );
      await assert.rejects(admin.get(CSV_TYPE, CACHELY, 'operators'), (e) => isKubeError(e, 404));
      await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators'), (e) => isKubeError(e, 404));
    });
  });
