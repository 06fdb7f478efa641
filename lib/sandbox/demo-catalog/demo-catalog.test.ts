// The demo catalog: valid as opm validates, reproducible from build.ts, and holding the features
// its README promises (each checked here against the files).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { describeProblems } from '../../olm/fbc/catalog';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { bundleCsv } from '../../olm/fbc/model';
import { packageChannelGraph } from '../../olm/graph/from-model';
import { updatePath } from '../../olm/graph/update-path';
import { installModeChoices } from '../../olm/install-modes/wizard';
import type { InstallMode } from '../../olm/resources/cluster-service-version';
import { buildDemoCatalog } from './build';
import { DEMO_CATALOG_DIR } from './location';

const cat = loadCatalog(DEMO_CATALOG_DIR);
const pkg = (n: string) => cat.packages.get(n)!;
const headCsv = (n: string, ch?: string) => {
  const p = pkg(n);
  const g = packageChannelGraph(p, ch ?? p.defaultChannel!)!;
  return bundleCsv(p.bundles.get(g.head!)!) as {
    metadata: { annotations: Record<string, string>; labels: Record<string, string> };
    spec: { installModes: InstallMode[] };
  };
};

describe('demo catalog', () => {
  test('loads with no problem: 13 packages', () => {
    assert.deepEqual(describeProblems(cat), []);
    assert.equal(cat.packages.size, 13);
  });

  test('build.ts reproduces the committed files byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-catalog-'));
    try {
      buildDemoCatalog(dir);
      for (const p of readdirSync(DEMO_CATALOG_DIR)) {
        assert.equal(
          readFileSync(join(dir, p, 'catalog.yaml'), 'utf8'),
          readFileSync(join(DEMO_CATALOG_DIR, p, 'catalog.yaml'), 'utf8'),
          p,
        );
      }
      assert.deepEqual(readdirSync(dir).sort(), readdirSync(DEMO_CATALOG_DIR).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('pgpilot: three channels, default stable (not the first by name), a skipRange head, a pre-release', () => {
    const p = pkg('pgpilot');
    assert.deepEqual([...p.channels.keys()].sort(), ['candidate', 'fast', 'stable']);
    assert.equal(p.defaultChannel, 'stable');
    const stable = packageChannelGraph(p, 'stable')!;
    assert.equal(stable.head, 'pgpilot.v1.4.0');
    assert.equal(stable.nodes.find((n) => n.name === 'pgpilot.v1.4.0')?.skipRange, '>=1.0.0 <1.4.0');
    assert.deepEqual(
      updatePath(stable, { name: 'pgpilot.v1.1.0', version: '1.1.0' }).steps.map((s) => s.to),
      ['pgpilot.v1.4.0'],
    );
    assert.equal(p.bundles.get('pgpilot.v2.0.0-rc.1')?.version, '2.0.0-rc.1');
  });

  test('cachely: 0.9.2 skips the broken 0.9.1, which is never an upgrade target', () => {
    const g = packageChannelGraph(pkg('cachely'), 'alpha')!;
    assert.deepEqual(g.nodes.find((n) => n.name === 'cachely.v0.9.1')?.skippedBy, ['cachely.v0.9.2']);
    assert.deepEqual(
      updatePath(g, { name: 'cachely.v0.9.0', version: '0.9.0' }).steps.map((s) => s.to),
      ['cachely.v0.9.2'],
    );
  });

  test('gpu-forge: versions with build metadata, in bundles and CSVs named as object names may be', () => {
    const p = pkg('gpu-forge');
    const versions = [...p.bundles.values()].map((b) => [b.name, b.version]);
    assert.deepEqual(versions, [
      ['gpu-forge.v24.3.0-build.5', '24.3.0+build.5'],
      ['gpu-forge.v24.3.1-build.2', '24.3.1+build.2'],
    ]);
    const csv = headCsv('gpu-forge') as unknown as { metadata: { name: string }; spec: { version: string } };
    assert.deepEqual([csv.metadata.name, csv.spec.version], ['gpu-forge.v24.3.1-build.2', '24.3.1+build.2']);
  });

  test('every bundle is named as a CSV may be named (a DNS-1123 subdomain)', () => {
    // apimachinery's IsDNS1123Subdomain, which kube-apiserver applies to a CSV's metadata.name.
    const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    const bad = [...cat.packages.values()]
      .flatMap((p) => [...p.bundles.keys()])
      .filter((n) => n.length > 253 || !subdomain.test(n));
    assert.deepEqual(bad, []);
  });

  test('every install mode combination the README lists', () => {
    const modes = (n: string, ch?: string) => installModeChoices(headCsv(n, ch).spec.installModes);
    assert.deepEqual(modes('certwarden'), ['AllNamespaces']);
    assert.deepEqual(modes('quillmq'), ['OwnNamespace']);
    assert.deepEqual(modes('vaultkeeper'), ['OwnNamespace', 'SingleNamespace']);
    assert.deepEqual(modes('pgpilot'), ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.deepEqual(modes('backstop', 'v1'), ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.deepEqual(
      modes('backstop', 'v2'),
      ['OwnNamespace', 'SingleNamespace', 'MultiNamespace'],
      'a later version drops AllNamespaces',
    );
  });

  test('dependencies: satisfiable within the catalog, and one that nothing satisfies', () => {
    const vk = pkg('vaultkeeper').bundles.get('vaultkeeper.v2.1.0')!;
    assert.deepEqual(vk.requiredApis, [{ group: 'certwarden.example.com', version: 'v1', kind: 'Certificate' }]);
    assert.ok(
      pkg('certwarden')
        .bundles.get('certwarden.v1.1.0')!
        .providedApis.some((a) => a.kind === 'Certificate'),
    );
    assert.deepEqual(pkg('logship').bundles.get('logship.v0.5.0')!.requiredPackages, [
      { packageName: 'metrics-agent-core', versionRange: '>=1.0.0' },
    ]);
    assert.equal(cat.packages.has('metrics-agent-core'), false);
  });

  test('deprecations of a package, a channel and a bundle', () => {
    const f = pkg('flagpole');
    assert.match(f.deprecation ?? '', /no longer maintained/);
    assert.match(f.channels.get('legacy')?.deprecation ?? '', /no more updates/);
    assert.match(f.bundles.get('flagpole.v1.0.0')?.deprecation ?? '', /FP-2026-3/);
  });

  test('console annotations and labels', () => {
    assert.equal(
      headCsv('tenant-core').metadata.annotations['operators.operatorframework.io/operator-type'],
      'non-standalone',
    );
    assert.equal(headCsv('metricsmith').metadata.labels['operatorframework.io/arch.arm64'], 'supported');
    assert.equal(headCsv('metricsmith').metadata.labels['operatorframework.io/arch.amd64'], undefined, 'arm64 only');
    assert.equal(headCsv('gpu-forge').metadata.labels['operatorframework.io/arch.amd64'], 'supported');
    assert.equal(headCsv('pgpilot').metadata.annotations['operatorframework.io/suggested-namespace'], 'pgpilot-system');
    assert.match(
      headCsv('vaultkeeper').metadata.annotations['operatorframework.io/suggested-namespace-template']!,
      /vaultkeeper-system/,
    );
    assert.match(
      headCsv('vaultkeeper').metadata.annotations['operator.openshift.io/uninstall-message']!,
      /Unseal keys/,
    );
    assert.equal(headCsv('backstop').metadata.annotations['console.openshift.io/disable-operand-delete'], 'true');
    const gw = pkg('gatewise').bundles.get('gatewise.v1.2.0')!.providedApis;
    const rk = pkg('routekit').bundles.get('routekit.v0.3.0')!.providedApis;
    assert.deepEqual(gw, rk, 'two packages provide the same API');
  });
});
