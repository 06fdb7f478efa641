// What the sandbox installs for a bundle whose manifests are in its image (no olm.bundle.object):
// CRDs derived from what the catalog says — the CSV's owned entries and the bundle's olm.gvk
// properties — every version served. Checked on a real catalog's bundle and on a small one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFromTexts } from '../../olm/fbc/catalog';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { bundleManifests } from './install-steps';
import { needsSharedCatalogs, sharedCatalog } from '../../testing/shared-catalogs';

type Crd = {
  metadata: { name: string };
  spec: {
    group: string;
    scope: string;
    names: { kind: string };
    versions: { name: string; served: boolean; storage: boolean }[];
  };
};
const crdsOf = (objects: { kind: string }[]) =>
  objects.filter((o) => o.kind === 'CustomResourceDefinition') as unknown as Crd[];
const versions = (c: Crd | undefined) =>
  c?.spec.versions.map((v) => `${v.name}${v.storage ? '*' : ''}${v.served ? '' : ' (not served)'}`);

test(
  'a certified bundle whose CSV metadata names no CRD: one CRD per provided API, every version of its olm.gvk served',
  needsSharedCatalogs,
  () => {
    // minio-object-store-operator v2025.12.19074437 (certified-operators-v4.18): olm.gvk
    // AdminJob.v1alpha1.aistor.min.io, ObjectStore.v1.aistor.min.io, PolicyBinding.v1alpha1 and
    // v1beta1.sts.min.io; its olm.csv.metadata has no customresourcedefinitions.
    const catalog = loadCatalog(sharedCatalog('certified-operators-v4.18'));
    const pkg = catalog.packages.get('minio-object-store-operator')!;
    const crds = crdsOf(bundleManifests(pkg, pkg.bundles.get('minio-object-store-operator.v2025.12.19074437')!));
    assert.deepEqual(crds.map((c) => c.metadata.name).sort(), [
      'adminjobs.aistor.min.io',
      'objectstores.aistor.min.io',
      'policybindings.sts.min.io',
    ]);
    // Kubernetes stores the highest version by its priority: beta before alpha.
    assert.deepEqual(versions(crds.find((c) => c.metadata.name === 'policybindings.sts.min.io')), [
      'v1beta1*',
      'v1alpha1',
    ]);
    assert.ok(crds.every((c) => c.spec.scope === 'Namespaced'));
  },
);

test('owned entries of several versions make one CRD; an API service is not a CRD', () => {
  const meta = {
    displayName: 'Widgets',
    customresourcedefinitions: {
      owned: [
        { name: 'widgets.example.com', version: 'v1alpha1', kind: 'Widget' },
        { name: 'widgets.example.com', version: 'v1', kind: 'Widget' },
      ],
    },
    apiservicedefinitions: {
      owned: [{ group: 'metrics.example.com', version: 'v1', kind: 'Reading', name: 'v1.metrics.example.com' }],
    },
  };
  const cat = catalogFromTexts({
    'widgets/catalog.yaml': [
      'schema: olm.package\nname: widgets\ndefaultChannel: stable',
      'schema: olm.channel\npackage: widgets\nname: stable\nentries:\n- name: widgets.v1.0.0',
      `schema: olm.bundle\npackage: widgets\nname: widgets.v1.0.0\nimage: quay.example.com/widgets-bundle:v1.0.0\nproperties:\n- type: olm.package\n  value: {packageName: widgets, version: 1.0.0}\n- type: olm.gvk\n  value: {group: example.com, kind: Widget, version: v1}\n- type: olm.gvk\n  value: {group: example.com, kind: Widget, version: v1beta1}\n- type: olm.gvk\n  value: {group: metrics.example.com, kind: Reading, version: v1}\n- type: olm.csv.metadata\n  value: ${JSON.stringify(meta)}`,
    ].join('\n---\n'),
  });
  const pkg = cat.packages.get('widgets')!;
  const crds = crdsOf(bundleManifests(pkg, pkg.bundles.get('widgets.v1.0.0')!));
  assert.deepEqual(
    crds.map((c) => c.metadata.name),
    ['widgets.example.com'],
  );
  assert.deepEqual(versions(crds[0]), ['v1*', 'v1beta1', 'v1alpha1']);
});
