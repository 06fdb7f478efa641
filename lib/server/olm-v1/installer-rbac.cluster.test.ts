// The installer's rights (lib/olm/v1/installer-rbac.ts) proved on OLM v1 itself: a ServiceAccount
// bound to exactly those rules installs a demo bundle as a ClusterExtension (Installed True, and
// Progressing "desired state reached", so the informers' cluster-wide list/watch works too); the
// same rules less one (get on the bundle's Deployment) leave the extension Retrying with Helm's
// lookup refused in the API server's Forbidden words. On the sandbox, then on the real cluster's
// operator-controller v1.2.0 (`npm run cluster`), skipped with the reason where its programs are
// not built.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import type { KubeClient } from '../../k8s/client';
import { DEPLOYMENT_TYPE, NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../../k8s/core-kinds';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { bundleObjects } from '../../olm/fbc/model';
import type { PolicyRule } from '../../olm/resources/cluster-service-version';
import { installerRbac } from '../../olm/v1/installer-rbac';
import { renderBundle } from '../../olm/v1/render-bundle';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, waitFor } from '../testing/cluster';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');
const demo = loadCatalog(DEMO_DIR);

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<
  string,
  unknown
>;

/** What v1 renders of a demo bundle in `namespace`, from the same catalog the cluster serves. */
function rendered(pkg: string, bundle: string, namespace: string): Obj[] {
  const objects = bundleObjects(demo.packages.get(pkg)!.bundles.get(bundle)!) as Obj[];
  const csv = objects.find((o) => o.kind === 'ClusterServiceVersion')!;
  const r = renderBundle(
    csv,
    objects.filter((o) => o !== csv),
    namespace,
  );
  if ('error' in r) throw new Error(r.error);
  return r.objects as Obj[];
}

async function installer(admin: KubeClient, ns: string, rbac: Record<string, unknown>[]): Promise<void> {
  await admin.create(NAMESPACE_TYPE, { metadata: { name: ns } });
  await admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: ns } });
  for (const o of rbac) await admin.create(rbacType(o.kind as 'Role'), o);
}

async function extension(admin: KubeClient, name: string, ns: string, version?: string): Promise<void> {
  await admin.create(CLUSTER_EXTENSION_TYPE, {
    metadata: { name },
    spec: {
      namespace: ns,
      serviceAccount: { name: 'installer' },
      source: { sourceType: 'Catalog', catalog: { packageName: name, ...(version ? { version } : {}) } },
    },
  });
}

const condition = async (admin: KubeClient, name: string, type: string) => {
  const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  return ce.status?.conditions?.find((c) => c.type === type);
};

function proveOn(what: string, start: () => Promise<{ admin: KubeClient; stop(): Promise<void> }>, timeoutMs: number) {
  describe(`the installer's rights on ${what}`, () => {
    let admin: KubeClient;
    let stop: () => Promise<void>;
    before(async () => ({ admin, stop } = await start()));
    after(() => stop?.());

    test('exactly these rules install the bundle, informers included', async () => {
      const ns = 'rbac-pgpilot';
      const manifests = rendered('pgpilot', 'pgpilot.v1.5.0', ns);
      await installer(
        admin,
        ns,
        installerRbac({ manifests, namespace: ns, serviceAccount: 'installer', extensionName: 'pgpilot' }),
      );
      await extension(admin, 'pgpilot', ns, '1.5.0');
      const progressing = await waitFor(
        'Progressing desired state reached',
        async () => {
          const c = await condition(admin, 'pgpilot', 'Progressing');
          return c?.reason === 'Succeeded' ? c : undefined;
        },
        timeoutMs,
      );
      assert.deepEqual([progressing.status, progressing.message], ['True', 'desired state reached']);
      const installed = await condition(admin, 'pgpilot', 'Installed');
      assert.deepEqual([installed?.status, installed?.reason], ['True', 'Succeeded']);
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
      assert.deepEqual(ce.status?.install?.bundle, { name: 'pgpilot.v1.5.0', version: '1.5.0' });
      for (const o of manifests.filter((m) => m.kind === 'Deployment')) {
        const dep = await admin.get<Obj>(DEPLOYMENT_TYPE, o.metadata.name, ns);
        assert.equal(
          (dep.metadata as { labels?: Record<string, string> }).labels?.['olm.operatorframework.io/owner-name'],
          'pgpilot',
        );
      }
    });

    test('without get on the Deployment, Helm’s lookup is refused in the API server’s words', async () => {
      const ns = 'rbac-certwarden';
      const manifests = rendered('certwarden', [...demo.packages.get('certwarden')!.bundles.keys()].at(-1)!, ns);
      const deployment = manifests.find((o) => o.kind === 'Deployment')!.metadata.name;
      const rbac = installerRbac({
        manifests,
        namespace: ns,
        serviceAccount: 'installer',
        extensionName: 'certwarden',
      });
      const role = rbac.find((o) => o.kind === 'Role') as { rules: PolicyRule[] };
      for (const r of role.rules)
        if (r.resources?.includes('deployments') && r.resourceNames) r.verbs = r.verbs.filter((v) => v !== 'get');
      await installer(admin, ns, rbac);
      await extension(admin, 'certwarden', ns);
      const progressing = await waitFor(
        'Progressing Retrying on the lookup',
        async () => {
          const c = await condition(admin, 'certwarden', 'Progressing');
          return c?.reason === 'Retrying' && c.message?.startsWith('Unable to continue') ? c : undefined;
        },
        timeoutMs,
      );
      assert.match(
        progressing.message ?? '',
        new RegExp(
          `^Unable to continue with install: could not get information about the resource Deployment "${deployment}" ` +
            `in namespace "${ns}": deployments\\.apps "${deployment}" is forbidden: User ` +
            `"system:serviceaccount:${ns}:installer" cannot get resource "deployments" in API group "apps" in the ` +
            `namespace "${ns}" for resolved bundle "certwarden\\.v[^"]+" with version "[^"]+"$`,
        ),
      );
      const installed = await condition(admin, 'certwarden', 'Installed');
      assert.deepEqual(
        [installed?.status, installed?.reason, installed?.message],
        ['False', 'Failed', 'No bundle installed'],
      );
    });
  });
}

proveOn(
  'the sandbox',
  async () => {
    const sb = await withSandbox({ deploymentDelayMs: 10 });
    return { admin: clientAs(sb, 'admin'), stop: () => sb.close() };
  },
  15_000,
);

const skip = clusterProgramsMissing();
if (skip) test("the installer's rights on the real cluster", (t) => t.skip(skip));
else {
  let cluster: RealCluster | undefined;
  proveOn(
    'the real cluster',
    async () => {
      cluster = await startRealCluster([DEMO_DIR]);
      return { admin: clientAs(cluster, 'admin'), stop: async () => cluster?.stop() };
    },
    180_000,
  );
}
