// What real opm answers for a bundle given by image only, and what the console makes of it, on the
// real cluster: the demo catalog served image-only (`--v0-bundles image`: `opm render --migrate-level
// bundle-object-to-csv-metadata`, every bundle olm.csv.metadata and an image in the cluster's
// registry, scripts/cluster-image-catalogs.ts) by real opm. Its GetBundle for cachely.v0.9.2 gives one
// object, a CSV made from the metadata whose install strategy installs nothing, and properties that
// name neither olm.csv.metadata nor olm.bundle.object. The console takes it for no manifests: the
// package page's brings and a scoped install's rights come from the bundle's image (pulled as
// docs/running.md says), with cachely-controller's cluster-wide rule. Skipped with the reason where
// the cluster's programs are not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../e2e/support/real-cluster';
import type { PackageBrings } from '../api/package-brings';
import type { KubeClient } from '../k8s/client';
import type { BundleBrings } from '../olm/bundle/brings';
import type { InstallPlanResult } from '../olm/install/plan';
import { catalogSourceName } from '../sandbox/olm/catalog-sources';
import { CLUSTER_CATALOG_TYPE } from '../server/olm-v1/resources';
import { clientAs, waitFor } from '../server/testing/cluster';
import { consoleRequest } from '../server/testing/console-request';
import { RegistryClient } from './registry-client';
import { fetchBundleObjects } from './registry-read';

const DEMO_DIR = join(import.meta.dirname, '..', 'sandbox', 'demo-catalog', 'catalog');
const BUNDLE = 'cachely.v0.9.2';
const NAMESPACES_RULE = { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] };
const WAIT = 240_000;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Brings = PackageBrings & { brings?: BundleBrings; from?: string; unknown?: string };

const skip = clusterProgramsMissing();
if (skip) test('a bundle given by image only, as real opm serves it', (t) => t.skip(skip));
else
  describe('a bundle given by image only, as real opm serves it', () => {
    let cluster: RealCluster;
    let admin: KubeClient;
    let address: string;
    const source = catalogSourceName(DEMO_DIR);

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR], WAIT, ['--v0-bundles', 'image']);
      admin = clientAs(cluster, 'admin');
      address = cluster.catalogs[source]!;
      const catalog = (await admin.listAll<{ spec: { source: { image: { ref: string } } } }>(CLUSTER_CATALOG_TYPE))
        .items[0]!;
      // As a person running the console would: docs/running.md, "Bundle images".
      process.env.OLM_CONSOLE_KUBECONFIG = cluster.kubeconfigPath;
      process.env.OLM_CONSOLE_AUTH = 'token';
      process.env.OLM_CONSOLE_WARM_INDEX = 'false';
      process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
      process.env.OLM_CONSOLE_REGISTRY_CA_FILE = join(cluster.dir, 'ca.crt');
      process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = catalog.spec.source.image.ref.split('/')[0]!;
    });
    after(() => cluster?.stop());

    const call = async <T>(
      handler: Handler,
      path: string,
      user: string,
      params: Record<string, string>,
      body?: unknown,
    ) => {
      const req = consoleRequest(path, { token: cluster.tokens[user]!, ...(body ? { method: 'POST', body } : {}) });
      const res = await handler(req, { params: Promise.resolve(params) });
      return { status: res.status, body: (await res.json()) as T };
    };

    test("opm's GetBundle answers with one object: a CSV made from the metadata, installing nothing", async () => {
      const client = new RegistryClient(address, 10_000, 16 * 1024 * 1024);
      try {
        const b = await client.getBundle('cachely', 'alpha', BUNDLE);
        assert.match(b.bundlePath, /\/bundles\/.*cachely/);
        assert.equal(b.object.length, 1);
        assert.equal(b.object[0], b.csvJson);
        const csv = JSON.parse(b.csvJson) as { kind: string; spec: { install: unknown } };
        assert.equal(csv.kind, 'ClusterServiceVersion');
        assert.deepEqual(csv.spec.install, { strategy: 'deployment', spec: { deployments: null } });
        const types = b.properties.map((p) => p.type);
        assert.ok(!types.includes('olm.csv.metadata') && !types.includes('olm.bundle.object'), types.join(', '));
      } finally {
        client.close();
      }
      const objects = await fetchBundleObjects(address, 16 * 1024 * 1024, 'cachely', 'alpha', BUNDLE);
      assert.equal(typeof objects, 'string', JSON.stringify(objects).slice(0, 300));
      assert.match(objects as string, /^its bundle is the image [^ ]+cachely.* a CSV made from the catalog's metadata/);
    });

    test("the package page's brings are the image's, with cachely-controller's cluster-wide rule", async () => {
      const { GET } = (await import('@/app/api/catalog/packages/[namespace]/[catalog]/[package]/brings/route')) as {
        GET: Handler;
      };
      const params = { namespace: 'olm', catalog: source, package: 'cachely' };
      const a = await waitFor(
        'the brings of cachely',
        async () => {
          const r = await call<Brings>(GET, `/api/catalog/packages/olm/${source}/cachely/brings`, 'bob', params);
          return r.status === 200 ? r.body : undefined;
        },
        WAIT,
      );
      assert.equal(a.csvName, BUNDLE);
      assert.equal(a.from, 'image', JSON.stringify(a));
      assert.ok(
        a.brings!.clusterWide.some((r) => JSON.stringify(r).includes('"namespaces"')),
        JSON.stringify(a.brings!.clusterWide),
      );
    });

    test("a scoped install grants its account the image's cluster-wide rule", async () => {
      const { POST } = (await import('@/app/api/install/plan/route')) as { POST: Handler };
      const p = await call<InstallPlanResult>(
        POST,
        '/api/install/plan',
        'admin',
        {},
        {
          catalog: { namespace: 'olm', name: source },
          approval: 'Manual',
          package: 'cachely',
          channel: 'alpha',
          version: BUNDLE,
          namespace: 'cache-team',
          installMode: 'OwnNamespace',
          serviceAccount: { name: 'installer', grant: true },
        },
      );
      assert.equal(p.status, 200, JSON.stringify(p.body));
      assert.equal(p.body.scoped?.rbac.unknownRules, undefined);
      const role = (p.body.scoped?.rbac.objects as { kind?: string; rules?: unknown[] }[]).find(
        (o) => o.kind === 'ClusterRole',
      );
      assert.ok(
        role?.rules?.some((r) => JSON.stringify(r) === JSON.stringify(NAMESPACES_RULE)),
        JSON.stringify(role),
      );
    });
  });
