// `npm run sandbox` (lib/sandbox/main.ts) as a person starts it: with no flag its demo catalog
// gives bundles by image in the sandbox's registry, as published catalogs do; `--bundle-images
// off` gives them back their objects. Read as catalogd's content API serves them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const main = join(import.meta.dirname, '..', 'main.ts');

type Bundle = { schema: string; name: string; image?: string; properties?: { type: string }[] };

async function demoBundles(flags: string[]): Promise<{ bundles: Bundle[]; registry: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-command-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), ...flags],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/^image registry: /m.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}):\n${out}`)));
    });
    const content = /catalogd\): (https:\/\/\S+)\/catalogs\//.exec(out)![1]!;
    const registry = new URL(/^image registry: (https:\/\/\S+)/m.exec(out)![1]!).host;
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${content}/catalogs/olm-console-demo/api/v1/all`,
        { ca: readFileSync(join(dir, 'serving.crt'), 'utf8') },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const bundles = body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Bundle)
      .filter((b) => b.schema === 'olm.bundle');
    return { bundles, registry };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const hasObjects = (b: Bundle) => (b.properties ?? []).some((p) => p.type === 'olm.bundle.object');

describe('npm run sandbox', () => {
  test("by default, the demo catalog gives every bundle by image in the sandbox's registry", async () => {
    const { bundles, registry } = await demoBundles([]);
    assert.ok(bundles.length > 20, `${bundles.length} bundles`);
    for (const b of bundles) {
      assert.ok(b.image?.startsWith(`${registry}/demo/`), `${b.name}: ${b.image}`);
      assert.ok(!hasObjects(b), `${b.name} carries no objects`);
    }
  });

  test('--bundle-images off: every demo bundle carries its objects', async () => {
    const { bundles } = await demoBundles(['--bundle-images', 'off']);
    assert.ok(bundles.length > 20);
    for (const b of bundles) assert.ok(hasObjects(b), `${b.name} carries its objects`);
  });
});
