// The catalog form against the CatalogSource fields OLM reads (operator-framework/api v0.36.0
// CatalogSourceSpec: sourceType, image, displayName, publisher, priority,
// updateStrategy.registryPoll.interval as a Go duration).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogSource } from '../resources/catalog-source';
import {
  catalogSourceFromForm,
  editedSpec,
  formFromCatalogSource,
  formProblems,
  specChanges,
} from './catalog-source-form';

const form = {
  image: 'quay.io/acme/catalog:latest',
  displayName: 'Acme',
  publisher: 'Acme Corp',
  priority: 10,
  pollInterval: '10m',
};

test('a new catalog is a grpc CatalogSource pulling the image, polled on the interval', () => {
  assert.deepEqual(catalogSourceFromForm('olm', 'acme', form), {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name: 'acme', namespace: 'olm' },
    spec: {
      sourceType: 'grpc',
      image: 'quay.io/acme/catalog:latest',
      displayName: 'Acme',
      publisher: 'Acme Corp',
      priority: 10,
      updateStrategy: { registryPoll: { interval: '10m' } },
    },
  });
  assert.equal(
    catalogSourceFromForm('olm', 'acme', { ...form, pollInterval: '' }).spec.updateStrategy,
    undefined,
    'no interval: pulled once',
  );
});

test('image references: tags, digests, registries with ports; not URLs or uppercase paths', () => {
  for (const ok of [
    'quay.io/acme/catalog:latest',
    'registry.example.com:5000/team/index:v4.18',
    'acme/catalog',
    `quay.io/acme/catalog@sha256:${'a'.repeat(64)}`,
    'localhost:5000/c:1',
  ])
    assert.deepEqual(formProblems({ ...form, image: ok }), {}, ok);
  for (const bad of ['https://quay.io/acme/catalog', 'quay.io/Acme/catalog', 'quay.io/acme/catalog:', 'two words'])
    assert.match(formProblems({ ...form, image: bad }).image ?? '', /is not an image reference/, bad);
  assert.match(formProblems({ ...form, image: ' ' }).image ?? '', /the index image to pull/);
});

test('the interval is checked as OLM parses it; priority is a 32-bit integer', () => {
  assert.match(
    formProblems({ ...form, pollInterval: '10 minutes' }).pollInterval ?? '',
    /Go duration.*time: unknown unit " minutes"/,
  );
  assert.match(formProblems({ ...form, pollInterval: '0s' }).pollInterval ?? '', /positive/);
  assert.deepEqual(formProblems({ ...form, pollInterval: '1h30m' }), {});
  assert.match(formProblems({ ...form, priority: 1.5 }).priority ?? '', /whole number/);
  assert.match(formProblems({ ...form, priority: 2 ** 31 }).priority ?? '', /32-bit/);
});

const existing: CatalogSource = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'CatalogSource',
  metadata: { name: 'acme', namespace: 'olm' },
  spec: {
    sourceType: 'grpc',
    image: 'quay.io/acme/catalog:v1',
    displayName: 'Acme',
    publisher: 'Acme',
    priority: 0,
    secrets: ['pull-secret'],
    grpcPodConfig: { nodeSelector: { a: 'b' } },
    updateStrategy: { registryPoll: { interval: '30m' } },
  },
};

test("an edit changes the form's fields and keeps the others", () => {
  const next = editedSpec(existing, {
    ...formFromCatalogSource(existing),
    image: 'quay.io/acme/catalog:v2',
    priority: 5,
  });
  assert.deepEqual(next.secrets, ['pull-secret']);
  assert.deepEqual(next.grpcPodConfig, { nodeSelector: { a: 'b' } });
  assert.deepEqual(next.updateStrategy, { registryPoll: { interval: '30m' } });
  assert.deepEqual(specChanges(existing.spec, next), [
    { field: 'spec.image', from: 'quay.io/acme/catalog:v1', to: 'quay.io/acme/catalog:v2' },
    { field: 'spec.priority', from: 0, to: 5 },
  ]);
});

test('clearing the interval stops polling', () => {
  const next = editedSpec(existing, { ...formFromCatalogSource(existing), pollInterval: '' });
  assert.equal(next.updateStrategy, undefined);
  assert.deepEqual(specChanges(existing.spec, next), [
    { field: 'spec.updateStrategy', from: { registryPoll: { interval: '30m' } } },
  ]);
});
