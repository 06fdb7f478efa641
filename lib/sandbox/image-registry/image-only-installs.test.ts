// The OLM emulations installing demo bundles whose objects are only in their images (the demo
// catalog published as real catalogs are): OLM v0's InstallPlan and OLM v1's operator-controller
// both reach their success states with what the image holds — the install strategy's Deployment,
// its permissions, the CRDs with their schemas — none of which the catalog carries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { bundleObjects } from '../../olm/fbc/model';
import { DEMO_CATALOG_DIR } from '../demo-catalog/location';
import { withSandbox } from '../testing/sandbox-fixture';
import type { KObject } from '../store/types';

type Cond = { type: string; status: string; reason: string };

describe('installing an image-only demo bundle', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const res = (group: string, version: string, plural: string) => sb.api.resources.find(group, version, plural)!;
  const create = async (o: KObject) => {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    const r = sb.api.resources
      .all()
      .find((x) => x.group === group && x.versions.includes(version!) && x.kind === o.kind)!;
    sb.api.createObject(r, o);
  };
  const until = async <T>(what: string, fn: () => T | undefined): Promise<T> => {
    for (let end = Date.now() + 10_000; Date.now() < end;) {
      await sb.olm.settled();
      await sb.olmV1.settled();
      const v = fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    return assert.fail(`timed out waiting for ${what}`);
  };
  // What the project's demo catalog writes for the bundle, from its own source (inline).
  const demoCsv = (pkg: string, bundle: string) =>
    (bundleObjects(loadCatalog(DEMO_CATALOG_DIR).packages.get(pkg)!.bundles.get(bundle)!) as KObject[]).find(
      (o) => o.kind === 'ClusterServiceVersion',
    )!;

  before(async () => {
    sb = await withSandbox({ bundleImages: true, deploymentDelayMs: 0 });
  });
  after(() => sb.close());

  test('OLM v0: the InstallPlan creates the Deployment, RBAC and CRDs of the image, and the CSV succeeds', async () => {
    await create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'certs' } });
    await create({
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'certs', namespace: 'certs' },
      spec: {},
    });
    await create({
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 'certwarden', namespace: 'certs' },
      spec: { name: 'certwarden', channel: 'stable', source: 'olm-console-demo', sourceNamespace: 'olm' },
    });
    const csvRes = res('operators.coreos.com', 'v1alpha1', 'clusterserviceversions');
    const csv = await until('a Succeeded CSV', () => {
      const c = sb.api.storeList(csvRes).find((o) => o.metadata.namespace === 'certs');
      return (c?.status as { phase?: string } | undefined)?.phase === 'Succeeded' ? c : undefined;
    });
    const wanted = demoCsv('certwarden', csv.metadata.name!);
    const strategy = (o: KObject) => (o.spec as { install: { spec: Record<string, unknown> } }).install.spec;
    assert.deepEqual(strategy(csv).deployments, strategy(wanted).deployments);
    const deployment = (strategy(wanted).deployments as { name: string }[])[0]!.name;
    assert.ok(sb.api.storeGet(res('apps', 'v1', 'deployments'), 'certs', deployment), `Deployment ${deployment}`);
    const roles = sb.api.storeList(res('rbac.authorization.k8s.io', 'v1', 'roles'));
    const wantedRules = (strategy(wanted).permissions as { rules: unknown[] }[])[0]!.rules;
    assert.ok(
      roles.some(
        (r) =>
          r.metadata.namespace === 'certs' &&
          JSON.stringify((r as { rules?: unknown }).rules) === JSON.stringify(wantedRules),
      ),
      'the Role of the install strategy',
    );
  });

  test('OLM v1: the ClusterExtension installs the image and is Installed', async () => {
    await create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pg-v1' } });
    await create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'pg-v1' } });
    await create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'pg-v1-installer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'pg-v1' }],
    });
    await create({
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'pgpilot' },
      spec: {
        namespace: 'pg-v1',
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot', version: '1.4.0' } },
      },
    });
    const ceRes = res('olm.operatorframework.io', 'v1', 'clusterextensions');
    const installed = await until('Installed=True', () => {
      const ce = sb.api.storeGet(ceRes, undefined, 'pgpilot');
      const c = (ce?.status as { conditions?: Cond[] } | undefined)?.conditions?.find((x) => x.type === 'Installed');
      return c?.status === 'True' ? c : undefined;
    });
    assert.equal(installed.reason, 'Succeeded');
    assert.ok(sb.api.storeGet(res('apps', 'v1', 'deployments'), 'pg-v1', 'pgpilot-controller-manager'));
    const crd = sb.api.storeGet(
      res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'),
      undefined,
      'postgresclusters.pgpilot.example.com',
    );
    assert.ok(crd, 'the CRD of the image');
  });
});
