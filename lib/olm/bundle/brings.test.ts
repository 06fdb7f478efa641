import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleBrings } from './brings';

// A registry+v1 bundle as the catalog's objects or its image give it: a CSV and other objects.
type Over = { spec?: Record<string, unknown>; install?: Record<string, unknown>; others?: unknown[] };

function bundle(over: Over = {}) {
  const csv = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: 'gatewise.v1.0.0' },
    spec: {
      version: '1.0.0',
      installModes: [
        { type: 'OwnNamespace', supported: true },
        { type: 'SingleNamespace', supported: false },
        { type: 'AllNamespaces', supported: true },
      ],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [
            {
              name: 'gatewise-controller',
              spec: {
                template: {
                  spec: {
                    initContainers: [{ name: 'setup', image: 'quay.io/gw/setup@sha256:aa' }],
                    containers: [{ name: 'manager', image: 'quay.io/gw/manager:v1.0.0' }],
                  },
                },
              },
            },
          ],
          ...over.install,
        },
      },
      ...over.spec,
    },
  };
  return { csv, others: over.others ?? [] };
}

const crd = (name: string, versions: unknown, scope = 'Namespaced') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: {
    group: name.slice(name.indexOf('.') + 1),
    scope,
    names: { kind: 'Gateway', plural: name.split('.')[0] },
    versions,
  },
});

// OLM v0 makes a ClusterRole and ClusterRoleBinding of each clusterPermissions entry, and Roles in the
// operator's namespaces (a ClusterRole for an AllNamespaces group) of each permissions entry
// (catalog operator's RBAC steps, docs/olm/install-plans.md and docs/olm/copied-csvs.md).
test('cluster-wide rules hold in every namespace; namespaced ones in the namespaces it is installed for', () => {
  const b = bundleBrings(
    bundle({
      install: {
        clusterPermissions: [
          {
            serviceAccountName: 'gatewise',
            rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['watch', 'get', 'list'] }],
          },
        ],
        permissions: [
          {
            serviceAccountName: 'gatewise',
            rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] }],
          },
        ],
      },
    }),
  );
  assert.deepEqual(
    b.clusterWide.map((p) => [p.serviceAccount, p.rules.map((r) => r.words)]),
    [['gatewise', ['read, list and watch secrets in every namespace']]],
  );
  assert.deepEqual(
    b.namespaced.flatMap((p) => p.rules.map((r) => r.words)),
    ['read and create configmaps in the namespaces it is installed for'],
  );
});

test('wildcards are said as every verb, resource or group, and marked', () => {
  const b = bundleBrings(
    bundle({
      install: {
        clusterPermissions: [
          { serviceAccountName: 'op', rules: [{ apiGroups: ['foo.io'], resources: ['*'], verbs: ['*'] }] },
        ],
      },
    }),
  );
  const rule = b.clusterWide[0]!.rules[0]!;
  assert.equal(rule.words, 'do everything on every resource in group foo.io in every namespace and across the cluster');
  assert.deepEqual(rule.notable, [{ code: 'wildcard', words: 'wildcard: every verb and every resource' }]);
});

test('cluster-scoped resources, the bundle’s own cluster-scoped CRDs and non-resource URLs are said as such', () => {
  const b = bundleBrings(
    bundle({
      install: {
        clusterPermissions: [
          {
            serviceAccountName: 'op',
            rules: [
              { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
              { apiGroups: ['net.example.com'], resources: ['meshes'], verbs: ['list'] },
              { nonResourceURLs: ['/metrics', '/healthz'], verbs: ['get'] },
              { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['gw'], verbs: ['patch'] },
            ],
          },
        ],
      },
      others: [crd('meshes.net.example.com', [{ name: 'v1', served: true, storage: true }], 'Cluster')],
    }),
  );
  assert.deepEqual(
    b.clusterWide[0]!.rules.map((r) => r.words),
    [
      'read nodes across the cluster',
      'list meshes in group net.example.com across the cluster',
      'read the non-resource URLs /metrics and /healthz of the API server',
      'patch deployments named gw in group apps in every namespace',
    ],
  );
  assert.deepEqual(
    b.clusterWide[0]!.rules[0]!.notable.map((n) => n.code),
    ['nodes'],
  );
});

test('rights that reach beyond the operator are marked: secrets, escalation, exec, CRDs, webhooks', () => {
  const rules = [
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind', 'escalate'] },
    { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
    { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list'] },
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['update'] },
    { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['patch'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  ];
  const b = bundleBrings(bundle({ install: { clusterPermissions: [{ serviceAccountName: 'op', rules }] } }));
  assert.deepEqual(
    b.clusterWide[0]!.rules.map((r) => r.notable.map((n) => n.code)),
    [['secrets'], ['escalation'], ['escalation'], ['exec'], [], ['crds'], ['webhooks'], []],
  );
});

test('CRD versions come from the CRD objects, served, storage and deprecated', () => {
  const b = bundleBrings(
    bundle({
      others: [
        crd('gateways.net.example.com', [
          { name: 'v1alpha1', served: true, storage: false, deprecated: true, deprecationWarning: 'use v1' },
          { name: 'v1', served: true, storage: true },
        ]),
      ],
    }),
  );
  assert.deepEqual(b.crds, [
    {
      name: 'gateways.net.example.com',
      group: 'net.example.com',
      kind: 'Gateway',
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false, deprecated: true, deprecationWarning: 'use v1' },
        { name: 'v1', served: true, storage: true, deprecated: false },
      ],
      from: 'object',
    },
  ]);
  assert.deepEqual(b.others, []);
});

test('without CRD objects, the CSV’s owned list names the CRDs and versions, served and storage unknown', () => {
  const b = bundleBrings(
    bundle({
      spec: {
        customresourcedefinitions: {
          owned: [
            { name: 'gateways.net.example.com', version: 'v1', kind: 'Gateway' },
            { name: 'gateways.net.example.com', version: 'v1beta1', kind: 'Gateway' },
          ],
          required: [{ name: 'certificates.certwarden.example.com', version: 'v1', kind: 'Certificate' }],
        },
      },
    }),
  );
  assert.deepEqual(b.crds, [
    {
      name: 'gateways.net.example.com',
      group: 'net.example.com',
      kind: 'Gateway',
      versions: [
        { name: 'v1', deprecated: false },
        { name: 'v1beta1', deprecated: false },
      ],
      from: 'csv',
    },
  ]);
  assert.deepEqual(b.requiredApis, [
    { group: 'certwarden.example.com', version: 'v1', kind: 'Certificate', by: 'crd' },
  ]);
});

test('webhooks say what they see and that a webhook without failurePolicy refuses requests while down', () => {
  const b = bundleBrings(
    bundle({
      spec: {
        webhookdefinitions: [
          {
            type: 'ValidatingAdmissionWebhook',
            generateName: 'vgateway.net.example.com',
            deploymentName: 'gatewise-controller',
            sideEffects: 'None',
            rules: [
              {
                operations: ['CREATE', 'UPDATE'],
                apiGroups: ['net.example.com'],
                apiVersions: ['v1'],
                resources: ['gateways'],
              },
            ],
          },
          {
            type: 'MutatingAdmissionWebhook',
            generateName: 'mpod.net.example.com',
            failurePolicy: 'Ignore',
            rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          },
          { type: 'ConversionWebhook', generateName: 'cgateway', conversionCRDs: ['gateways.net.example.com'] },
          { type: 'Unknown', generateName: 'x' },
        ],
      },
    }),
  );
  assert.deepEqual(
    b.webhooks.map((w) => [w.type, w.name, w.words]),
    [
      [
        'ValidatingAdmissionWebhook',
        'vgateway.net.example.com',
        [
          'sees and may refuse create and update of gateways in group net.example.com',
          'while it is down, the requests it matches are refused',
        ],
      ],
      [
        'MutatingAdmissionWebhook',
        'mpod.net.example.com',
        [
          'sees and may change every operation of pods',
          'while it is down, the requests it matches are let through unchecked',
        ],
      ],
      ['ConversionWebhook', 'cgateway', ['converts gateways.net.example.com between versions']],
    ],
  );
});

test('API services are named version.group; images come from containers, init containers and relatedImages', () => {
  const b = bundleBrings(
    bundle({
      spec: {
        apiservicedefinitions: {
          owned: [
            {
              group: 'metrics.example.com',
              version: 'v1beta1',
              kind: 'PodMetrics',
              deploymentName: 'gatewise-controller',
            },
          ],
        },
        relatedImages: [
          { name: 'manager', image: 'quay.io/gw/manager:v1.0.0' },
          { name: 'proxy', image: 'quay.io/gw/proxy@sha256:bb' },
        ],
      },
    }),
  );
  assert.deepEqual(b.apiServices, [
    {
      name: 'v1beta1.metrics.example.com',
      group: 'metrics.example.com',
      version: 'v1beta1',
      kind: 'PodMetrics',
      deployment: 'gatewise-controller',
    },
  ]);
  assert.deepEqual(b.images, [
    { image: 'quay.io/gw/setup@sha256:aa', uses: ['init container setup of deployment gatewise-controller'] },
    {
      image: 'quay.io/gw/manager:v1.0.0',
      uses: ['container manager of deployment gatewise-controller', 'related image manager'],
    },
    { image: 'quay.io/gw/proxy@sha256:bb', uses: ['related image proxy'] },
  ]);
  assert.deepEqual(b.installModes, ['OwnNamespace', 'AllNamespaces']);
});

test('other objects are listed by kind and name; the CSV and CRDs are not among them', () => {
  const b = bundleBrings(
    bundle({
      others: [
        crd('gateways.net.example.com', [{ name: 'v1', served: true, storage: true }]),
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'gatewise-metrics' } },
        { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'gatewise' } },
      ],
    }),
  );
  assert.deepEqual(b.others, [
    { kind: 'Service', name: 'gatewise-metrics' },
    { kind: 'ServiceMonitor', name: 'gatewise' },
  ]);
});

test('hostile content: wrong types are skipped, long lists are cut and the cut is said', () => {
  const many = Array.from({ length: 500 }, (_, i) => ({ apiGroups: [''], resources: [`r${i}`], verbs: ['get'] }));
  const b = bundleBrings({
    csv: {
      metadata: { name: 42 },
      spec: {
        installModes: 'AllNamespaces',
        install: {
          spec: {
            clusterPermissions: [{ serviceAccountName: 'op', rules: [...many, 'x', { verbs: 'get' }] }],
            permissions: { serviceAccountName: 'op' },
            deployments: [{ name: 'd', spec: { template: { spec: { containers: [{ name: 'c', image: 7 }] } } } }],
          },
        },
        customresourcedefinitions: { owned: [null, { name: ['x'] }] },
        webhookdefinitions: [{ type: 'ValidatingAdmissionWebhook', generateName: 'w', rules: 'all' }],
        relatedImages: [{ image: 'x'.repeat(5000) }],
      },
    },
    others: [null, 'text', { kind: 'Service', metadata: 'm' }],
  });
  assert.equal(b.csvName, '');
  assert.equal(b.clusterWide[0]!.rules.length, 200);
  assert.deepEqual(b.namespaced, []);
  assert.deepEqual(b.installModes, []);
  assert.deepEqual(b.crds, []);
  assert.deepEqual(b.images, []);
  assert.deepEqual(b.webhooks[0]!.rules, []);
  assert.deepEqual(b.others, [{ kind: 'Service', name: '(unnamed)' }]);
  assert.deepEqual(b.cut, ['only the first 200 of 502 rules of cluster-wide permissions are shown']);
});

test('a bundle whose lists are each within bounds but huge together is cut in all, and says so', () => {
  const rules = Array.from({ length: 200 }, (_, i) => ({
    apiGroups: [''],
    resources: Array.from({ length: 50 }, (_, j) => `r${i}-${j}`),
    verbs: ['get'],
  }));
  const accounts = Array.from({ length: 10 }, (_, i) => ({ serviceAccountName: `sa${i}`, rules }));
  const b = bundleBrings(bundle({ install: { clusterPermissions: accounts } }));
  const resources = b.clusterWide.flatMap((p) => p.rules).reduce((n, r) => n + r.resources.length, 0);
  assert.ok(resources < 20_000, `${resources} resources kept`);
  assert.ok(resources > 10_000, 'what fits is kept');
  assert.deepEqual(b.cut, ['the bundle gives more than 20000 entries in all: the rest are not shown']);
});
