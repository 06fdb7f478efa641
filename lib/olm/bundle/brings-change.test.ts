import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleBrings } from './brings';
import { bringsChange } from './brings-change';

// Two versions of one bundle, told by what differs: rules, CRD versions, webhooks, images.
interface Facts {
  rules?: unknown[];
  localRules?: unknown[];
  versions?: { name: string; served?: boolean; storage?: boolean }[];
  webhooks?: unknown[];
  apiServices?: unknown[];
  image?: string;
}

function brings(f: Facts = {}) {
  return bundleBrings({
    csv: {
      metadata: { name: 'gatewise.v1.0.0' },
      spec: {
        install: {
          spec: {
            clusterPermissions: [{ serviceAccountName: 'gatewise', rules: f.rules ?? [] }],
            permissions: [{ serviceAccountName: 'gatewise', rules: f.localRules ?? [] }],
            deployments: [
              {
                name: 'gw',
                spec: { template: { spec: { containers: [{ name: 'm', image: f.image ?? 'quay.io/gw:1' }] } } },
              },
            ],
          },
        },
        webhookdefinitions: f.webhooks ?? [],
        apiservicedefinitions: { owned: f.apiServices ?? [] },
      },
    },
    others: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'gateways.net.example.com' },
        spec: {
          group: 'net.example.com',
          names: { kind: 'Gateway', plural: 'gateways' },
          scope: 'Namespaced',
          versions: (f.versions ?? [{ name: 'v1', served: true, storage: true }]).map((v) => ({
            served: true,
            storage: false,
            ...v,
          })),
        },
      },
    ],
  });
}

const secretsRead = { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] };

test('the same bundle twice changes nothing', () => {
  const c = bringsChange(brings({ rules: [secretsRead] }), brings({ rules: [secretsRead] }));
  assert.equal(c.unchanged, true);
});

test('a verb gained on the same resources is one added rule with just that verb, in words', () => {
  const c = bringsChange(
    brings({ rules: [secretsRead] }),
    brings({ rules: [{ ...secretsRead, verbs: ['get', 'list', 'watch'] }] }),
  );
  assert.deepEqual(
    c.rulesAdded.map((r) => [r.scope, r.serviceAccount, r.rule.words, r.rule.notable.map((n) => n.code)]),
    [['clusterWide', 'gatewise', 'watch secrets in every namespace', ['secrets']]],
  );
  assert.deepEqual(c.rulesDropped, []);
  assert.equal(c.unchanged, false);
});

test('rules dropped and added are kept per scope', () => {
  const pods = { apiGroups: [''], resources: ['pods'], verbs: ['delete'] };
  const c = bringsChange(brings({ rules: [secretsRead] }), brings({ localRules: [pods] }));
  assert.deepEqual(
    c.rulesDropped.map((r) => [r.scope, r.rule.words]),
    [['clusterWide', 'read and list secrets in every namespace']],
  );
  assert.deepEqual(
    c.rulesAdded.map((r) => [r.scope, r.rule.words]),
    [['namespaced', 'delete pods in the namespaces it is installed for']],
  );
});

test('a wildcard held before covers the verbs named after', () => {
  const c = bringsChange(brings({ rules: [{ ...secretsRead, verbs: ['*'] }] }), brings({ rules: [secretsRead] }));
  assert.deepEqual(c.rulesAdded, []);
  assert.deepEqual(
    c.rulesDropped.map((r) => r.rule.words),
    ['do everything on secrets in every namespace'],
  );
});

test('a new storage version keeping the old one served drops nothing stored', () => {
  const c = bringsChange(
    brings({ versions: [{ name: 'v1', storage: true }] }),
    brings({ versions: [{ name: 'v1' }, { name: 'v2', storage: true }] }),
  );
  assert.deepEqual(c.crds, [
    {
      name: 'gateways.net.example.com',
      change: 'changed',
      versionsAdded: ['v2'],
      versionsRemoved: [],
      storage: { from: 'v1', to: 'v2' },
      storedDropped: [],
    },
  ]);
  assert.equal(c.dropsStoredVersion, false);
});

// kube-apiserver: status.storedVersions[i] "must appear in spec.versions"; OLM v0: "new CRD removes
// version … that is listed as a stored version on the existing CRD".
test('removing the version the installed bundle stores in drops a stored version', () => {
  const c = bringsChange(
    brings({ versions: [{ name: 'v1', storage: true }] }),
    brings({ versions: [{ name: 'v2', storage: true }] }),
  );
  assert.deepEqual(c.crds[0]!.versionsRemoved, ['v1']);
  assert.deepEqual(c.crds[0]!.storedDropped, [{ version: 'v1', why: 'storage' }]);
  assert.equal(c.dropsStoredVersion, true);
});

test("a version still in the installed CRD's storedVersions counts, though no longer the storage version", () => {
  const from = brings({ versions: [{ name: 'v1alpha1' }, { name: 'v1', storage: true }] });
  const to = brings({ versions: [{ name: 'v1', storage: true }] });
  assert.deepEqual(bringsChange(from, to).crds[0]!.storedDropped, []);
  const stored = new Map([['gateways.net.example.com', ['v1alpha1', 'v1']]]);
  assert.deepEqual(bringsChange(from, to, { storedVersions: stored }).crds[0]!.storedDropped, [
    { version: 'v1alpha1', why: 'storedVersions' },
  ]);
});

test('webhooks added, removed and changed; API services and images', () => {
  const hook = (failurePolicy: string) => ({
    type: 'ValidatingAdmissionWebhook',
    generateName: 'vgw.example.com',
    failurePolicy,
    rules: [{ operations: ['CREATE'], apiGroups: ['net.example.com'], apiVersions: ['v1'], resources: ['gateways'] }],
  });
  const c = bringsChange(
    brings({ webhooks: [hook('Ignore')], image: 'quay.io/gw:1' }),
    brings({
      webhooks: [hook('Fail'), { type: 'MutatingAdmissionWebhook', generateName: 'mgw.example.com', rules: [] }],
      apiServices: [{ group: 'metrics.example.com', version: 'v1', kind: 'M' }],
      image: 'quay.io/gw:2',
    }),
  );
  assert.deepEqual(
    c.webhooks.added.map((w) => w.name),
    ['mgw.example.com'],
  );
  assert.deepEqual(
    c.webhooks.changed.map((w) => [w.name, w.fields]),
    [['vgw.example.com', ['failurePolicy']]],
  );
  assert.deepEqual(
    c.apiServices.added.map((a) => a.name),
    ['v1.metrics.example.com'],
  );
  assert.deepEqual(c.images, { added: ['quay.io/gw:2'], removed: ['quay.io/gw:1'] });
});
