import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { renderInlineCatalog } from './cluster-catalogs';
import { needsSharedCatalogs, sharedCatalogs } from '../lib/testing/shared-catalogs';

const shared = sharedCatalogs;
const work = mkdtempSync(join(tmpdir(), 'cluster-catalogs-'));
after(() => rmSync(work, { recursive: true, force: true }));

type Blob = {
  schema: string;
  name?: string;
  package?: string;
  image?: string;
  properties?: { type: string; value: { data?: string } }[];
};
function blobs(dir: string, pkg: string): Blob[] {
  return readFileSync(join(dir, pkg, 'catalog.json'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Blob);
}
function objects(b: Blob): { kind: string; metadata: { name: string }; spec?: Record<string, unknown> }[] {
  return (b.properties ?? [])
    .filter((p) => p.type === 'olm.bundle.object')
    .map((p) => JSON.parse(Buffer.from(p.value.data!, 'base64').toString()));
}
/** opm as cluster/build.sh builds it (.ci/run builds it before the tests). */
function opm(): string | undefined {
  const paths =
    spawnSync('bash', [join(import.meta.dirname, '..', 'cluster', 'build.sh'), 'paths']).stdout?.toString() ?? '';
  const p = /^opm=(.+)$/m.exec(paths)?.[1];
  return p && existsSync(p) ? p : undefined;
}

describe('renderInlineCatalog', () => {
  it(
    'gives every bundle of a metadata-only catalog its CSV and owned CRDs inline, and no image',
    needsSharedCatalogs,
    () => {
      const out = join(work, 'gatekeeper');
      const r = renderInlineCatalog(join(shared, 'gatekeeper-operator-product-v4.20'), out);
      assert.deepEqual([r.bundles, r.derived, r.reused], [18, 18, false]);
      const all = blobs(out, 'gatekeeper-operator-product');
      const bundles = all.filter((b) => b.schema === 'olm.bundle');
      assert.equal(bundles.length, 18);
      for (const b of bundles) {
        assert.equal(b.image, undefined);
        const objs = objects(b);
        const csv = objs.find((o) => o.kind === 'ClusterServiceVersion');
        assert.equal(csv?.metadata.name, b.name);
        const owned = ((csv!.spec!.customresourcedefinitions as { owned?: { name: string }[] }).owned ?? []).map(
          (d) => d.name,
        );
        assert.ok(owned.length > 0);
        assert.deepEqual(
          objs
            .filter((o) => o.kind === 'CustomResourceDefinition')
            .map((o) => o.metadata.name)
            .sort(),
          [...owned].sort(),
        );
        // The catalog's own properties stay.
        assert.ok(b.properties!.some((p) => p.type === 'olm.csv.metadata'));
      }
      assert.equal(all.filter((b) => b.schema === 'olm.channel').length, 7);
    },
  );

  it("keeps a bundle's own manifests (its Deployment included) when it has them", () => {
    const src = writeFixtureCatalog(join(work, 'fixture-src'), [{ name: 'alpha', bundles: [{ version: '1.0.0' }] }]);
    const out = join(work, 'fixture');
    const r = renderInlineCatalog(src, out);
    assert.deepEqual([r.bundles, r.derived], [1, 0]);
    const [bundle] = blobs(out, 'alpha').filter((b) => b.schema === 'olm.bundle');
    const objs = objects(bundle!);
    assert.deepEqual(
      objs.map((o) => o.kind),
      ['ClusterServiceVersion', 'CustomResourceDefinition'],
    );
    const install = objs[0]!.spec!.install as { spec: { deployments: { name: string }[] } };
    assert.deepEqual(
      install.spec.deployments.map((d) => d.name),
      ['alpha-operator'],
    );
  });

  it('makes the copy again only when the source changed', () => {
    const src = writeFixtureCatalog(join(work, 'again-src'), [{ name: 'beta', bundles: [{ version: '1.0.0' }] }]);
    const out = join(work, 'again');
    assert.equal(renderInlineCatalog(src, out).reused, false);
    assert.equal(renderInlineCatalog(src, out).reused, true);
    appendFileSync(
      join(src, 'beta', 'catalog.json'),
      '\n{"schema":"olm.channel","package":"beta","name":"fast","entries":[{"name":"beta.v1.0.0"}]}\n',
    );
    assert.equal(renderInlineCatalog(src, out).reused, false);
    assert.deepEqual(
      blobs(out, 'beta')
        .filter((b) => b.schema === 'olm.channel')
        .map((b) => b.name),
      ['stable', 'fast'],
    );
  });

  it('is a catalog opm accepts', needsSharedCatalogs, () => {
    const bin = opm();
    assert.ok(bin, 'opm is not built: run cluster/build.sh opm');
    for (const dir of ['gatekeeper', 'fixture']) {
      const r: ReturnType<typeof spawnSync> = spawnSync(bin!, ['validate', join(work, dir)]);
      assert.equal(r.status, 0, String(r.stderr));
    }
  });
});
