// The bundle an InstallPlan installs for one CSV, read back from its steps in the two forms OLM
// v0.38.0 writes them (catalog operator.go unpackBundles; resolver steps.go and rbac.go): the
// objects themselves, with the RBAC OLM derived from the CSV left out, or the unpack ConfigMap's
// reference in every step.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstallPlan, Step } from '../resources/install-plan';
import { planBundle } from './plan-bundle';

const CSV = 'gatewise.v1.1.0';

function step(kind: string, name: string, manifest: unknown, resolving = CSV): Step {
  return {
    resolving,
    resource: {
      group: '',
      version: 'v1',
      kind,
      name,
      manifest: typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
      sourceName: 'demo',
      sourceNamespace: 'olm',
    },
    status: 'Unknown',
  };
}

const obj = (apiVersion: string, kind: string, name: string, metadata: Record<string, unknown> = {}) => ({
  apiVersion,
  kind,
  metadata: { name, ...metadata },
});

function plan(steps: Step[]): InstallPlan {
  return {
    metadata: { name: 'install-abcde', namespace: 'gw' },
    spec: { clusterServiceVersionNames: [CSV], approval: 'Manual', approved: false, generation: 2 },
    status: { phase: 'RequiresApproval', catalogSources: ['demo'], plan: steps },
  } as InstallPlan;
}

// What NewStepResourceFromBundle writes for a bundle served inline: the CSV, the bundle's objects,
// then the ServiceAccount (owned by the CSV) and the roles and bindings labelled with their hash.
const owner = {
  ownerReferences: [{ kind: 'ClusterServiceVersion', name: CSV, apiVersion: 'operators.coreos.com/v1alpha1' }],
};
const hashed = { labels: { 'olm.permissions.hash': 'abc', 'olm.owner': CSV } };
// As the sandbox writes them: the owner labels without the hash.
const owned = { labels: { 'olm.owner': CSV, 'olm.owner.kind': 'ClusterServiceVersion', 'olm.owner.namespace': 'gw' } };
const inline = [
  step('ClusterServiceVersion', CSV, obj('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', CSV)),
  step(
    'CustomResourceDefinition',
    'gateways.net.example.com',
    obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'gateways.net.example.com'),
  ),
  step('ServiceAccount', 'gatewise-metrics', obj('v1', 'ServiceAccount', 'gatewise-metrics')),
  // As OLM v0.38.0 marshals it, from a typed value: no apiVersion, no kind.
  step('ServiceAccount', 'gatewise', { metadata: { name: 'gatewise', ...owner } }),
  step('ClusterRole', `${CSV}-x1`, obj('rbac.authorization.k8s.io/v1', 'ClusterRole', `${CSV}-x1`, hashed)),
  step(
    'ClusterRoleBinding',
    `${CSV}-x1`,
    obj('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', `${CSV}-x1`, hashed),
  ),
  step('Role', `${CSV}-gatewise-x2`, obj('rbac.authorization.k8s.io/v1', 'Role', `${CSV}-gatewise-x2`, owned)),
  step('ClusterRole', 'gatewise-viewer', obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'gatewise-viewer')),
  step('Subscription', 'certwise', obj('operators.coreos.com/v1alpha1', 'Subscription', 'certwise')),
];

test("a plan of inline steps gives the CSV and the bundle's own objects, not the RBAC OLM derived", () => {
  const b = planBundle(plan(inline), CSV);
  assert.equal(b.form, 'objects');
  if (b.form !== 'objects') return;
  assert.equal(b.csv.metadata.name, CSV);
  assert.deepEqual(
    b.others.map((o) => `${o.kind} ${String(o.metadata.name)}`),
    [
      'CustomResourceDefinition gateways.net.example.com',
      'ServiceAccount gatewise-metrics',
      'ClusterRole gatewise-viewer',
    ],
  );
});

test("only the CSV's own steps count: another operator's in the same plan are not this bundle's", () => {
  const other = step(
    'ClusterServiceVersion',
    'certwise.v2.0.0',
    obj('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'certwise.v2.0.0'),
    'certwise.v2.0.0',
  );
  const b = planBundle(plan([other, ...inline]), CSV);
  assert.equal(b.form === 'objects' && b.csv.metadata.name, CSV);
  assert.equal(planBundle(plan(inline), 'certwise.v2.0.0').form, 'unreadable');
});

test('an unpacked bundle: every step is the reference to the unpack ConfigMap, which is given back', () => {
  // The reference exactly as unpackBundles marshals UnpackedBundleReference.
  const ref = {
    kind: 'ConfigMap',
    name: '3f0a9c1e2b',
    namespace: 'olm',
    catalogSourceName: 'demo',
    catalogSourceNamespace: 'olm',
    replaces: 'gatewise.v1.0.0',
    properties: '{"properties":[]}',
  };
  const b = planBundle(
    plan([step('ClusterServiceVersion', CSV, ref), step('CustomResourceDefinition', 'gateways.net.example.com', ref)]),
    CSV,
  );
  assert.equal(b.form, 'reference');
  if (b.form === 'reference') {
    assert.equal(b.reference.name, '3f0a9c1e2b');
    assert.equal(b.reference.namespace, 'olm');
    assert.equal(b.reference.catalogSourceName, 'demo');
  }
});

test('a step whose manifest is not JSON, or a plan without the CSV, is unreadable with the reason', () => {
  const broken = planBundle(plan([inline[0]!, step('ConfigMap', 'x', '{not json')]), CSV);
  assert.equal(broken.form, 'unreadable');
  assert.match(broken.form === 'unreadable' ? broken.why : '', /ConfigMap x is not JSON/);
  const noCsv = planBundle(plan(inline.slice(1)), CSV);
  assert.match(noCsv.form === 'unreadable' ? noCsv.why : '', /no ClusterServiceVersion/);
  assert.match((planBundle(plan([]), CSV) as { why: string }).why, /no steps/);
});
