// ClusterExtensions in the sandbox as operator-controller v1.2.0 answers (expectations from
// controllers/clusterextension_controller.go, common_controller.go, resolve/catalog.go, the Helm
// applier and authentication/tokengetter.go; file references in docs/olm-v1/install.md): the
// finalizers, a missing ServiceAccount, one without rights then granted, install of the latest,
// upgrade by range, a downgrade refused then allowed with SelfCertified, an unknown package, a
// second extension owning the same CRD, and uninstall removing what was installed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import type { KObject } from '../store/types';
import { kubectl, kubectlPath } from './testing/kubectl';

type Cond = { type: string; status: string; reason: string; message: string };
type CE = {
  metadata: { finalizers?: string[] };
  status?: { conditions?: Cond[]; install?: { bundle: { name: string; version: string } } };
};

describe('ClusterExtensions', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const dir = mkdtempSync(join(tmpdir(), 'olm-v1-ext-'));
  const res = (group: string, version: string, plural: string) => sb.api.resources.find(group, version, plural)!;
  const ceRes = () => res('olm.operatorframework.io', 'v1', 'clusterextensions');
  const get = (name: string) => sb.api.storeGet(ceRes(), undefined, name) as unknown as CE | undefined;
  const cond = (name: string, type: string) => {
    const c = get(name)?.status?.conditions?.find((x) => x.type === type);
    return c && [c.status, c.reason, c.message];
  };
  const create = async (o: KObject) => {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    const r = sb.api.resources
      .all()
      .find((x) => x.group === group && x.versions.includes(version!) && x.kind === o.kind)!;
    sb.api.createObject(r, o);
    await sb.olmV1.settled();
  };
  const extension = (
    name: string,
    catalog: Record<string, unknown>,
    ns = 'acme-system',
    sa = 'installer',
  ): KObject => ({
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: { name },
    spec: { namespace: ns, serviceAccount: { name: sa }, source: { sourceType: 'Catalog', catalog } },
  });
  const setCatalog = async (name: string, catalog: Record<string, unknown>) => {
    const ext = sb.api.storeGet(ceRes(), undefined, name)!;
    const spec = ext.spec as { source: { catalog: Record<string, unknown> } };
    sb.api.updateObject(ceRes(), {
      ...ext,
      spec: { ...spec, source: { ...spec.source, catalog: { ...spec.source.catalog, ...catalog } } },
    });
    await sb.olmV1.settled();
  };
  const bindAdmin = (ns: string, sa: string) =>
    create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${ns}-${sa}-admin` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
    });

  before(async () => {
    writeFixtureCatalog(join(dir, 'acme'), [
      {
        name: 'acme',
        group: 'acme.example.com',
        kind: 'Widget',
        bundles: [
          { version: '1.0.0' },
          { version: '1.1.0', replaces: '1.0.0' },
          { version: '2.0.0', replaces: '1.1.0' },
        ],
      },
      { name: 'acme-twin', group: 'acme.example.com', kind: 'Widget', bundles: [{ version: '1.0.0' }] },
    ]);
    sb = await withSandbox({ catalogs: [join(dir, 'acme')], deploymentDelayMs: 10 });
    await create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'acme-system' } });
  });
  after(() => sb.close());

  test('a missing ServiceAccount: Installed Unknown, Progressing Retrying, after the finalizers', async () => {
    await create(extension('acme', { packageName: 'acme', version: '1.0.0' }));
    assert.deepEqual(get('acme')!.metadata.finalizers, [
      'olm.operatorframework.io/cleanup-unpack-cache',
      'olm.operatorframework.io/cleanup-contentmanager-cache',
    ]);
    assert.deepEqual(cond('acme', 'Installed'), [
      'Unknown',
      'Failed',
      'service account "installer" not found in namespace "acme-system": unable to authenticate with the Kubernetes cluster.',
    ]);
    assert.deepEqual(cond('acme', 'Progressing'), [
      'True',
      'Retrying',
      'installation cannot proceed due to missing ServiceAccount',
    ]);
  });

  test('an account without rights is refused in RBAC words; granted, the bundle installs', async () => {
    await create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'installer', namespace: 'acme-system' },
    });
    const [status, reason, message] = cond('acme', 'Progressing')!;
    assert.equal(status, 'True');
    assert.equal(reason, 'Retrying');
    assert.match(
      message!,
      /^Unable to continue with install: could not get information about the resource ServiceAccount "acme-operator" in namespace "acme-system": serviceaccounts "acme-operator" is forbidden: User "system:serviceaccount:acme-system:installer" cannot get resource "serviceaccounts" in API group "" in the namespace "acme-system" for resolved bundle "acme\.v1\.0\.0" with version "1\.0\.0"$/,
    );
    assert.deepEqual(cond('acme', 'Installed'), ['False', 'Failed', 'No bundle installed']);
    await bindAdmin('acme-system', 'installer');
    assert.deepEqual(cond('acme', 'Installed'), [
      'True',
      'Succeeded',
      'Installed bundle quay.example.com/acme-bundle:1.0.0 successfully',
    ]);
    assert.deepEqual(cond('acme', 'Progressing'), ['True', 'Succeeded', 'desired state reached']);
    assert.deepEqual(get('acme')!.status!.install, { bundle: { name: 'acme.v1.0.0', version: '1.0.0' } });
    assert.deepEqual(cond('acme', 'Deprecated'), ['False', 'Deprecated', '']);
    const dep = sb.api.storeGet(res('apps', 'v1', 'deployments'), 'acme-system', 'acme-operator');
    assert.ok(dep, 'the Deployment is in spec.namespace');
    assert.equal(dep.metadata.labels?.['olm.operatorframework.io/owner-name'], 'acme');
    assert.equal(dep.metadata.ownerReferences?.[0]?.kind, 'ClusterExtension');
    // No kubelet: the sandbox reports the replicas available after deploymentDelayMs, as kwok does.
    await new Promise((r) => setTimeout(r, 50));
    const ready = sb.api.storeGet(res('apps', 'v1', 'deployments'), 'acme-system', 'acme-operator');
    assert.equal((ready?.status as { availableReplicas?: number } | undefined)?.availableReplicas, 1);
    const crd = sb.api.storeGet(
      res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'),
      undefined,
      'widgets.acme.example.com',
    );
    assert.ok(crd, 'the CRD is installed');
    const release = sb.api.storeGet(res('', 'v1', 'secrets'), 'olmv1-system', 'sh.helm.release.v1.acme.v1');
    assert.equal(release?.metadata.labels?.status, 'deployed');
  });

  test(
    'kubectl get shows the installed bundle, version, Installed and Progressing',
    { skip: kubectlPath ? false : 'no kubectl' },
    async () => {
      const r = await kubectl(sb.kubeconfigPath, ['get', 'clusterextensions']);
      assert.equal(r.code, 0, r.stderr);
      const [header, row] = r.stdout.trimEnd().split('\n');
      assert.match(header!, /^NAME\s+INSTALLED BUNDLE\s+VERSION\s+INSTALLED\s+PROGRESSING\s+AGE$/);
      assert.match(row!, /^acme\s+acme\.v1\.0\.0\s+1\.0\.0\s+True\s+True\s+\S+$/);
    },
  );

  test('widening the range upgrades along replaces, one hop per pass; a downgrade needs SelfCertified', async () => {
    await setCatalog('acme', { version: '>=1.0.0 <2.0.0' });
    assert.deepEqual(get('acme')!.status!.install, { bundle: { name: 'acme.v1.1.0', version: '1.1.0' } });
    const releases = () =>
      sb.api
        .storeList(res('', 'v1', 'secrets'), 'olmv1-system')
        .map((s) => `${s.metadata.name} ${s.metadata.labels?.status}`)
        .sort();
    assert.deepEqual(releases(), ['sh.helm.release.v1.acme.v1 superseded', 'sh.helm.release.v1.acme.v2 deployed']);
    // The upgrade's own writes wake the managed-object watches, and the next pass takes the next
    // hop: 1.0.0 → 1.1.0 → 2.0.0 without 1.0.0 → 2.0.0 ever being an edge.
    await setCatalog('acme', { version: '>=1.0.0' });
    assert.deepEqual(get('acme')!.status!.install, { bundle: { name: 'acme.v2.0.0', version: '2.0.0' } });
    assert.equal(releases().length, 3);
    await setCatalog('acme', { version: '1.0.0' });
    assert.deepEqual(cond('acme', 'Progressing'), [
      'True',
      'Retrying',
      'error upgrading from currently installed version "2.0.0": no bundles found for package "acme" matching version "1.0.0"',
    ]);
    assert.deepEqual(cond('acme', 'Installed')?.[0], 'True', 'the installed bundle stays installed');
    await setCatalog('acme', { upgradeConstraintPolicy: 'SelfCertified' });
    assert.deepEqual(get('acme')!.status!.install, { bundle: { name: 'acme.v1.0.0', version: '1.0.0' } });
  });

  test('a package no catalog has: the error, and every missing condition filled with it', async () => {
    await create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ghost' } });
    await create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'ghost' } });
    await create(extension('ghost', { packageName: 'ghost' }, 'ghost'));
    const msg = 'no bundles found for package "ghost"';
    assert.deepEqual(cond('ghost', 'Progressing'), ['True', 'Retrying', msg]);
    assert.deepEqual(cond('ghost', 'Installed'), ['False', 'Failed', 'No bundle installed']);
    for (const t of ['Deprecated', 'PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated', 'Serving'])
      assert.deepEqual(cond('ghost', t), ['False', 'Failed', msg], t);
  });

  test('a second extension whose bundle owns the same CRD is refused', async () => {
    await create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'twin' } });
    await create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'twin' } });
    await bindAdmin('twin', 'installer');
    await create(extension('twin', { packageName: 'acme-twin' }, 'twin'));
    assert.deepEqual(cond('twin', 'Progressing'), [
      'True',
      'Retrying',
      `CustomResourceDefinition 'widgets.acme.example.com' already exists in namespace '' and cannot be managed by operator-controller for resolved bundle "acme-twin.v1.0.0" with version "1.0.0"`,
    ]);
  });

  test('deleting the extension removes what it installed, CRD included', async () => {
    sb.api.deleteObject(ceRes(), undefined, 'acme', {});
    // The controller lets go of its finalizer, then the garbage collector's passes (on a timer in
    // the sandbox, as in a cluster) take the dependents; under load the finalizer's removal can
    // come after one pass, so passes are made until the extension is gone, as the timer would.
    for (let i = 0; i < 50 && get('acme'); i++) {
      await sb.olmV1.settled();
      sb.api.sweep();
      if (get('acme')) await new Promise((r) => setTimeout(r, 100));
    }
    sb.api.sweep();
    assert.equal(get('acme'), undefined);
    assert.equal(sb.api.storeGet(res('apps', 'v1', 'deployments'), 'acme-system', 'acme-operator'), undefined);
    assert.equal(
      sb.api.storeGet(
        res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'),
        undefined,
        'widgets.acme.example.com',
      ),
      undefined,
    );
    assert.equal(sb.api.storeGet(res('', 'v1', 'secrets'), 'olmv1-system', 'sh.helm.release.v1.acme.v1'), undefined);
  });
});
