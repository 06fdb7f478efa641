// A restarted console starts with the ClusterCatalog content it read before: served only for the
// same address, digest and unpack time, and read back as untrusted (a file that is not what it says
// is removed, not served). The restart is a process of its own, after catalogd has gone away, so
// content it shows can only have come from the snapshot.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, waitFor } from '../testing/cluster';
import { loadContentSnapshots, saveRefusal } from './content-snapshot';
import { CLUSTER_CATALOG_TYPE, type ClusterCatalog } from './resources';

const run = promisify(execFile);
const cache = join(import.meta.dirname, 'content-cache.ts');

/** What a console process started now, with this snapshot folder, makes of one content address. */
async function restartedRead(dir: string, kubeconfig: string, id: { base: string; ref: string; unpacked: string }) {
  const code = `
    const { KubeConfig } = require('@kubernetes/client-node');
    const { catalogContent } = require(${JSON.stringify(cache)});
    const kc = new KubeConfig();
    kc.loadFromFile(${JSON.stringify(kubeconfig)});
    catalogContent(kc, ${JSON.stringify(id.base)}, ${JSON.stringify(id.ref)}, ${JSON.stringify(id.unpacked)})
      .then((i) => console.log(JSON.stringify({ summary: i.summary, packages: [...(i.catalog?.packages.keys() ?? [])] })));
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', code], {
    env: { ...process.env, OLM_CONSOLE_CATALOG_SNAPSHOT_DIR: dir, LOG_LEVEL: 'error' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    summary: { read: boolean; why?: string; packages?: number };
    packages: string[];
  };
}

/** The package names catalogd serves, read from its answer line by line, apart from the console's reader. */
function servedPackages(url: string, ca: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    https
      .get(`${url}/api/v1/all`, { ca }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve(
            body
              .split('\n')
              .filter((l) => l.includes('"olm.package"'))
              .map((l) => JSON.parse(l) as { schema: string; name: string })
              .filter((d) => d.schema === 'olm.package')
              .map((d) => d.name)
              .sort(),
          ),
        );
      })
      .on('error', reject);
  });
}

describe('ClusterCatalog content kept across a restart', () => {
  const work = mkdtempSync(join(tmpdir(), 'olm-content-snapshot-'));
  const dir = join(work, 'snapshots');
  const kubeconfig = join(work, 'kubeconfig');
  let id: { base: string; ref: string; unpacked: string };
  let served: string[];

  before(async () => {
    const sb = await withSandbox({ deploymentDelayMs: 10 });
    try {
      copyFileSync(sb.kubeconfigPath, kubeconfig);
      const admin = clientAs(sb, 'admin');
      const cc = await waitFor('the demo ClusterCatalog serving', async () => {
        const c = (await admin.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE)).items.find(
          (x) => x.metadata?.name === 'olm-console-demo',
        );
        return c?.status?.urls?.base && c.status.resolvedSource?.image?.ref ? c : undefined;
      });
      id = {
        base: cc.status!.urls!.base!,
        ref: cc.status!.resolvedSource!.image!.ref!,
        unpacked: cc.status!.lastUnpacked ?? '',
      };
      served = await servedPackages(id.base, sb.caPem);
      // The first console: reads catalogd, and leaves the snapshot behind.
      const first = await restartedRead(dir, kubeconfig, id);
      assert.equal(first.summary.read, true);
      assert.deepEqual(first.packages.sort(), served);
      await waitFor('the snapshot file', async () =>
        existsSync(dir) && readdirSync(dir).some((n) => n.endsWith('.v1content.gz')) ? true : undefined,
      );
    } finally {
      await sb.close();
    }
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('with catalogd gone, a restarted console still has the content it read', async () => {
    assert.ok(served.length > 0);
    const again = await restartedRead(dir, kubeconfig, id);
    assert.equal(again.summary.read, true);
    assert.deepEqual(again.packages.sort(), served);
  });

  test('content of another digest at the same address is not taken from the snapshot', async () => {
    const other = await restartedRead(dir, kubeconfig, {
      ...id,
      ref: `${id.ref.split('@')[0]}@sha256:${'0'.repeat(64)}`,
    });
    assert.equal(other.summary.read, false);
    assert.match(other.summary.why ?? '', /could not be read/);
  });

  test('content refused for itself is remembered with its reason, and not asked for again', async () => {
    const refusedDir = join(work, 'refused');
    const base = 'https://127.0.0.1:1/catalogs/huge';
    await saveRefusal(refusedDir, { base, resolvedRef: 'r@sha256:1', lastUnpacked: 't' }, 'the content is too big');
    const read = await restartedRead(refusedDir, kubeconfig, { base, ref: 'r@sha256:1', unpacked: 't' });
    // Asked again, the closed port would have answered "could not be read".
    assert.deepEqual(read.summary, { read: false, why: 'the content is too big' });
  });

  test('a file that is not what it says is removed, not served', async () => {
    const bad = join(work, 'bad');
    await saveRefusal(bad, { base: 'https://a.example/catalogs/x', resolvedRef: 'r', lastUnpacked: 't' }, 'why');
    const [name] = readdirSync(bad);
    // Another address's file under this name, then content that is not JSON lines, then a stranger field.
    const header = (extra: object, base = 'https://a.example/catalogs/x') =>
      JSON.stringify({
        format: 'olm-console.clustercatalog-content/v1',
        base,
        resolvedRef: 'r',
        lastUnpacked: 't',
        savedAt: 1,
        ...extra,
      });
    const cases = [
      gzipSync(`${header({}, 'https://b.example/catalogs/y')}\n`),
      gzipSync(`${header({})}\n{"schema":"olm.package","name":"a"}\nnot json\n`),
      gzipSync(`${header({ owner: 'me' })}\n`),
      Buffer.from('not gzip at all'),
    ];
    for (const data of cases) {
      writeFileSync(join(bad, name!), data);
      assert.deepEqual(await loadContentSnapshots(bad), []);
      assert.equal(existsSync(join(bad, name!)), false);
    }
    // The good one, for contrast: the same file, as written.
    writeFileSync(join(bad, name!), gzipSync(`${header({})}\n{"schema":"olm.package","name":"a"}\n`));
    const [loaded] = await loadContentSnapshots(bad);
    assert.equal(loaded?.index.summary.read, true);
    assert.equal(readFileSync(join(bad, name!)).length > 0, true);
  });
});
