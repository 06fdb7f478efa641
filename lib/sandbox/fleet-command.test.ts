// `npm run sandbox -- --clusters N` (lib/sandbox/main.ts), which `npm start -- --clusters N` runs:
// `--bundle-images` is every cluster's, as it is the one sandbox's. By default each cluster's demo
// catalog gives bundles by image in that cluster's registry; `--bundle-images off` gives every
// cluster's bundles back their objects. Read as each cluster's catalogd serves them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import yaml from 'js-yaml';

const main = join(import.meta.dirname, 'main.ts');

type Bundle = { schema: string; name: string; image?: string; properties?: { type: string }[] };
type Kubeconfig = {
  clusters: {
    name: string;
    cluster: {
      'certificate-authority-data': string;
      extensions?: { name: string; extension: { url: string } }[];
    };
  }[];
};

function get(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Each cluster's demo bundles and the registry its kubeconfig names, from a fleet started with `flags`. */
async function fleetBundles(flags: string[]): Promise<{ name: string; registry: string; bundles: Bundle[] }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-fleet-command-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--clusters', '2', '--kubeconfig', kubeconfig, ...flags],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/^kubeconfig: /m.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}):\n${out}`)));
    });
    const doc = yaml.load(readFileSync(kubeconfig, 'utf8')) as Kubeconfig;
    return await Promise.all(
      doc.clusters.map(async ({ name, cluster }) => {
        const ext = (n: string) => cluster.extensions?.find((e) => e.name === n)?.extension.url ?? '';
        const ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
        const body = await get(`${ext('olm-console.dev/catalogd')}/catalogs/olm-console-demo/api/v1/all`, ca);
        const bundles = body
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Bundle)
          .filter((b) => b.schema === 'olm.bundle');
        return { name, registry: new URL(ext('olm-console.dev/image-registry')).host, bundles };
      }),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const hasObjects = (b: Bundle) => (b.properties ?? []).some((p) => p.type === 'olm.bundle.object');

describe('npm run sandbox -- --clusters 2', () => {
  test("by default, every cluster's demo catalog gives its bundles by image in that cluster's registry", async () => {
    const clusters = await fleetBundles([]);
    assert.equal(clusters.length, 2);
    for (const c of clusters) {
      assert.ok(c.bundles.length > 20, `${c.name}: ${c.bundles.length} bundles`);
      for (const b of c.bundles) {
        assert.ok(b.image?.startsWith(`${c.registry}/demo/`), `${c.name} ${b.name}: ${b.image}`);
        assert.ok(!hasObjects(b), `${c.name} ${b.name} carries no objects`);
      }
    }
  });

  test("--bundle-images off: every cluster's demo bundles carry their objects", async () => {
    const clusters = await fleetBundles(['--bundle-images', 'off']);
    assert.equal(clusters.length, 2);
    for (const c of clusters) {
      assert.ok(c.bundles.length > 20, `${c.name}: ${c.bundles.length} bundles`);
      for (const b of c.bundles) assert.ok(hasObjects(b), `${c.name} ${b.name} carries its objects`);
    }
  });
});
