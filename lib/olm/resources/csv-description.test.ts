import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvOfBundle, describeCsv, safeHttpUrl, suggestedNamespaceOf } from './csv-description';

test('sparse or odd metadata reads as absent, never a crash', () => {
  const d = describeCsv(
    {
      metadata: {
        annotations: {
          capabilities: 3 as unknown as string,
          categories: ' A, ,B ',
          'alm-examples': '{not json',
          'operators.openshift.io/infrastructure-features': '["disconnected", 5, null]',
        },
      },
      spec: {
        displayName: 42,
        keywords: 'db',
        maintainers: [{ email: 'x' }, { name: 'Ann' }],
        installModes: [
          { type: 'OwnNamespace', supported: 'true' },
          { type: 'Bogus', supported: true },
        ],
      },
    },
    'fallback',
  );
  assert.equal(d.displayName, '42');
  assert.equal(d.capability, '3');
  assert.deepEqual(d.categories, ['A', 'B']);
  assert.deepEqual(d.keywords, []);
  assert.deepEqual(d.examples, []);
  assert.deepEqual(d.infrastructureFeatures, ['Disconnected'], 'known features only, by their names');
  assert.deepEqual(d.maintainers, [{ name: 'Ann', email: undefined }]);
  assert.deepEqual(
    d.installModes.filter((m) => m.supported).map((m) => m.type),
    ['OwnNamespace'],
  );
  assert.equal(describeCsv(undefined, 'pkg').displayName, 'pkg');
  assert.equal(
    describeCsv({ spec: { customresourcedefinitions: { owned: [{ kind: 'X' }, null, 'y'] } } }).providedApis.length,
    0,
  );
});

test('links and repository are http(s) only', () => {
  assert.equal(safeHttpUrl('javascript:alert(1)'), undefined);
  assert.equal(safeHttpUrl('data:text/html,x'), undefined);
  assert.equal(safeHttpUrl('/relative'), undefined);
  assert.equal(safeHttpUrl(' https://example.com/a '), 'https://example.com/a');
  const d = describeCsv({
    metadata: { annotations: { repository: 'javascript:x' } },
    spec: {
      links: [
        { name: 'Docs', url: 'https://docs.example.com' },
        { name: 'Bad', url: 'javascript:alert(1)' },
        { url: 'http://x.example.com' },
      ],
      provider: { name: 'P', url: 'ftp://x' },
    },
  });
  assert.equal(d.repository, undefined);
  assert.deepEqual(d.links, [
    { name: 'Docs', url: 'https://docs.example.com/' },
    { name: 'http://x.example.com/', url: 'http://x.example.com/' },
  ]);
  assert.equal(d.provider.url, undefined);
});

test('provided and required APIs from CRDs and API services, with their groups', () => {
  const d = describeCsv({
    spec: {
      customresourcedefinitions: {
        owned: [
          { name: 'dbs.db.example.com', version: 'v1', kind: 'Db', displayName: 'Database', description: 'A db' },
        ],
        required: [{ name: 'certs.cert.example.com', version: 'v1', kind: 'Cert' }],
      },
      apiservicedefinitions: { owned: [{ group: 'metrics.example.com', version: 'v1beta1', kind: 'Metric' }] },
    },
  });
  assert.deepEqual(
    d.providedApis.map((a) => [a.group, a.version, a.kind, a.name]),
    [
      ['db.example.com', 'v1', 'Db', 'dbs.db.example.com'],
      ['metrics.example.com', 'v1beta1', 'Metric', 'v1beta1.metrics.example.com'],
    ],
  );
  assert.deepEqual(
    d.requiredApis.map((a) => a.kind),
    ['Cert'],
  );
});

test('suggested namespace, its template, the initialization resource and examples', () => {
  const d = describeCsv({
    metadata: {
      annotations: {
        'operatorframework.io/suggested-namespace-template': JSON.stringify({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'vk-system', labels: { a: 'b', n: 1 }, annotations: { c: 'd' } },
        }),
        'operatorframework.io/initialization-resource': JSON.stringify({
          apiVersion: 'x.example.com/v1',
          kind: 'Init',
          metadata: { name: 'init' },
          spec: {},
        }),
        'alm-examples': JSON.stringify([{ apiVersion: 'x.example.com/v1', kind: 'Init' }, { noKind: true }]),
        'console.openshift.io/disable-operand-delete': 'true',
      },
    },
  });
  assert.deepEqual(d.suggestedNamespaceTemplate, {
    name: 'vk-system',
    labels: { a: 'b', n: '1' },
    annotations: { c: 'd' },
  });
  assert.equal(suggestedNamespaceOf(d), 'vk-system');
  assert.equal(d.initializationResource?.kind, 'Init');
  assert.equal(d.initializationResource?.name, 'init');
  assert.equal(d.examples.length, 1);
  assert.equal(d.disableOperandDelete, true);
});

test("a bundle's olm.csv.metadata reads as a CSV, CRD descriptions included", () => {
  const csv = csvOfBundle({
    properties: [],
    csvMetadata: {
      displayName: 'X',
      annotations: { capabilities: 'Basic Install' },
      crdDescriptions: { owned: [{ name: 'a.b.c', version: 'v1', kind: 'A' }] },
    },
  });
  const d = describeCsv(csv);
  assert.equal(d.displayName, 'X');
  assert.equal(d.capability, 'Basic Install');
  assert.deepEqual(
    d.providedApis.map((a) => a.kind),
    ['A'],
  );
});
