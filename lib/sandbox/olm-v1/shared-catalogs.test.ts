// The sandbox's OLM v1 on the real published catalogs, as `npm run cluster` runs real catalogd and
// operator-controller on them (scripts/cluster-olm-v1.test.ts): each catalog a ClusterCatalog
// Serving, and one ClusterExtension per catalog installed from it — the same packages, versions and
// bundles the real cluster's test installs and checks there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsSharedCatalogs, sharedCatalog } from '../../testing/shared-catalogs';
import { withSandbox } from '../testing/sandbox-fixture';
import type { KObject } from '../store/types';

type Cond = { type: string; status: string; reason: string; message: string };
type Status = { conditions?: Cond[]; install?: { bundle: { name: string; version: string } } };

const CATALOGS = ['gatekeeper-operator-product-v4.20', 'certified-operators-v4.18', 'okderators'];
// What the real cluster's test installs from each catalog, and the bundle it finds installed.
const WANTED = [
  { name: 'gatekeeper', pkg: 'gatekeeper-operator-product', bundle: 'gatekeeper-operator-product.v3.21.0' },
  { name: 'cnpg', pkg: 'cloudnative-pg', bundle: 'cloudnative-pg.v1.30.0' },
  {
    name: 'csi-addons',
    pkg: 'csi-addons',
    version: '4.15.0-2024-05-27-184620',
    bundle: 'csi-addons.v4.15.0-2024-05-27-184620',
  },
];

describe('OLM v1 in the sandbox on the shared catalogs', needsSharedCatalogs, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const kind = (apiVersion: string, k: string) => {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    return sb.api.resources.all().find((x) => x.group === group && x.versions.includes(version!) && x.kind === k)!;
  };
  const create = (o: KObject) => sb.api.createObject(kind(o.apiVersion, o.kind), o);
  const catalogs = () =>
    sb.api.storeList(kind('olm.operatorframework.io/v1', 'ClusterCatalog'), undefined) as unknown as {
      metadata: { name: string };
      status?: Status;
    }[];
  const extension = (name: string) =>
    sb.api.storeGet(kind('olm.operatorframework.io/v1', 'ClusterExtension'), undefined, name) as unknown as
      { status?: Status } | undefined;

  before(async () => {
    sb = await withSandbox({ catalogs: CATALOGS.map((c) => sharedCatalog(c)), deploymentDelayMs: 10 });
    await sb.olmV1.settled();
  });
  after(() => sb?.close());

  test('each catalog is a ClusterCatalog catalogd serves', () => {
    const served = catalogs();
    assert.equal(served.length, CATALOGS.length, served.map((c) => c.metadata.name).join(', '));
    for (const c of served) {
      const serving = c.status?.conditions?.find((x) => x.type === 'Serving');
      assert.deepEqual([serving?.status, serving?.reason], ['True', 'Available'], c.metadata.name);
    }
  });

  test('one package of each catalog installs as a ClusterExtension, at the bundle real v1 picks', async () => {
    for (const w of WANTED) {
      const ns = `${w.name}-v1`;
      create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: ns } });
      create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${ns}-installer` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }],
      });
      create({
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterExtension',
        metadata: { name: w.name },
        spec: {
          namespace: ns,
          serviceAccount: { name: 'installer' },
          source: {
            sourceType: 'Catalog',
            catalog: { packageName: w.pkg, ...(w.version ? { version: w.version } : {}) },
          },
        },
      });
    }
    await sb.olmV1.settled();
    for (const w of WANTED) {
      const status = extension(w.name)?.status;
      const installed = status?.conditions?.find((c) => c.type === 'Installed');
      assert.equal(installed?.status, 'True', `${w.name}: ${JSON.stringify(status)}`);
      // The real cluster names the copy it pushed to its own registry; the sandbox pulls nothing and
      // names the bundle's image as the catalog gives it.
      assert.match(installed!.message, /^Installed bundle [a-z0-9.-]+(:\d+)?\/\S+[@:]\S+ successfully$/);
      assert.equal(status?.install?.bundle.name, w.bundle);
    }
  });
});
