// Whether a v0 operator can move to OLM v1 v1.2.0. Expectations come from operator-controller
// v1.2.0 (resolve/catalog.go: the pinned version must resolve, dependencies are refused;
// rukpak/convert/registryv1.go: AllNamespaces only, no webhooks or API services;
// preflights/crdupgradesafety: a stored version may not be dropped; helm validate.go: an object of
// another release is not adopted) and from OLM v0 (copied CSVs, OperatorGroups, OperatorConditions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeclarativeConfig, FbcBundle } from '../fbc/types';
import type { ClusterServiceVersion } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { checkMigration, type MigrationContentSource, type MigrationFacts } from './migration-check';

const PKG = 'etcd';
const NS = 'operators';
const CSV_UID = '7d3f0c2e-0000-4000-8000-00000000c5c5';

function csvFor(version: string, extra: Partial<ClusterServiceVersion['spec']> = {}): ClusterServiceVersion {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: {
      name: `${PKG}.v${version}`,
      namespace: NS,
      uid: CSV_UID,
      annotations: { 'olm.targetNamespaces': '' },
      labels: { [`operators.coreos.com/${PKG}.${NS}`]: '' },
    },
    spec: {
      displayName: 'etcd',
      version,
      installModes: [
        { type: 'OwnNamespace', supported: true },
        { type: 'SingleNamespace', supported: true },
        { type: 'MultiNamespace', supported: false },
        { type: 'AllNamespaces', supported: true },
      ],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [
            {
              name: 'etcd-operator',
              spec: { selector: {}, template: { spec: { serviceAccountName: 'etcd-operator', containers: [] } } },
            },
          ],
          clusterPermissions: [
            {
              serviceAccountName: 'etcd-operator',
              rules: [{ verbs: ['*'], apiGroups: ['etcd.database.coreos.com'], resources: ['*'] }],
            },
          ],
        },
      },
      customresourcedefinitions: {
        owned: [{ name: 'etcdclusters.etcd.database.coreos.com', version: 'v1beta2', kind: 'EtcdCluster' }],
      },
      ...extra,
    },
    status: { phase: 'Succeeded' },
  } as ClusterServiceVersion;
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'etcdclusters.etcd.database.coreos.com' },
  spec: { group: 'etcd.database.coreos.com', versions: [{ name: 'v1beta2', served: true, storage: true }] },
};

const bundle = (v: string, props: FbcBundle['properties'] = []): FbcBundle => ({
  schema: 'olm.bundle',
  package: PKG,
  name: `${PKG}.v${v}`,
  image: `quay.io/example/etcd-bundle:v${v}`,
  properties: [{ type: 'olm.package', value: { packageName: PKG, version: v } }, ...props],
});

function fbc(bundles = [bundle('0.9.2'), bundle('0.9.4')]): DeclarativeConfig {
  return {
    packages: [{ schema: 'olm.package', name: PKG, defaultChannel: 'alpha' }],
    channels: [
      {
        schema: 'olm.channel',
        package: PKG,
        name: 'alpha',
        entries: [{ name: `${PKG}.v0.9.2` }, { name: `${PKG}.v0.9.4`, replaces: `${PKG}.v0.9.2` }],
      },
    ],
    bundles,
    deprecations: [],
    others: [],
  };
}

const subscription: Subscription = {
  metadata: { name: PKG, namespace: NS },
  spec: { name: PKG, channel: 'alpha', source: 'demo', sourceNamespace: 'olm' },
  status: { installedCSV: `${PKG}.v0.9.4` },
} as Subscription;

const allNamespacesGroup: OperatorGroup = {
  metadata: { name: 'global-operators', namespace: NS },
  spec: {},
  status: { namespaces: [''] },
};

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<string, unknown>;

/** The facts, with the manifests each bundle holds: what the server reads once the check names the bundle. */
type Facts = MigrationFacts & {
  manifestsOf: (catalog: string, b: FbcBundle) => Obj[];
  source?: MigrationContentSource;
};

function facts(over: Partial<Facts> = {}): Facts {
  const csv = over.csv ?? csvFor('0.9.4');
  return {
    csv,
    subscription,
    operatorGroups: [allNamespacesGroup],
    installedWith: [],
    requiredBy: [],
    alsoInstalledIn: [],
    catalogs: [{ catalog: 'olm-console-demo', priority: 0, fbc: fbc() }],
    manifestsOf: (_cat, b) => [
      { ...csvFor(b.name.slice(PKG.length + 2), csv.spec), metadata: { name: b.name } } as never,
      crd,
    ],
    extensionName: PKG,
    extensions: [],
    liveCrds: [{ name: crd.metadata.name, storedVersions: ['v1beta2'] }],
    existing: [],
    ...over,
  };
}

const IMAGE_SOURCE: MigrationContentSource = {
  from: 'image',
  image: 'quay.io/example/etcd-bundle@sha256:' + 'e'.repeat(64),
  digest: 'sha256:' + 'e'.repeat(64),
};

/** The check as the server makes it: again with the manifests of the bundle it named, when it named one. */
function check(f: Facts) {
  const first = checkMigration(f);
  if (first.canMove || !first.read) return first;
  const [csv, ...others] = f.manifestsOf(first.read.catalog, first.read.bundle);
  const read = csv ? { csv, others, source: f.source ?? { from: 'catalog' as const } } : { unknown: 'not in the test' };
  return checkMigration({ ...f, content: { catalog: first.read.catalog, bundle: first.read.bundle.name, read } });
}

const reasons = (f: Facts) => {
  const v = check(f);
  return v.canMove ? [] : v.reasons.map((r) => r.message);
};

test('an AllNamespaces operator at a version its channel serves moves, to what v1.2.0 renders', () => {
  const v = check(facts());
  assert.ok(v.canMove, JSON.stringify(v));
  assert.equal(v.target.bundle, 'etcd.v0.9.4');
  assert.equal(v.target.version, '0.9.4');
  assert.equal(v.target.channel, 'alpha');
  assert.equal(v.target.catalog, 'olm-console-demo');
  // registryv1.go: the ServiceAccount, a ClusterRole and binding per clusterPermission, the CRD, the Deployment.
  assert.deepEqual(
    v.target.objects.map((o) => o.kind),
    ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Deployment'],
  );
});

test('an operator watching one namespace cannot move: v1.2.0 installs only for all namespaces', () => {
  const csv = csvFor('0.9.4');
  csv.metadata!.annotations = { 'olm.targetNamespaces': 'team1' };
  const got = reasons(facts({ csv, operatorGroups: [{ ...allNamespacesGroup, status: { namespaces: ['team1'] } }] }));
  assert.equal(got.length, 1, got.join('\n'));
  assert.match(got[0]!, /watches team1; OLM v1\.2\.0 installs an operator only for all namespaces/);
});

test("a bundle without AllNamespaces is refused in v1's words", () => {
  const csv = csvFor('0.9.4', { installModes: [{ type: 'OwnNamespace', supported: true }] });
  const got = reasons(facts({ csv }));
  assert.deepEqual(got, [
    'OLM v1 refuses the bundle: supported install modes [OwnNamespace] do not support targeting all namespaces',
  ]);
});

test('webhooks and API services are each a reason', () => {
  const csv = csvFor('0.9.4', {
    webhookdefinitions: [{ type: 'ValidatingAdmissionWebhook' }],
    apiservicedefinitions: {
      owned: [{ group: 'g', version: 'v1', kind: 'K', name: 'ks', deploymentName: 'd' } as never],
    },
  });
  const got = reasons(facts({ csv }));
  assert.deepEqual(got, [
    'the operator defines webhooks, which OLM v1.2.0 cannot install',
    'the operator serves APIServices, which OLM v1.2.0 cannot install',
  ]);
});

test("a bundle declaring a dependency is not reachable: v1.2.0's resolver refuses olm.package.required", () => {
  const dep = { type: 'olm.package.required', value: { packageName: 'other', versionRange: '>=1.0.0' } };
  const got = reasons(
    facts({ catalogs: [{ catalog: 'c', priority: 0, fbc: fbc([bundle('0.9.2'), bundle('0.9.4', [dep])]) }] }),
  );
  assert.equal(got.length, 1);
  assert.match(
    got[0]!,
    /bundle "etcd\.v0\.9\.4" has a dependency declared via property "olm\.package\.required" which is currently not supported$/,
  );
});

test('operators v0 installed with it, and operators requiring its APIs, are reasons', () => {
  const got = reasons(
    facts({
      installedWith: ['other.v1.0.0'],
      requiredBy: [{ csv: 'team1/consumer.v1.0.0', api: 'etcdclusters.etcd.database.coreos.com' }],
    }),
  );
  assert.deepEqual(got, [
    'OLM v0 installed other.v1.0.0 with it as a dependency; OLM v1.2.0 resolves no dependencies',
    'team1/consumer.v1.0.0 requires etcdclusters.etcd.database.coreos.com, which this operator provides; OLM v0 would look for another provider',
  ]);
});

test('an OperatorCondition the operator writes is in use; an empty one is not', () => {
  const c = { type: 'Upgradeable', status: 'False' as const };
  assert.deepEqual(reasons(facts({ operatorCondition: { spec: { conditions: [c] } } })), [
    'its OperatorCondition is in use (Upgradeable); OLM v1 has no OperatorConditions',
  ]);
  assert.deepEqual(reasons(facts({ operatorCondition: { spec: { deployments: ['etcd-operator'] } } })), []);
});

test('a package no ClusterCatalog carries cannot move, and v1 missing altogether says so', () => {
  const empty = { packages: [], channels: [], bundles: [], deprecations: [], others: [] };
  assert.deepEqual(reasons(facts({ catalogs: [{ catalog: 'other', priority: 0, fbc: empty }] })), [
    'no ClusterCatalog you may read carries the package etcd',
  ]);
  assert.deepEqual(reasons(facts({ catalogs: null })), [
    'this cluster does not run OLM v1 (no ClusterCatalogs are served)',
  ]);
});

test("an installed version the channel no longer serves is not reachable, in the resolver's words", () => {
  const got = reasons(facts({ csv: csvFor('0.9.0') }));
  assert.deepEqual(got, [
    'OLM v1 cannot install version 0.9.0 from channel alpha: no bundles found for package "etcd" matching version "0.9.0" in channels [alpha]',
  ]);
});

test('two catalogs of one priority serving the version is ambiguous for v1', () => {
  const got = reasons(
    facts({
      catalogs: [
        { catalog: 'a', priority: 0, fbc: fbc() },
        { catalog: 'b', priority: 0, fbc: fbc() },
      ],
    }),
  );
  assert.match(
    got[0]!,
    /found bundles for package "etcd" matching version "0\.9\.4" in channels \[alpha\] in multiple catalogs with the same priority \[a b\]$/,
  );
});

test('a copied CSV is moved from where the operator runs', () => {
  const csv = csvFor('0.9.4');
  csv.metadata = { ...csv.metadata, namespace: 'team1', labels: { 'olm.copiedFrom': NS } };
  assert.deepEqual(reasons(facts({ csv })), [
    "this is OLM v0's copy of the operator installed in operators: move it from there",
  ]);
});

test('a stored version the bundle no longer serves fails the CRD preflight', () => {
  const got = reasons(facts({ liveCrds: [{ name: crd.metadata.name, storedVersions: ['v1beta1', 'v1beta2'] }] }));
  assert.deepEqual(got, [
    "CRD etcdclusters.etcd.database.coreos.com keeps objects stored as v1beta1, which the bundle's CRD drops; v1's upgrade-safety preflight refuses that",
  ]);
});

// OLM v0's marks (resolver/rbac.go, catalog/operator.go ExecutePlan): namespaced objects owned by
// the CSV's uid, cluster-scoped ones labelled olm.owner*, CRDs named in the CSV's owned list.
const v0Owner = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  name: `${PKG}.v0.9.4`,
  uid: CSV_UID,
};
const v0Deployment = {
  kind: 'Deployment',
  name: 'etcd-operator',
  namespace: NS,
  ownerReferences: [v0Owner],
  marks: {},
};
const v0Crd = { kind: 'CustomResourceDefinition', name: crd.metadata.name, marks: {} };

test("an object of another Helm release is not adopted; the extension's own name is", () => {
  const other = {
    ...v0Deployment,
    helmRelease: { name: 'x', namespace: NS },
    marks: { managedBy: 'Helm', releaseName: 'x', releaseNamespace: NS },
  };
  assert.deepEqual(reasons(facts({ existing: [other] })), [
    'Deployment etcd-operator already belongs to the Helm release operators/x',
  ]);
  assert.ok(check(facts({ existing: [{ ...other, helmRelease: { name: PKG, namespace: NS } }] })).canMove);
});

test('what OLM v0 installed for the CSV moves: its CRD by the owned list, its Deployment by its ownerReference', () => {
  const v = check(facts({ existing: [v0Crd, v0Deployment] }));
  assert.ok(v.canMove, JSON.stringify(v));
});

test("a foreign CRD and OLM's shared role the catalog's bundle also ships refuse the move, each named", () => {
  const foreignCrd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'postgresclusters.pgpilot.example.com' },
    spec: { group: 'pgpilot.example.com', versions: [{ name: 'v1', served: true, storage: true }] },
  };
  const shared = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'aggregate-olm-edit' },
    rules: [{ apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['*'] }],
  };
  const base = facts();
  const f = facts({
    manifestsOf: (cat, b) => [...base.manifestsOf(cat, b), foreignCrd as never, shared as never],
    existing: [
      v0Crd,
      v0Deployment,
      { kind: 'CustomResourceDefinition', name: foreignCrd.metadata.name, uid: 'pg', marks: {} },
      {
        kind: 'ClusterRole',
        name: 'aggregate-olm-edit',
        uid: 'agg',
        labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
        marks: {},
      },
    ],
  });
  const v = check(f);
  assert.equal(v.canMove, false);
  assert.deepEqual(!v.canMove && v.reasons, [
    {
      code: 'not-installed-by-v0',
      message:
        'CustomResourceDefinition postgresclusters.pgpilot.example.com exists ' +
        'and OLM v0 did not install it for etcd.v0.9.4',
      object: { kind: 'CustomResourceDefinition', name: 'postgresclusters.pgpilot.example.com' },
    },
    {
      code: 'shared-role',
      message:
        'ClusterRole aggregate-olm-edit is one of Kubernetes’ or OLM’s shared roles ' +
        '(its name starts with aggregate-); a move never takes it over',
      object: { kind: 'ClusterRole', name: 'aggregate-olm-edit' },
    },
  ]);
  // The same bundle read from its image decides nothing more.
  assert.deepEqual(reasons({ ...f, source: IMAGE_SOURCE }), reasons(f));
});

test("an object already carrying this extension's Helm marks is still refused when OLM v0 did not install it", () => {
  const premarked = {
    kind: 'Deployment',
    name: 'etcd-operator',
    namespace: NS,
    helmRelease: { name: PKG, namespace: NS },
    marks: { managedBy: 'Helm', releaseName: PKG, releaseNamespace: NS },
  };
  assert.deepEqual(reasons(facts({ existing: [premarked] })), [
    'Deployment operators/etcd-operator exists and OLM v0 did not install it for etcd.v0.9.4',
  ]);
});

test('an existing object the person may not read is a reason: whose it is cannot be told', () => {
  const hidden = { kind: 'ClusterRole', name: 'etcd-reader', marks: {}, unreadable: 'clusterroles is forbidden' };
  assert.deepEqual(reasons(facts({ existing: [hidden] })), [
    'whether OLM v0 installed ClusterRole etcd-reader cannot be told: clusterroles is forbidden',
  ]);
});

test('an existing ClusterExtension for the package, or with the name, is a reason', () => {
  assert.deepEqual(
    reasons(
      facts({
        extensions: [
          { name: PKG, packageName: 'x' },
          { name: 'e2', packageName: PKG },
        ],
      }),
    ),
    ['a ClusterExtension named etcd already exists', 'ClusterExtension e2 already installs etcd'],
  );
});

test('CSVs the person may not list leave dependents unknown, which is said, not guessed', () => {
  assert.deepEqual(reasons(facts({ otherOperatorsUnreadable: 'clusterserviceversions is forbidden' })), [
    'whether other operators need or share its APIs cannot be told: clusterserviceversions is forbidden',
  ]);
});

test('every v0 reason is listed at once', () => {
  const csv = csvFor('0.9.4');
  csv.status = { phase: 'Failed' };
  const got = reasons(facts({ csv, subscription: undefined, operatorGroups: [], alsoInstalledIn: ['team2'] }));
  assert.deepEqual(got, [
    'the operator is Failed, not Succeeded: only a running operator is moved',
    'no Subscription in operators has etcd.v0.9.4 installed, so its channel is unknown',
    'operators has 0 OperatorGroups; OLM v0 needs exactly one to say what the operator watches',
    'OLM v0 also installs this package in team2, which shares its CRDs',
  ]);
});

test('a bundle read from its image moves the same, and the target says which image and digest', () => {
  const v = check(facts({ source: IMAGE_SOURCE }));
  assert.ok(v.canMove, JSON.stringify(v));
  assert.deepEqual(v.target.source, IMAGE_SOURCE);
  assert.deepEqual(
    v.target.objects.map((o) => o.kind),
    (check(facts()) as { target: { objects: { kind: string }[] } }).target.objects.map((o) => o.kind),
  );
});

test('manifests that cannot be known are a reason in the reader’s words, not a guess', () => {
  const f = facts();
  const why = 'the catalog gives bundle etcd.v0.9.4 by image only, and this console does not pull bundle images';
  const v = checkMigration({
    ...f,
    content: { catalog: 'olm-console-demo', bundle: 'etcd.v0.9.4', read: { unknown: why } },
  });
  assert.deepEqual(!v.canMove && v.reasons, [
    {
      code: 'no-manifests',
      message:
        'the objects OLM v1 would take over cannot be listed, since the manifests of etcd.v0.9.4 ' +
        `(ClusterCatalog olm-console-demo) are not known: ${why}`,
    },
  ]);
});

test('manifests read for another bundle than the one v1 resolves are asked for again', () => {
  const f = facts();
  const read = { csv: csvFor('0.9.2') as never, others: [], source: { from: 'catalog' as const } };
  const v = checkMigration({ ...f, content: { catalog: 'olm-console-demo', bundle: 'etcd.v0.9.2', read } });
  assert.equal(v.canMove, false);
  assert.equal(!v.canMove && v.read?.bundle.name, 'etcd.v0.9.4');
});
