// The labels package-server puts on a PackageManifest, as its provider/labels.go and registry.go
// (OLM v0.38.0) write them: the catalog's, catalog and catalog-namespace, the provider's, the
// default channel head's own, and os.linux / arch.amd64 each only where the CSV names no OS /
// no architecture; relatedImages as operator-registry's GetOperatorImages and GetRelatedImages
// collect them.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { writeFixtureCatalog, type FixtureBundle } from '../testing/fbc-fixture';
import { buildPackageManifest } from './package-manifests';

function manifestOf(bundle: Omit<FixtureBundle, 'version'>) {
  const dir = writeFixtureCatalog(mkdtempSync(join(tmpdir(), 'pm-')), [
    { name: 'demo', bundles: [{ version: '1.0.0', ...bundle }] },
  ]);
  return buildPackageManifest(
    { name: 'cat', namespace: 'olm', labels: { team: 'a' } },
    loadCatalog(dir).packages.get('demo')!,
  )!.manifest;
}

function labelsOf(labels: Record<string, string> | undefined): Record<string, string> {
  return manifestOf({ labels }).metadata.labels ?? {};
}

test('a CSV naming neither OS nor architecture gets both defaults', () => {
  const l = labelsOf(undefined);
  assert.equal(l['operatorframework.io/os.linux'], 'supported');
  assert.equal(l['operatorframework.io/arch.amd64'], 'supported');
  assert.equal(l.team, 'a');
  assert.equal(l.catalog, 'cat');
  assert.equal(l['catalog-namespace'], 'olm');
  assert.equal(l.provider, 'Example');
});

test('a CSV naming only its architectures still gets os.linux, and no arch.amd64 it did not name', () => {
  const l = labelsOf({
    'operatorframework.io/arch.arm64': 'supported',
    'operatorframework.io/arch.s390x': 'supported',
  });
  assert.equal(l['operatorframework.io/os.linux'], 'supported');
  assert.equal(l['operatorframework.io/arch.amd64'], undefined);
  assert.equal(l['operatorframework.io/arch.arm64'], 'supported');
});

test('a CSV naming only its OS still gets arch.amd64', () => {
  const l = labelsOf({ 'operatorframework.io/os.windows': 'supported' });
  assert.equal(l['operatorframework.io/os.linux'], undefined);
  assert.equal(l['operatorframework.io/arch.amd64'], 'supported');
});

test("relatedImages: the install strategy's containers and init containers", () => {
  const m = manifestOf({ initImage: 'quay.example.com/demo-init:1' });
  const desc = (m.status as { channels: { currentCSVDesc: { relatedImages?: string[] } }[] }).channels[0]!
    .currentCSVDesc;
  assert.deepEqual([...(desc.relatedImages ?? [])].sort(), [
    'quay.example.com/demo-init:1',
    'quay.example.com/demo:1.0.0',
  ]);
});
